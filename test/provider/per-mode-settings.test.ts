// Sandbox and live each have their own provider credentials and callback secret: two ASP simulators over real HTTP,
// each knowing only its own client, so a delivery with the other mode's credentials would be refused; and a
// callback is accepted only with the secret of its document's mode.
import { expect } from 'chai';
import { AspSubmission, SmeConnection } from '../../src/db/models';
import type { Submission } from '../../src/provider/asp-api';
import { aspSignatureHeader } from '../../src/provider/asp-callback-signature';
import type { AspSimulator } from '../../src/provider/simulator';
import { temporalClient } from '../../src/temporal/client';
import { invoiceWorkflowId } from '../../src/temporal/contract';
import { SIM_CALLBACK_SECRET, SIM_SANDBOX_CALLBACK_SECRET, startAspSimulator, stopAspSimulator } from '../helpers/asp-simulator';
import { call } from '../helpers/http';
import { invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, randomTrn } from '../helpers/partners';
import { mutation, newTenant, tenantInvoice, waitForTenantStatus } from '../helpers/tenants';

describe('per-mode provider settings (live and sandbox apart)', function () {
  this.timeout(120_000);
  let live: AspSimulator;
  let sandbox: AspSimulator;

  before(async () => {
    live = await startAspSimulator('PROVIDER_LIVE_URL');
    sandbox = await startAspSimulator('PROVIDER_SANDBOX_URL');
  });
  after(async () => {
    await stopAspSimulator(live);
    await sandbox?.stop();
  });

  /** A callback about `sub` as the ASP sends it, signed with `secret`. */
  const callback = (sub: Submission, secret: string) => {
    const raw = JSON.stringify(sub);
    return call('POST', '/v1/provider/callbacks', { headers: { 'Content-Type': 'application/json', 'X-ASP-Signature': aspSignatureHeader(secret, Math.floor(Date.now() / 1000), raw) }, raw });
  };
  const reportedOf = (sub: Submission, ackRef: string): Submission => ({ ...sub, status: 'REPORTED', ackRef, history: [...sub.history, { status: 'REPORTED', at: new Date().toISOString() }] });

  it('each mode delivers with its own credentials (each simulator knows only its own client)', async () => {
    const p = await newPartner({ mode: 'live' });
    await SmeConnection.updateOne({ _id: p.sme.smeId }, { $set: { credits: 5 } });
    const liveInvoice = (await postInvoice(p, invoiceBody(p))).body.invoiceId as string;
    const t = await newTenant({ mode: 'sandbox' });
    const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
    await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [created.body.id] } });

    const liveDone = await waitForStatus(p, liveInvoice, ['acknowledged', 'rejected']);
    expect(liveDone.status, liveDone.reason).to.equal('acknowledged');
    const sandboxDone = await waitForTenantStatus(t, created.body.id, ['acknowledged', 'rejected']);
    expect(sandboxDone.status, sandboxDone.reason).to.equal('acknowledged');
    expect([live.submissionsFor(`${liveInvoice}-1`), sandbox.submissionsFor(`${liveInvoice}-1`)]).to.deep.equal([1, 0]);
    expect([sandbox.submissionsFor(`${created.body.id}-1`), live.submissionsFor(`${created.body.id}-1`)]).to.deep.equal([1, 0]);
  });

  it('a sandbox-signed callback about a live document is 401 and records nothing; the live secret is accepted', async () => {
    const p = await newPartner({ mode: 'live' });
    await SmeConnection.updateOne({ _id: p.sme.smeId }, { $set: { credits: 5 } });
    const buyerTrn = randomTrn();
    live.setScenario(buyerTrn, { neverReport: true });
    const invoiceId = (await postInvoice(p, invoiceBody(p, (b) => (b.buyer.trn = buyerTrn)))).body.invoiceId as string;
    await waitForStatus(p, invoiceId, 'delivered');
    const sub = live.submissionByDocumentId(`${invoiceId}-1`)!;

    const crossed = await callback(reportedOf(sub, 'FTA-SANDBOX0001'), SIM_SANDBOX_CALLBACK_SECRET);
    expect([crossed.status, crossed.body.code]).to.deep.equal([401, 'invalid_signature']);
    expect(crossed.body.detail).to.contain('live document').and.contain("live provider's secret");
    // Nothing of the crossed callback is recorded. (The simulator's own DELIVERED callback and the workflow's polls may
    // add answers meanwhile, so the record is searched for the crossed one's content rather than counted.)
    const after = (await AspSubmission.findById(`${invoiceId}-1`).lean())!;
    expect(after.answers.map((a) => (a.body as Submission | null)?.ackRef ?? null)).not.to.include('FTA-SANDBOX0001');
    expect(after.ackRef).to.equal(null);
    expect(after.statusAt).not.to.have.property('REPORTED');
    expect((await waitForStatus(p, invoiceId, 'delivered')).status).to.equal('delivered');

    const genuine = await callback(reportedOf(sub, 'FTA-LIVE00000001'), SIM_CALLBACK_SECRET);
    expect(genuine.status, genuine.text).to.equal(204);
    const done = await waitForStatus(p, invoiceId, ['acknowledged', 'rejected']);
    expect([done.status, done.ackRef]).to.deep.equal(['acknowledged', 'FTA-LIVE00000001']);
  });

  it('a live-signed callback about a sandbox document is 401 too', async () => {
    const t = await newTenant({ mode: 'sandbox' });
    const buyerTrn = randomTrn();
    sandbox.setScenario(buyerTrn, { neverReport: true });
    const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t, (b: any) => (b.buyer.trn = buyerTrn)) }); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(created.status, created.text).to.equal(201);
    await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [created.body.id] } });
    await waitForTenantStatus(t, created.body.id, ['delivered']);
    const sub = sandbox.submissionByDocumentId(`${created.body.id}-1`)!;
    const crossed = await callback(reportedOf(sub, 'FTA-LIVE00000002'), SIM_CALLBACK_SECRET);
    expect([crossed.status, crossed.body.code]).to.deep.equal([401, 'invalid_signature']);
    expect((await AspSubmission.findById(`${created.body.id}-1`).lean())!.ackRef).to.equal(null);
    // (its workflow would poll this simulator after the test has stopped it)
    await (await temporalClient()).workflow.getHandle(invoiceWorkflowId(created.body.id)).terminate('test done');
  });
});
