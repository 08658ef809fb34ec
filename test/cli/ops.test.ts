import { expect } from 'chai';
import { einvoice } from '../helpers/cli';
import { randomUUID } from 'node:crypto';
import { temporalClient } from '../../src/temporal/client';
import { invoiceWorkflowId } from '../../src/temporal/contract';
import { getInvoice, invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner } from '../helpers/partners';
import { ensureWorker, stopWorker } from '../helpers/worker';

describe('einvoice ops', function () {
  this.timeout(180_000);
  before(() => ensureWorker());

  it('stuck lists an invoice whose pipeline died; retry restarts it from its persisted status', async () => {
    const p = await newPartner();
    let invoiceId = '';
    await stopWorker();
    try {
      invoiceId = (await postInvoice(p, invoiceBody(p))).body.invoiceId;
      // The run dies (an operator terminated it, or it failed for good) with the invoice still queued.
      const client = await temporalClient();
      await client.workflow.getHandle(invoiceWorkflowId(invoiceId)).terminate('simulated crash');
      const stuck = await einvoice('ops', 'stuck', '--minutes', '0');
      expect(stuck.code, stuck.stderr).to.equal(0);
      const listed = JSON.parse(stuck.stdout).find((s: any) => s.invoiceId === invoiceId);
      expect(listed).to.include({ status: 'queued', partnerId: p.partnerId, workflowId: invoiceWorkflowId(invoiceId) });
      const longer = await einvoice('ops', 'stuck', '--minutes', '60');
      expect(JSON.parse(longer.stdout).map((s: any) => s.invoiceId)).to.not.include(invoiceId);
      const retried = await einvoice('ops', 'retry', invoiceId);
      expect(retried.code, retried.stderr).to.equal(0);
      expect(JSON.parse(retried.stdout)).to.deep.equal({ invoiceId, status: 'queued', action: 'restarted' });
    } finally {
      await ensureWorker();
    }
    await waitForStatus(p, invoiceId, 'acknowledged');
  });

  it('retry of a rejected invoice starts a new run (no rate limit for operators)', async () => {
    const p = await newPartner();
    const { body } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name += ' [asp:reject]')));
    await waitForStatus(p, body.invoiceId, 'rejected');
    for (const run of [2, 3, 4, 5]) {
      const res = await einvoice('ops', 'retry', body.invoiceId);
      expect(JSON.parse(res.stdout)).to.deep.equal({ invoiceId: body.invoiceId, status: 'queued', action: 'requeued_and_signalled' });
      const done = await waitForStatus(p, body.invoiceId, 'rejected');
      expect(done.run).to.equal(run);
    }
  });

  it('retry nudges a run waiting for the acknowledgement: it polls the ASP at once', async () => {
    const p = await newPartner();
    const { body } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name += ' [asp:no-ack]')));
    await waitForStatus(p, body.invoiceId, 'delivered');
    const res = await einvoice('ops', 'retry', body.invoiceId);
    expect(JSON.parse(res.stdout)).to.deep.equal({ invoiceId: body.invoiceId, status: 'delivered', action: 'nudged' });
    await waitForStatus(p, body.invoiceId, 'acknowledged');
    expect((await getInvoice(p, body.invoiceId)).body.run).to.equal(1);
  });

  it('usage errors exit 2; an unknown or acknowledged invoice exits 1 with one line', async () => {
    for (const args of [['ops'], ['ops', 'retry'], ['ops', 'stuck', '--minutes', 'ten'], ['ops', 'frobnicate']]) {
      const res = await einvoice(...args);
      expect(res.code, args.join(' ')).to.equal(2);
      expect(res.stderr).to.contain('einvoice ops');
    }
    const unknown = await einvoice('ops', 'retry', randomUUID());
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.match(/^einvoice ops: no invoice /);
    const p = await newPartner();
    const { body } = await postInvoice(p, invoiceBody(p));
    await waitForStatus(p, body.invoiceId, 'acknowledged');
    const acked = await einvoice('ops', 'retry', body.invoiceId);
    expect([acked.code, acked.stderr.trim()]).to.deep.equal([1, `einvoice ops: invoice ${body.invoiceId} is acknowledged: nothing to retry`]);
  });
});
