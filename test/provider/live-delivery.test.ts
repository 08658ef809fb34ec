import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { AspSubmission, SmeConnection } from '../../src/db/models';
import { aspSignatureHeader } from '../../src/provider/asp-callback-signature';
import { aspHttpClient } from '../../src/provider/asp-http-client';
import type { AspSimulator, Scenario } from '../../src/provider/simulator';
import { SIM_CALLBACK_SECRET, SIM_CLIENT, startAspSimulator, stopAspSimulator } from '../helpers/asp-simulator';
import { call } from '../helpers/http';
import { getInvoice, invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, randomTrn, type TestPartner } from '../helpers/partners';
import { creditsOverview, topUp } from '../../src/services/credits';

// Live delivery over real HTTP in both directions: our ASP client against the ASP simulator, and the simulator's
// signed status callbacks into POST /v1/provider/callbacks. The simulator stands in for the accredited provider.


describe('live delivery through the ASP over HTTP (issue provider)', function () {
  this.timeout(120_000);
  let sim: AspSimulator;

  before(async () => {
    sim = await startAspSimulator('PROVIDER_LIVE_URL');
  });

  after(() => stopAspSimulator(sim));

  /** A live partner with credit, and an invoice whose buyer TRN steers the simulator. */
  async function liveInvoice(scenario?: Scenario): Promise<{ p: TestPartner; invoiceId: string; documentId: string }> {
    const p = await newPartner({ mode: 'live' });
    await SmeConnection.updateOne({ _id: p.sme.smeId }, { $set: { credits: 5 } });
    const buyerTrn = randomTrn();
    if (scenario) sim.setScenario(buyerTrn, scenario);
    const res = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.trn = buyerTrn)));
    expect(res.status, res.text).to.equal(201);
    return { p, invoiceId: res.body.invoiceId, documentId: `${res.body.invoiceId}-1` };
  }

  it('acknowledged with the authority reference, shown with the invoice and in its evidence; submitted exactly once', async () => {
    const { p, invoiceId, documentId } = await liveInvoice();
    const done = await waitForStatus(p, invoiceId, ['acknowledged', 'rejected']);
    expect(done.status, done.reason).to.equal('acknowledged');
    expect(done.ackRef).to.match(/^FTA-/);
    expect(sim.submissionsFor(documentId)).to.equal(1);

    const evidence = await call('GET', `/v1/partner/invoices/${invoiceId}/evidence`, { headers: p.headers });
    expect(evidence.status).to.equal(200);
    const [sub] = evidence.body.submissions;
    const xml = (await call('GET', `/v1/partner/invoices/${invoiceId}/document`, { headers: p.headers })).text;
    expect(sub).to.include({ documentId, run: 1, ackRef: done.ackRef, documentSha256: createHash('sha256').update(xml).digest('hex') });
    expect(sub.submissionId).to.be.a('string');
    expect(sub.statuses.map((s: { status: string }) => s.status)).to.deep.equal(['UPLOADED', 'PROCESSING', 'DELIVERED', 'REPORTED']);
    expect(sub.mls).to.include({ code: 'AP' });
    expect(sub.answers.map((a: { source: string }) => a.source)).to.include('submit');
    const other = await newPartner();
    expect((await call('GET', `/v1/partner/invoices/${invoiceId}/evidence`, { headers: other.headers })).status).to.equal(404);
  });

  it('a rejection by the ASP names its reason (machine code, then a sentence) and is kept as evidence', async () => {
    const { p, invoiceId } = await liveInvoice({ reject: { reasonClass: 'BV', reasonCode: 'buyer_trn_invalid', message: 'the buyer TRN is not registered' } });
    const done = await waitForStatus(p, invoiceId, ['acknowledged', 'rejected']);
    expect(done.status).to.equal('rejected');
    expect(done.reason).to.equal('buyer_trn_invalid: the buyer TRN is not registered');
    const stored = await AspSubmission.findOne({ invoiceId }).lean();
    expect(stored!.mls).to.deep.include({ code: 'RE', reasonClass: 'BV', reasonCode: 'buyer_trn_invalid' });
  });

  it('5xx on the first submits: retried until accepted, and the ASP saw exactly one submission', async () => {
    const { p, invoiceId, documentId } = await liveInvoice({ errors: { status: 503, count: 4 } });
    expect((await waitForStatus(p, invoiceId, ['acknowledged', 'rejected'])).status).to.equal('acknowledged');
    expect(sim.submissionsFor(documentId)).to.equal(1);
  });

  it('429 with Retry-After: honoured, then accepted once', async () => {
    const { p, invoiceId, documentId } = await liveInvoice({ errors: { status: 429, count: 2, retryAfterSeconds: 1 } });
    expect((await waitForStatus(p, invoiceId, ['acknowledged', 'rejected'])).status).to.equal('acknowledged');
    expect(sim.submissionsFor(documentId)).to.equal(1);
  });

  it('an answer that comes too late (the client timed out and retried): the 409 is the first submission, not a second', async () => {
    const { p, invoiceId, documentId } = await liveInvoice({ slowMs: 20_000 });
    expect((await waitForStatus(p, invoiceId, ['acknowledged', 'rejected'], { deadlineMs: 90_000 })).status).to.equal('acknowledged');
    expect(sim.submissionsFor(documentId)).to.equal(1);
  });

  it('lost callbacks: polling on the ASP schedule completes the invoice', async () => {
    const { p, invoiceId } = await liveInvoice({ loseCallbacks: true });
    const done = await waitForStatus(p, invoiceId, ['acknowledged', 'rejected']);
    expect(done.status).to.equal('acknowledged');
    const stored = await AspSubmission.findOne({ invoiceId }).lean();
    expect(stored!.answers.map((a) => a.source)).to.include('poll').and.not.include('callback');
  });

  it('duplicate callbacks change nothing: one record of each status, one acknowledgement', async () => {
    const { p, invoiceId } = await liveInvoice({ duplicateCallbacks: true });
    const done = await waitForStatus(p, invoiceId, ['acknowledged', 'rejected']);
    expect(done.status).to.equal('acknowledged');
    await sim.callbacksSettled();
    const stored = await AspSubmission.findOne({ invoiceId }).lean();
    const callbacks = stored!.answers.filter((a) => a.source === 'callback');
    expect(callbacks.length).to.be.at.most(3); // PROCESSING, DELIVERED, REPORTED: the repeats were not recorded
    expect(done.history.filter((h: { status: string }) => h.status === 'acknowledged')).to.have.length(1);
  });

  it('callbacks: a forged signature is 401, an unknown submission 404, and neither changes anything', async () => {
    const body = JSON.stringify({ event: 'submission.status_changed', submissionId: 'nope', documentId: 'x-1', status: 'REPORTED', history: [], mls: null, ackRef: 'FTA-FORGED' });
    const t = Math.floor(Date.now() / 1000);
    const forged = await call('POST', '/v1/provider/callbacks', { headers: { 'Content-Type': 'application/json', 'X-ASP-Signature': aspSignatureHeader('wrong-secret', t, body) }, raw: body });
    expect([forged.status, forged.body.code]).to.deep.equal([401, 'invalid_signature']);
    const unsigned = await call('POST', '/v1/provider/callbacks', { headers: { 'Content-Type': 'application/json' }, raw: body });
    expect(unsigned.status).to.equal(401);
    const unknown = await call('POST', '/v1/provider/callbacks', { headers: { 'Content-Type': 'application/json', 'X-ASP-Signature': aspSignatureHeader(SIM_CALLBACK_SECRET, t, body) }, raw: body });
    expect(unknown.status).to.equal(404);
    expect(await AspSubmission.countDocuments({ ackRef: 'FTA-FORGED' })).to.equal(0);
    const malformed = JSON.stringify({ submissionId: 'nope', status: 'REPORTED', history: [null] });
    const refused = await call('POST', '/v1/provider/callbacks', { headers: { 'Content-Type': 'application/json', 'X-ASP-Signature': aspSignatureHeader(SIM_CALLBACK_SECRET, t, malformed) }, raw: malformed });
    expect([refused.status, refused.body.meta?.errors?.[0]?.path]).to.deep.equal([400, 'history[0]']);
  });

  it('GET of an acknowledged live invoice keeps its ackRef across reads', async () => {
    const { p, invoiceId } = await liveInvoice();
    const done = await waitForStatus(p, invoiceId, 'acknowledged');
    expect((await getInvoice(p, invoiceId)).body.ackRef).to.equal(done.ackRef);
  });

  it('50 concurrent live deliveries on a balance of 10: exactly 10 delivered, 40 blocked; a top-up of 40 delivers the 40 without a retry call', async () => {
    const p = await newPartner({ mode: 'live' });
    await topUp({ kind: 'sme', id: p.sme.smeId }, 10);
    const posted = await Promise.all(Array.from({ length: 50 }, () => postInvoice(p, invoiceBody(p))));
    const ids = posted.map((r) => r.body.invoiceId as string);
    const first = await Promise.all(ids.map((id) => waitForStatus(p, id, ['acknowledged', 'blocked_no_credit', 'rejected'], { deadlineMs: 90_000 })));
    const count = (list: { status: string }[], status: string) => list.filter((i) => i.status === status).length;
    expect([count(first, 'acknowledged'), count(first, 'blocked_no_credit')]).to.deep.equal([10, 40]);
    expect((await creditsOverview({ kind: 'sme', id: p.sme.smeId })).balance).to.equal(0);

    await topUp({ kind: 'sme', id: p.sme.smeId }, 40);
    const after = await Promise.all(ids.map((id) => waitForStatus(p, id, ['acknowledged', 'rejected'], { deadlineMs: 90_000 })));
    expect(count(after, 'acknowledged')).to.equal(50);
    expect((await creditsOverview({ kind: 'sme', id: p.sme.smeId })).balance).to.equal(0);
    for (const id of ids) expect(sim.submissionsFor(`${id}-1`), id).to.equal(1); // one run each: no retry call
  });

  it('the client: refused credentials fail at once and for good (no retry), and an expired token is renewed', async () => {
    const wrong = aspHttpClient({ baseUrl: sim.url, clientId: SIM_CLIENT.clientId, clientSecret: 'not-the-secret' });
    const failure = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err as Error);
    const refused = await failure(wrong.submit({ invoiceId: 'x', run: 1, body: {}, xml: '<Invoice/>' }));
    expect(refused).to.include({ code: 'provider_request_refused', retryable: false }); // nothing to retry
    expect(refused!.message).to.contain('refused our credentials');
    const right = aspHttpClient({ baseUrl: sim.url, ...SIM_CLIENT });
    expect((await failure(right.submission('nope')))!.message).to.contain('no submission nope');
    sim.expireTokens();
    // The old token now answers 401: the client takes a fresh one and gets the real answer, not a 401.
    expect((await failure(right.submission('nope')))!.message).to.match(/no submission nope \(HTTP 404\)/);
  });
});
