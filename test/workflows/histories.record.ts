import { expect } from 'chai';
import type { WorkflowHandle } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { resetConfig } from '../../src/config';
import { AspSubmission } from '../../src/db/models';
import { SIMULATE_NO_ACK, SIMULATE_REJECT } from '../../src/provider/simulated-asp';
import { temporalClient } from '../../src/temporal/client';
import { aspVerdictSignal, invoiceWorkflowId, retrySignal } from '../../src/temporal/contract';
import { saveHistory } from '../helpers/history';
import { call } from '../helpers/http';
import { invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner } from '../helpers/partners';
import { mutation, newTenant, tenantInvoice } from '../helpers/tenants';
import { WebhookReceiver } from '../helpers/webhook-receiver';
import { ensureWorker } from '../helpers/worker';

// Records the saved histories of test/fixtures/histories/ from the current workflow code, through the API as a
// partner or tenant would: run it after a change to workflows/ that the replay tests (invoice.test.ts) refuse on
// purpose, and commit the files it writes. Not part of the suite (its name does not end in .test.ts):
//   npm run test:files -- test/workflows/histories.record.ts

async function historyOf(handle: WorkflowHandle, runId?: string) {
  const client = await temporalClient();
  return (runId ? client.workflow.getHandle(handle.workflowId, runId) : handle).fetchHistory();
}

/** Waits until the workflow has moved past run `first` (a retry continued it as new). */
async function continuedFrom(handle: WorkflowHandle, first: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if ((await handle.describe()).runId !== first) return;
  }
  throw new Error('the run was not continued as new');
}

describe('record the saved workflow histories (test/fixtures/histories/)', function () {
  this.timeout(120_000);
  let hook: WebhookReceiver;
  before(async () => {
    process.env.ASP_ACK_FALLBACK_MS = String(10 * 60_000); // no poll while recording: only the signals act
    resetConfig();
    await ensureWorker();
    hook = await WebhookReceiver.start();
  });
  after(async () => {
    delete process.env.ASP_ACK_FALLBACK_MS;
    resetConfig();
    await hook.close();
  });

  it('invoice-acknowledged.json: a Partner API invoice acknowledged, its delivered event announced to a webhook URL', async () => {
    const p = await newPartner({ webhookUrl: hook.url });
    const { body } = await postInvoice(p, invoiceBody(p));
    const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(body.invoiceId));
    expect(await handle.result()).to.equal('acknowledged');
    saveHistory('invoice-acknowledged.json', await historyOf(handle));
  });

  it('invoice-rejected-then-retried.json: refused by the ASP, announced, waiting; a retry continues it as new', async () => {
    const p = await newPartner({ webhookUrl: hook.url });
    const { body } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name = `Noor Electronics LLC ${SIMULATE_REJECT}`)));
    await waitForStatus(p, body.invoiceId, 'rejected');
    const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(body.invoiceId));
    const runId = (await handle.describe()).runId;
    const retried = await call('POST', `/v1/partner/invoices/${body.invoiceId}/retry`, { headers: { ...p.headers, 'Idempotency-Key': randomUUID() } });
    expect(retried.status).to.equal(202);
    await continuedFrom(handle, runId);
    saveHistory('invoice-rejected-then-retried.json', await historyOf(handle, runId));
    await waitForStatus(p, body.invoiceId, 'rejected');
    await handle.terminate('recorded');
  });

  it('invoice-forged-verdict-refused-then-acknowledged.json: a verdict signal the evidence refuses, then a retry polls the ASP', async () => {
    const p = await newPartner();
    const { body } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name = `Noor Electronics LLC ${SIMULATE_NO_ACK}`)));
    await waitForStatus(p, body.invoiceId, 'delivered');
    const { submissionId, refusedSignals } = (await AspSubmission.findById(`${body.invoiceId}-1`).lean())!;
    const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(body.invoiceId));
    await handle.signal(aspVerdictSignal, { submissionId: submissionId!, status: 'acknowledged', reason: null, ackRef: 'FTA-FORGED00001' });
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      const refused = (await AspSubmission.findById(`${body.invoiceId}-1`, { refusedSignals: 1 }).lean())?.refusedSignals ?? [];
      if (refused.length > (refusedSignals?.length ?? 0)) break;
    }
    await handle.signal(retrySignal);
    expect(await handle.result()).to.equal('acknowledged');
    saveHistory('invoice-forged-verdict-refused-then-acknowledged.json', await historyOf(handle));
  });

  it('invoice-tenant-acknowledged.json: a Tenant API invoice, whose status updates also announce acknowledged', async () => {
    const t = await newTenant({ statusUrl: hook.url });
    const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
    expect(created.status, created.text).to.equal(201);
    const submit = await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [created.body.id] } });
    expect(submit.body.submitted).to.equal(1);
    const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(created.body.id));
    expect(await handle.result()).to.equal('acknowledged');
    saveHistory('invoice-tenant-acknowledged.json', await historyOf(handle));
  });
});
