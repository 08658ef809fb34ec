import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { config } from '../../src/config';
import { Invoice } from '../../src/db/models';
import { temporalClient } from '../../src/temporal/client';
import { ensureWorker } from '../helpers/worker';
import { randomTrn } from '../helpers/partners';

async function draftInvoice(): Promise<string> {
  const id = randomUUID();
  await Invoice.create({
    _id: id, partnerId: 'p', smeId: randomUUID(), mode: 'test', number: `INV-${id.slice(0, 8)}`, issueYear: 2026,
    issueDate: '2026-11-01', sellerTrn: randomTrn(), status: 'draft', history: [], body: {},
  });
  return id;
}

describe('worker skeleton: forward-only status transitions (real Temporal, real MongoDB)', function () {
  this.timeout(120_000);
  before(() => ensureWorker());

  it('persists each transition with a timestamped history and sets the InvoiceStatus search attribute', async () => {
    const invoiceId = await draftInvoice();
    const client = await temporalClient();
    const handle = await client.workflow.start('statusTransitionWorkflow', {
      taskQueue: config().temporalTaskQueue,
      workflowId: `invoice-${invoiceId}`,
      args: [{ invoiceId, steps: [{ to: 'queued' }, { to: 'transformed' }, { to: 'validated' }, { to: 'rejected', reason: 'authority said no' }] }],
    });
    expect(await handle.result()).to.deep.equal(['queued', 'transformed', 'validated', 'rejected']);
    const doc = await Invoice.findById(invoiceId).lean();
    expect(doc!.status).to.equal('rejected');
    expect(doc!.reason).to.equal('authority said no');
    expect(doc!.history.map((h) => h.status)).to.deep.equal(['queued', 'transformed', 'validated', 'rejected']);
    const times = doc!.history.map((h) => new Date(h.at).getTime());
    expect([...times].sort((a, b) => a - b)).to.deep.equal(times);
    const description = await handle.describe();
    expect(description.searchAttributes.InvoiceStatus).to.deep.equal(['rejected']);
  });

  it('refuses to move an invoice backwards, and a repeated step changes nothing', async () => {
    const invoiceId = await draftInvoice();
    const client = await temporalClient();
    const ok = await client.workflow.execute('statusTransitionWorkflow', {
      taskQueue: config().temporalTaskQueue,
      workflowId: `status-${invoiceId}-1`,
      args: [{ invoiceId, steps: [{ to: 'queued' }, { to: 'queued' }, { to: 'transformed' }] }],
    });
    expect(ok).to.deep.equal(['queued', 'queued', 'transformed']);
    expect((await Invoice.findById(invoiceId).lean())!.history).to.have.length(2);
    try {
      await client.workflow.execute('statusTransitionWorkflow', {
        taskQueue: config().temporalTaskQueue,
        workflowId: `status-${invoiceId}-2`,
        args: [{ invoiceId, steps: [{ to: 'queued' }] }],
      });
      expect.fail('a backwards transition must fail');
    } catch (err) {
      expect(err).to.be.instanceOf(WorkflowFailedError);
      const messages: string[] = [];
      for (let e: Error | undefined = err as Error; e; e = (e as { cause?: Error }).cause) messages.push(e.message);
      expect(messages.join(' | ')).to.contain('illegal transition transformed -> queued');
    }
    expect((await Invoice.findById(invoiceId).lean())!.status).to.equal('transformed');
  });
});
