import { expect } from 'chai';
import { einvoice } from '../helpers/cli';
import { randomUUID } from 'node:crypto';
import { temporalClient } from '../../src/temporal/client';
import { newPartner } from '../helpers/partners';
import { WebhookReceiver, invoiceAt } from '../helpers/webhook-receiver';
import { ensureWorker } from '../helpers/worker';

describe('einvoice ops replay-webhook | webhook-deliveries', function () {
  this.timeout(120_000);
  before(() => ensureWorker());

  it('replays the last event as a new delivery and lists every delivery with its attempt log', async () => {
    const hook = await WebhookReceiver.start((_req, n) => (n === 1 ? 502 : 200));
    try {
      const p = await newPartner({ webhookUrl: hook.url });
      const invoiceId = await invoiceAt(p, 'delivered');
      const res = await einvoice('ops', 'replay-webhook', invoiceId);
      expect(res.code, res.stderr).to.equal(0);
      const out = JSON.parse(res.stdout);
      expect(out).to.include({ invoiceId, status: 'pending', workflowId: `webhook-${out.deliveryId}` });
      await (await temporalClient()).workflow.getHandle(out.workflowId).result();

      const list = await einvoice('ops', 'webhook-deliveries', invoiceId);
      expect(list.code, list.stderr).to.equal(0);
      const [row] = JSON.parse(list.stdout);
      expect(row).to.include({ deliveryId: out.deliveryId, status: 'delivered', attempts: 2, trigger: 'replay' });
      expect(row.attemptLog.map((a: any) => a.responseStatus)).to.deep.equal([502, 200]);
      expect(hook.forDelivery(out.deliveryId)).to.have.length(2);
    } finally {
      await hook.close();
    }
  });

  it('an unknown invoice is a one-line error (exit 1); a missing argument is a usage error (exit 2)', async () => {
    const unknown = await einvoice('ops', 'replay-webhook', randomUUID());
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr.trim().split('\n')).to.have.length(1);
    expect(unknown.stderr).to.contain('no invoice');
    const usage = await einvoice('ops', 'replay-webhook');
    expect(usage.code).to.equal(2);
  });
});
