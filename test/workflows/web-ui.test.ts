// What the Temporal Web UI shows support staff of each invoice: the static summary and details, the memo, the
// current details the workflow keeps (status, reason, what it waits for), the ASP verdict signal under its new name
// (the old one still accepted), and the short workflow that records a held invoice.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { config } from '../../src/config';
import { Invoice } from '../../src/db/models';
import type { Mls } from '../../src/provider/asp-api';
import { openHandOver, recordAnswer } from '../../src/services/asp-evidence';
import { SIMULATED_REFUSAL, SIMULATE_REJECT } from '../../src/provider/simulated-asp';
import { temporalClient } from '../../src/temporal/client';
import { acknowledgedSignal, aspVerdictSignal, invoiceWorkflowId } from '../../src/temporal/contract';
import { call } from '../helpers/http';
import { getInvoice, invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { mutation, newTenant, tenantInvoice } from '../helpers/tenants';
import { ensureWorker } from '../helpers/worker';

/** The current details the Web UI reads (its metadata query), once they match. */
async function currentDetailsWhen(handle: WorkflowHandle, match: RegExp): Promise<string> {
  const deadline = Date.now() + 30_000;
  let details = '';
  while (Date.now() < deadline) {
    details = ((await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata')) ?? {}).currentDetails ?? '';
    if (match.test(details)) return details;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`current details never matched ${match}: last "${details}"`);
}

/**
 * The summary of the latest timer the run started that matches: what the Web UI shows of a waiting run on the first
 * screen of its page (the History tab's timeline).
 */
async function timerSummaryWhen(handle: WorkflowHandle, match: RegExp): Promise<string> {
  const deadline = Date.now() + 30_000;
  let seen: string[] = [];
  while (Date.now() < deadline) {
    const events = (await handle.fetchHistory()).events ?? [];
    seen = events
      .filter((e) => e.timerStartedEventAttributes)
      .map((e) => e.userMetadata?.summary?.data)
      .map((data) => (data ? (JSON.parse(Buffer.from(data).toString('utf8')) as string) : ''));
    const found = seen.reverse().find((s) => match.test(s));
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no timer summary matched ${match}: saw ${JSON.stringify(seen)}`);
}

/** An invoice stored as delivered with a hand-over id, and its workflow waiting for the ASP's verdict. */
async function deliveredAwaitingVerdict(p: TestPartner): Promise<{ invoiceId: string; submissionId: string; handle: WorkflowHandle }> {
  const invoiceId = randomUUID();
  const submissionId = `${invoiceId}-1`;
  await Invoice.create({
    _id: invoiceId, partnerId: p.partnerId, smeId: p.sme.smeId, mode: 'test', number: `UI-${invoiceId.slice(0, 8)}`, numberScope: `sme:${p.sme.smeId}`, numberPeriod: 2025, issueDate: '2025-02-07',
    sellerTrn: p.sme.trn, status: 'delivered', aspSubmissionId: submissionId, history: [{ status: 'delivered', at: new Date(), reason: null, run: 1 }], body: invoiceBody(p),
  });
  await openHandOver({ invoiceId, run: 1, xml: '<Invoice/>', documentUuid: randomUUID() }); // as deliverInvoice does
  const client = await temporalClient();
  const handle = await client.workflow.start('invoiceWorkflow', {
    taskQueue: config().temporalTaskQueue,
    workflowId: invoiceWorkflowId(invoiceId),
    args: [{ invoiceId, mode: 'test', ackFallbackMs: 10 * 60_000 }],
  });
  return { invoiceId, submissionId, handle };
}

/** The ASP's verdict as the callback route records it before signalling (a signal the evidence lacks moves nothing). */
async function aspReported(invoiceId: string, submissionId: string, status: 'REPORTED' | 'FAILED', mls: Mls): Promise<void> {
  const at = new Date().toISOString();
  await recordAnswer({ submissionId, documentId: `${invoiceId}-1`, status, history: [{ status, at }], mls, ackRef: status === 'REPORTED' ? `ACK-${invoiceId.slice(0, 8)}` : null }, 'callback');
}

const signalNames = async (handle: WorkflowHandle) =>
  ((await handle.fetchHistory()).events ?? []).map((e) => e.workflowExecutionSignaledEventAttributes?.signalName).filter(Boolean);

describe('the Web UI explains each invoice (real Temporal, real MongoDB)', function () {
  this.timeout(120_000);
  before(() => ensureWorker());

  it('a rejected Partner API invoice: static summary and details, memo with partner and SME names, current details with the reason and the way out', async () => {
    const p = await newPartner();
    const body = invoiceBody(p, (b) => (b.buyer.name = `Noor Electronics LLC ${SIMULATE_REJECT}`));
    const { body: queued } = await postInvoice(p, body);
    const invoiceId = queued.invoiceId as string;
    await waitForStatus(p, invoiceId, 'rejected');
    const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(invoiceId));

    const d = await handle.describe();
    expect(await d.staticSummary()).to.equal(`${body.number} · seller ${p.sme.trn} · buyer ${body.buyer.name} · 1575.00 AED · test · Partner API`);
    const details = (await d.staticDetails()) ?? '';
    expect(details).to.contain(`Invoice id: ${invoiceId}`);
    expect(details).to.contain(`Partner: ${p.erpName} (${p.partnerId})`);
    expect(details).to.contain('SME: Test SME LLC');
    expect(details).to.contain(`POST /v1/partner/invoices/${invoiceId}/retry`);
    expect(d.memo).to.deep.include({ invoiceId, surface: 'partner', partnerName: p.erpName, smeName: 'Test SME LLC' });
    expect(d.memo?.summary).to.equal(await d.staticSummary());

    const current = await currentDetailsWhen(handle, /^\*\*rejected\*\*/);
    expect(current).to.equal(`**rejected**: ${SIMULATED_REFUSAL}; waiting for a retry (POST /v1/partner/invoices/${invoiceId}/retry or \`einvoice ops retry ${invoiceId}\`)`);
    // The first screen of the workflow page: the run waits on a timer whose summary is the reason and the way out.
    const waiting = await timerSummaryWhen(handle, /^rejected/);
    expect(waiting).to.equal(`rejected: ${SIMULATED_REFUSAL}; waiting for a retry (POST /v1/partner/invoices/${invoiceId}/retry or \`einvoice ops retry ${invoiceId}\`)`);

    // A retry continues as new: the new run keeps the memo (names and the summary's text).
    const retried = await call('POST', `/v1/partner/invoices/${invoiceId}/retry`, { headers: { ...p.headers, 'Idempotency-Key': randomUUID() } });
    expect(retried.status).to.equal(202);
    const deadline = Date.now() + 30_000;
    let next = await handle.describe();
    while (next.runId === d.runId && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      next = await handle.describe();
    }
    expect(next.runId).to.not.equal(d.runId);
    expect(next.memo).to.deep.include({ invoiceId, partnerName: p.erpName, smeName: 'Test SME LLC', summary: d.memo?.summary });
    await waitForStatus(p, invoiceId, 'rejected');
    expect(await timerSummaryWhen(handle, /^rejected/)).to.equal(waiting); // the new run explains its wait too
    await handle.terminate('test done');
  });

  it('a delivered run shows InvoiceStatus=delivered once the verdict is 5 s late, and the wait at once in its current details', async () => {
    const p = await newPartner();
    const { invoiceId, submissionId, handle } = await deliveredAwaitingVerdict(p);
    const waiting = await currentDetailsWhen(handle, /^\*\*delivered\*\*/);
    expect(waiting).to.contain(`(ASP submission ${submissionId}); waiting for the ASP's acknowledgement (next poll in 10m`);
    expect(await timerSummaryWhen(handle, /^delivered/)).to.equal(waiting.replace(/\*\*/g, '')); // the quiet wait's timer
    const statusOf = async () => (await handle.describe()).searchAttributes.InvoiceStatus?.[0];
    const shownAt = Date.now();
    while ((await statusOf()) !== 'delivered' && Date.now() - shownAt < 30_000) await new Promise((r) => setTimeout(r, 250));
    expect(await statusOf()).to.equal('delivered');
    await aspReported(invoiceId, submissionId, 'REPORTED', { code: 'AP' });
    await handle.signal(aspVerdictSignal, { submissionId, status: 'acknowledged', ackRef: 'ACK-2' });
    expect(await handle.result()).to.equal('acknowledged');
    expect(await statusOf()).to.equal('acknowledged');
  });

  it('the ASP verdict arrives as aspVerdict; the old name acknowledged is still accepted; waiting shows the next poll', async () => {
    const p = await newPartner();
    const first = await deliveredAwaitingVerdict(p);
    const waiting = await currentDetailsWhen(first.handle, /^\*\*delivered\*\*/);
    expect(waiting).to.match(new RegExp(`^\\*\\*delivered\\*\\* \\(ASP submission ${first.submissionId}\\); waiting for the ASP's acknowledgement \\(next poll in 10m, at \\d\\d:\\d\\d:\\d\\d UTC`));
    await aspReported(first.invoiceId, first.submissionId, 'REPORTED', { code: 'AP' });
    await first.handle.signal(aspVerdictSignal, { submissionId: first.submissionId, status: 'acknowledged', ackRef: 'ACK-1' });
    expect(await first.handle.result()).to.equal('acknowledged');
    expect(await signalNames(first.handle)).to.deep.equal(['aspVerdict']);
    expect((await getInvoice(p, first.invoiceId)).body.status).to.equal('acknowledged');

    const second = await deliveredAwaitingVerdict(p);
    await currentDetailsWhen(second.handle, /^\*\*delivered\*\*/);
    await aspReported(second.invoiceId, second.submissionId, 'FAILED', { code: 'RE', reasonCode: 'buyer_trn_invalid', message: 'refused by the authority' });
    await second.handle.signal(acknowledgedSignal, { submissionId: second.submissionId, status: 'rejected', reason: 'buyer_trn_invalid: refused by the authority' });
    const rejected = await waitForStatus(p, second.invoiceId, 'rejected');
    expect(rejected.reason).to.equal('buyer_trn_invalid: refused by the authority');
    expect(await currentDetailsWhen(second.handle, /^\*\*rejected\*\*/)).to.contain('rejected**: buyer_trn_invalid: refused by the authority; waiting for a retry');
    expect(await signalNames(second.handle)).to.deep.equal(['acknowledged']);
    await second.handle.terminate('test done');
  });

  it('a held invoice is recorded by a heldInvoiceWorkflow (InvoiceStatus=held) that ends at once with the held reasons; DELETE still works', async () => {
    const p = await newPartner();
    const body = invoiceBody(p, (b) => delete b.buyer.address);
    const { status, body: held } = await postInvoice(p, body);
    expect(status).to.equal(201);
    expect(held.heldReason).to.be.a('string');
    const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(held.invoiceId));
    const result = await handle.result();
    expect(result).to.deep.equal({ status: 'held', heldReason: held.heldReason, heldErrors: held.heldErrors });
    const d = await handle.describe();
    expect(d.type).to.equal('heldInvoiceWorkflow');
    expect(d.status.name).to.equal('COMPLETED');
    expect(d.searchAttributes).to.deep.include({ InvoiceStatus: ['held'], InvoiceNumber: [body.number], SellerTrn: [p.sme.trn], Mode: ['test'], PartnerId: [p.partnerId] });
    expect(await d.staticSummary()).to.equal(`HELD (${held.heldReason}) · ${body.number} · seller ${p.sme.trn} · buyer ${body.buyer.name} · 1575.00 AED · test · Partner API`);
    expect(d.memo).to.deep.include({ invoiceId: held.invoiceId, partnerName: p.erpName, smeName: 'Test SME LLC' });
    const current = await currentDetailsWhen(handle, /^\*\*held\*\*/);
    expect(current).to.contain(`**held**: ${held.heldReason}`);
    expect(current).to.contain(held.heldErrors[0].path);
    // Support searches held invoices like any other.
    const query = `InvoiceStatus="held" AND PartnerId="${p.partnerId}"`;
    let found: string[] = [];
    for (const deadline = Date.now() + 30_000; found.length === 0 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      found = [];
      for await (const wf of (await temporalClient()).workflow.list({ query })) found.push(wf.workflowId);
    }
    expect(found).to.deep.equal([invoiceWorkflowId(held.invoiceId)]);
    const deleted = await call('DELETE', `/v1/partner/invoices/${held.invoiceId}`, { headers: p.headers });
    expect(deleted.status).to.equal(204);
  });

  it('a Tenant API invoice: summary says Tenant API, memo carries the tenant name', async () => {
    const t = await newTenant();
    const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
    expect(created.status).to.equal(201);
    const submit = await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [created.body.id] } });
    expect(submit.body.submitted).to.equal(1);
    const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(created.body.id));
    expect(await handle.result()).to.equal('acknowledged');
    const d = await handle.describe();
    expect(await d.staticSummary()).to.match(new RegExp(` · seller ${t.trn} · buyer Noor Electronics LLC · 1575.00 AED · test · Tenant API$`));
    expect(d.memo).to.deep.include({ invoiceId: created.body.id, surface: 'tenant', tenantName: 'Falcon Trading LLC' });
    expect(await currentDetailsWhen(handle, /acknowledged/)).to.equal('**acknowledged** by the authority; done');
  });
});
