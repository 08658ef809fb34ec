// The ASP simulator over real HTTP: authentication, the submit/poll contract of src/provider/asp-api.ts, native
// PINT-AE validation, signed callbacks to a real receiver, and every scenario. Each test gets its own simulator.
import { expect } from 'chai';
import type { Submission, TokenResponse } from '../../src/provider/asp-api';
import { createAspSimulator, buyerTrnOf, type AspSimulator, type AspSimulatorOptions } from '../../src/provider/simulator';
import { renderInvoice } from '@einvoice/pint-ae';
import { computeSignature } from '../../src/webhooks/sign';
import { WebhookReceiver, type ReceivedRequest } from '../helpers/webhook-receiver';
import minimalBody from '../fixtures/bodies/01-tax-invoice-minimal.json';

const CLIENT = { clientId: 'einvoice-test', clientSecret: 's3cret' };
const CALLBACK_SECRET = 'asp-callback-secret';
const CONTROL_TOKEN = 'sim-control-token';
/** What the /_sim/* controls want. */
const CONTROL = { authorization: `Bearer ${CONTROL_TOKEN}` };
const BUYER_TRN = '100987654300003'; // buyer of 01-tax-invoice-minimal.json
const VALID_XML = renderInvoice(minimalBody as never);
/** Payable amount no longer equals the total with tax: PINT-AE rule ibr-co-16 fails. */
const INVALID_XML = VALID_XML.replace(/(<cbc:PayableAmount currencyID="AED">)[^<]*</, '$1999.99<');

let sim: AspSimulator;
let receiver: WebhookReceiver | undefined;
let seq = 0;
const docId = () => `inv-${process.pid}-${++seq}-1`;

async function start(opts: Partial<AspSimulatorOptions> = {}): Promise<AspSimulator> {
  sim = await createAspSimulator({ clients: [CLIENT], callbackSecret: CALLBACK_SECRET, controlToken: CONTROL_TOKEN, ...opts });
  return sim;
}

async function token(): Promise<string> {
  const res = await fetch(`${sim.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CLIENT) });
  expect(res.status).to.equal(200);
  return ((await res.json()) as TokenResponse).accessToken;
}

async function submit(documentId: string, xml = VALID_XML, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<{ status: number; headers: Headers; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${sim.url}/v1/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await token()}`, ...headers },
    body: JSON.stringify({ documentId, xml }),
    signal,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

async function getSubmission(id: string): Promise<Submission> {
  const res = await fetch(`${sim.url}/v1/submissions/${id}`, { headers: { authorization: `Bearer ${await token()}` } });
  expect(res.status).to.equal(200);
  return (await res.json()) as Submission;
}

/** Polls until `check` returns a value, or fails after a generous deadline. */
async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, deadlineMs = 10_000): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const pollUntil = (id: string, status: Submission['status']) =>
  eventually(async () => {
    const s = await getSubmission(id);
    return s.status === status && s;
  }, `submission ${id} to reach ${status}`);

/** Callbacks for one submission, each checked against its X-ASP-Signature with our own signer. */
function verifiedCallbacks(submissionId: string): Submission[] {
  return receiver!.requests
    .map((r) => ({ r, body: JSON.parse(r.rawBody) as Submission }))
    .filter(({ body }) => body.submissionId === submissionId)
    .map(({ r, body }) => {
      expectSigned(r);
      return body;
    });
}

function expectSigned(r: ReceivedRequest): void {
  const header = String(r.headers['x-asp-signature'] ?? '');
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  expect(m, `signature header ${header}`).to.not.equal(null);
  expect(m![2]).to.equal(computeSignature(CALLBACK_SECRET, Number(m![1]), r.rawBody));
  expect(Math.abs(Date.now() / 1000 - Number(m![1]))).to.be.lessThan(300);
}

describe('ASP simulator (real HTTP)', () => {
  afterEach(async () => {
    await sim?.stop();
    await receiver?.close();
    receiver = undefined;
  });

  describe('authentication', () => {
    it('issues bearer tokens to known clients only', async () => {
      await start({ tokenTtlSeconds: 120 });
      const post = (body: unknown) => fetch(`${sim.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post({ ...CLIENT, clientSecret: 'wrong' })).status).to.equal(401);
      expect((await post({ clientId: 'nobody', clientSecret: 's3cret' })).status).to.equal(401);
      expect((await post({})).status).to.equal(401);
      const ok = await post(CLIENT);
      expect(ok.status).to.equal(200);
      const t = (await ok.json()) as TokenResponse;
      expect(t.tokenType).to.equal('Bearer');
      expect(t.expiresIn).to.equal(120);
      expect(t.accessToken).to.be.a('string').with.length.greaterThan(20);
    });

    it('answers 401 without a token, with an unknown one and with an expired one', async () => {
      await start({ tokenTtlSeconds: 1 });
      const body = JSON.stringify({ documentId: docId(), xml: VALID_XML });
      const call = (authorization?: string) =>
        fetch(`${sim.url}/v1/submissions`, { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body });
      expect((await call()).status).to.equal(401);
      expect((await call('Bearer not-a-token')).status).to.equal(401);
      const res = await call('Bearer not-a-token');
      expect(res.headers.get('www-authenticate')).to.equal('Bearer');
      expect(((await res.json()) as { error: string }).error).to.equal('unauthorized');

      const t = await token(); // lives one second
      await eventually(async () => (await call(`Bearer ${t}`)).status === 401, 'the token to expire');
      expect((await fetch(`${sim.url}/v1/submissions/x`, { headers: { authorization: `Bearer ${t}` } })).status).to.equal(401);
      expect(sim.submissionsFor(JSON.parse(body).documentId)).to.be.at.most(1);
    });

    it('expireTokens() makes every issued token fail with 401 (for re-authentication tests)', async () => {
      await start();
      const t = await token();
      const get = () => fetch(`${sim.url}/v1/submissions?documentId=x`, { headers: { authorization: `Bearer ${t}` } });
      expect((await get()).status).to.equal(200);
      sim.expireTokens();
      expect((await get()).status).to.equal(401);
    });
  });

  describe('submissions', () => {
    it('accepts a valid document with 202 UPLOADED, then moves it to REPORTED with an ackRef', async () => {
      await start();
      const documentId = docId();
      const res = await submit(documentId);
      expect(res.status).to.equal(202);
      const s = res.body as Submission;
      expect(s).to.include({ documentId, status: 'UPLOADED', ackRef: null });
      expect(s.submissionId).to.match(/^sub_/);
      expect(s.mls).to.deep.equal({ code: 'AB' });

      const reported = await pollUntil(s.submissionId, 'REPORTED');
      expect(reported.history.map((h) => h.status)).to.deep.equal(['UPLOADED', 'PROCESSING', 'DELIVERED', 'REPORTED']);
      for (const h of reported.history) expect(new Date(h.at).toISOString()).to.equal(h.at);
      expect(reported.mls).to.deep.equal({ code: 'AP' });
      expect(reported.ackRef).to.match(/^FTA-[0-9A-F]{12}$/);

      const byDoc = await fetch(`${sim.url}/v1/submissions?documentId=${encodeURIComponent(documentId)}`, { headers: { authorization: `Bearer ${await token()}` } });
      expect(((await byDoc.json()) as { data: Submission[] }).data).to.deep.equal([reported]);
      const none = await fetch(`${sim.url}/v1/submissions?documentId=unknown`, { headers: { authorization: `Bearer ${await token()}` } });
      expect(await none.json()).to.deep.equal({ data: [] });
      expect((await fetch(`${sim.url}/v1/submissions/sub_unknown`, { headers: { authorization: `Bearer ${await token()}` } })).status).to.equal(404);

      expect(sim.submissionsFor(documentId)).to.equal(1);
      const count = await fetch(`${sim.url}/_sim/submissions?documentId=${encodeURIComponent(documentId)}`, { headers: CONTROL });
      expect(await count.json()).to.deep.equal({ count: 1 });
    });

    it('answers a duplicate documentId with 409 pointing at the original, and counts it once', async () => {
      await start();
      const documentId = docId();
      const first = await submit(documentId);
      expect(first.status).to.equal(202);
      for (let i = 0; i < 2; i++) {
        const again = await submit(documentId);
        expect(again.status).to.equal(409);
        expect(again.body).to.include({ error: 'duplicate_document', submissionId: first.body.submissionId });
        expect(again.body.message).to.be.a('string');
      }
      expect(sim.submissionsFor(documentId)).to.equal(1);
    });

    it('accepts exactly one of concurrent submits of the same documentId', async () => {
      await start();
      const documentId = docId();
      const answers = await Promise.all(Array.from({ length: 10 }, () => submit(documentId)));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).to.deep.equal([202, ...Array(9).fill(409)]);
      const original = answers.find((a) => a.status === 202)!.body.submissionId;
      expect(answers.filter((a) => a.status === 409).every((a) => a.body.submissionId === original)).to.equal(true);
      expect(sim.submissionsFor(documentId)).to.equal(1);
    });

    it('answers 400 naming the malformed field', async () => {
      await start();
      const post = async (body: string, headers: Record<string, string> = {}) => {
        const res = await fetch(`${sim.url}/v1/submissions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await token()}`, ...headers }, body });
        return { status: res.status, body: (await res.json()) as { error: string; field: string } };
      };
      const notObject = await post('[1]');
      expect(notObject.status).to.equal(400);
      expect(notObject.body.field).to.equal('body');
      expect((await post(JSON.stringify({ xml: VALID_XML }))).body.field).to.equal('documentId');
      expect((await post(JSON.stringify({ documentId: '', xml: VALID_XML }))).body.field).to.equal('documentId');
      expect((await post(JSON.stringify({ documentId: 'x'.repeat(201), xml: VALID_XML }))).body.field).to.equal('documentId');
      expect((await post(JSON.stringify({ documentId: docId() }))).body.field).to.equal('xml');
      expect((await post('{not json')).status).to.equal(400);
      const badHeader = await post(JSON.stringify({ documentId: docId(), xml: VALID_XML }), { 'X-Sim-Scenario': '{oops' });
      expect(badHeader).to.deep.include({ status: 400 });
      expect(badHeader.body.field).to.equal('X-Sim-Scenario');
      const badScenario = await post(JSON.stringify({ documentId: docId(), xml: VALID_XML }), { 'X-Sim-Scenario': JSON.stringify({ errors: { status: 404, count: 1 } }) });
      expect(badScenario.status).to.equal(400);
    });

    it('refuses a document that breaks a PINT-AE rule with 422 FAILED, MLS RE/BV and the rule ids', async () => {
      await start();
      const documentId = docId();
      const res = await submit(documentId, INVALID_XML);
      expect(res.status).to.equal(422);
      const s = res.body as Submission;
      expect(s.status).to.equal('FAILED');
      expect(s.history.map((h) => h.status)).to.deep.equal(['FAILED']);
      expect(s.mls).to.include({ code: 'RE', reasonClass: 'BV' });
      expect(s.mls!.ruleIds).to.include('ibr-co-16');
      expect(s.mls!.message).to.contain('ibr-co-16');
      expect(sim.submissionsFor(documentId)).to.equal(1);
      // The ASP remembers the document id: resending needs a new one.
      expect((await submit(documentId, VALID_XML)).status).to.equal(409);
      expect((await getSubmission(s.submissionId)).status).to.equal('FAILED');
    });

    it('refuses XML that is not well-formed with 422 MLS RE/SV', async () => {
      await start();
      const res = await submit(docId(), '<Invoice><unclosed></Invoice>');
      expect(res.status).to.equal(422);
      expect(res.body.mls).to.include({ code: 'RE', reasonClass: 'SV' });
    });
  });

  describe('signed callbacks', () => {
    it('posts each status change to the callback URL, signed with the shared secret', async () => {
      receiver = await WebhookReceiver.start(() => 200, '/v1/provider/callbacks');
      await start({ callbackUrl: receiver.url });
      const res = await submit(docId());
      const id = res.body.submissionId as string;
      await pollUntil(id, 'REPORTED');
      await receiver.waitForRequests(3);
      await sim.callbacksSettled();
      const callbacks = verifiedCallbacks(id);
      expect(callbacks.map((c) => c.status)).to.deep.equal(['PROCESSING', 'DELIVERED', 'REPORTED']);
      for (const c of callbacks) expect(c.event).to.equal('submission.status_changed');
      expect(callbacks[2].ackRef).to.equal((await getSubmission(id)).ackRef);
      expect(receiver.requests.every((r) => r.method === 'POST' && r.path === '/v1/provider/callbacks')).to.equal(true);
    });

    it('sends no callback for a 422 refusal (the answer itself carries it)', async () => {
      receiver = await WebhookReceiver.start();
      await start({ callbackUrl: receiver.url });
      const refused = await submit(docId(), INVALID_XML);
      const accepted = await submit(docId());
      await pollUntil(accepted.body.submissionId, 'REPORTED');
      await sim.callbacksSettled();
      expect(verifiedCallbacks(refused.body.submissionId)).to.have.length(0);
      expect(verifiedCallbacks(accepted.body.submissionId)).to.have.length(3);
    });

    it('logs failed callbacks without retrying and still completes the submission', async () => {
      receiver = await WebhookReceiver.start(() => 500);
      await start({ callbackUrl: receiver.url });
      const id = (await submit(docId())).body.submissionId as string;
      await pollUntil(id, 'REPORTED');
      await sim.callbacksSettled();
      expect(receiver.requests).to.have.length(3); // one attempt per status, no retry
      await receiver.close(); // nothing listens there any more: connection refused
      receiver = undefined;
      const id2 = (await submit(docId())).body.submissionId as string;
      await pollUntil(id2, 'REPORTED');
      await sim.callbacksSettled();
    });
  });

  describe('scenarios', () => {
    it('reject (per buyer TRN): FAILED after PROCESSING with MLS RE and the given reason', async () => {
      receiver = await WebhookReceiver.start();
      await start({ callbackUrl: receiver.url });
      sim.setScenario(BUYER_TRN, { reject: { reasonClass: 'BV', reasonCode: 'buyer_trn_invalid', ruleIds: ['aligned-ibrp-e-01'], message: 'The buyer TRN is not registered' } });
      const res = await submit(docId());
      expect(res.status).to.equal(202);
      const failed = await pollUntil(res.body.submissionId, 'FAILED');
      expect(failed.history.map((h) => h.status)).to.deep.equal(['UPLOADED', 'PROCESSING', 'FAILED']);
      expect(failed.mls).to.deep.equal({ code: 'RE', reasonClass: 'BV', ruleIds: ['aligned-ibrp-e-01'], reasonCode: 'buyer_trn_invalid', message: 'The buyer TRN is not registered' });
      expect(failed.ackRef).to.equal(null);
      await sim.callbacksSettled();
      expect(verifiedCallbacks(failed.submissionId).map((c) => c.status)).to.deep.equal(['PROCESSING', 'FAILED']);

      sim.clearScenarios(BUYER_TRN);
      expect((await pollUntil((await submit(docId())).body.submissionId, 'REPORTED')).ackRef).to.be.a('string');
    });

    it('reject set through the admin endpoint, and cleared again', async () => {
      await start();
      const put = await fetch(`${sim.url}/_sim/scenarios/${BUYER_TRN}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...CONTROL },
        body: JSON.stringify({ reject: { reasonClass: 'FD', message: 'The buyer access point is unreachable' } }),
      });
      expect(put.status).to.equal(200);
      const failed = await pollUntil((await submit(docId())).body.submissionId, 'FAILED');
      expect(failed.mls).to.deep.equal({ code: 'RE', reasonClass: 'FD', ruleIds: [], message: 'The buyer access point is unreachable' });

      const invalid = await fetch(`${sim.url}/_sim/scenarios/${BUYER_TRN}`, { method: 'PUT', headers: { 'content-type': 'application/json', ...CONTROL }, body: JSON.stringify({ reject: { reasonClass: 'XX' } }) });
      expect(invalid.status).to.equal(400);
      expect((await fetch(`${sim.url}/_sim/scenarios/${BUYER_TRN}`, { method: 'DELETE', headers: CONTROL })).status).to.equal(204);
      await pollUntil((await submit(docId())).body.submissionId, 'REPORTED');
    });

    it('errors (header): the first N submits answer 503 with Retry-After and are not recorded', async () => {
      await start();
      const documentId = docId();
      const header = { 'X-Sim-Scenario': JSON.stringify({ errors: { status: 503, count: 2, retryAfterSeconds: 1 } }) };
      for (let i = 0; i < 2; i++) {
        const res = await submit(documentId, VALID_XML, header);
        expect(res.status).to.equal(503);
        expect(res.headers.get('retry-after')).to.equal('1');
        expect(sim.submissionsFor(documentId)).to.equal(0);
      }
      const ok = await submit(documentId, VALID_XML, header);
      expect(ok.status).to.equal(202);
      expect(sim.submissionsFor(documentId)).to.equal(1);
      // Another document with the same header starts its own burst.
      expect((await submit(docId(), VALID_XML, header)).status).to.equal(503);
    });

    it('errors (per buyer TRN): 429 with Retry-After, then 500 without, across documents', async () => {
      await start();
      sim.setScenario(BUYER_TRN, { errors: { status: 429, count: 2, retryAfterSeconds: 3 } });
      const a = docId();
      const first = await submit(a);
      expect(first.status).to.equal(429);
      expect(first.headers.get('retry-after')).to.equal('3');
      expect((await submit(docId())).status).to.equal(429);
      expect((await submit(a)).status).to.equal(202);
      expect(sim.submissionsFor(a)).to.equal(1);

      sim.setScenario(BUYER_TRN, { errors: { status: 500, count: 1 } });
      const b = docId();
      const failed = await submit(b);
      expect(failed.status).to.equal(500);
      expect(failed.headers.get('retry-after')).to.equal(null);
      expect((await submit(b)).status).to.equal(202);
      expect(sim.submissionsFor(b)).to.equal(1);
    });

    it('slowMs: the answer comes late but the submission is recorded, so a retry gets 409', async () => {
      await start();
      const documentId = docId();
      const header = { 'X-Sim-Scenario': JSON.stringify({ slowMs: 3_000 }) };
      const timedOut = await submit(documentId, VALID_XML, header, AbortSignal.timeout(200)).then(
        () => false,
        (err: Error) => err.name === 'TimeoutError',
      );
      expect(timedOut).to.equal(true);
      await eventually(async () => sim.submissionsFor(documentId) === 1, 'the slow submission to be recorded');
      const retry = await submit(documentId);
      expect(retry.status).to.equal(409);
      expect(retry.body.submissionId).to.equal(sim.submissionByDocumentId(documentId)!.submissionId);
      expect(sim.submissionsFor(documentId)).to.equal(1);
    });

    it('loseCallbacks: no callback arrives, polling still sees REPORTED', async () => {
      receiver = await WebhookReceiver.start();
      await start({ callbackUrl: receiver.url });
      const res = await submit(docId(), VALID_XML, { 'X-Sim-Scenario': JSON.stringify({ loseCallbacks: true }) });
      await pollUntil(res.body.submissionId, 'REPORTED');
      await sim.callbacksSettled();
      expect(receiver.requests).to.have.length(0);
    });

    it('duplicateCallbacks: every callback arrives twice, byte for byte', async () => {
      receiver = await WebhookReceiver.start();
      await start({ callbackUrl: receiver.url });
      sim.setScenario(BUYER_TRN, { duplicateCallbacks: true });
      const res = await submit(docId());
      await pollUntil(res.body.submissionId, 'REPORTED');
      await receiver.waitForRequests(6);
      await sim.callbacksSettled();
      expect(verifiedCallbacks(res.body.submissionId).map((c) => c.status)).to.deep.equal(['PROCESSING', 'PROCESSING', 'DELIVERED', 'DELIVERED', 'REPORTED', 'REPORTED']);
      for (let i = 0; i < 6; i += 2) {
        expect(receiver.requests[i].rawBody).to.equal(receiver.requests[i + 1].rawBody);
        expect(receiver.requests[i].headers['x-asp-signature']).to.equal(receiver.requests[i + 1].headers['x-asp-signature']);
      }
    });

    it('neverReport: stops at DELIVERED without an ackRef', async () => {
      await start({ delays: { processingMs: 20, deliveredMs: 40, reportedMs: 60 } });
      const res = await submit(docId(), VALID_XML, { 'X-Sim-Scenario': JSON.stringify({ neverReport: true }) });
      await pollUntil(res.body.submissionId, 'DELIVERED');
      await new Promise((r) => setTimeout(r, 500)); // well past reportedMs
      const s = await getSubmission(res.body.submissionId);
      expect(s.status).to.equal('DELIVERED');
      expect(s.mls).to.deep.equal({ code: 'AP' });
      expect(s.ackRef).to.equal(null);
    });

    it('the header replaces the buyer scenario for that request', async () => {
      await start();
      sim.setScenario(BUYER_TRN, { reject: { reasonClass: 'BV', message: 'no' } });
      const res = await submit(docId(), VALID_XML, { 'X-Sim-Scenario': '{}' });
      await pollUntil(res.body.submissionId, 'REPORTED');
    });
  });

  describe('controls', () => {
    it('serves /_sim/health and requires documentId on /_sim/submissions', async () => {
      await start();
      expect((await fetch(`${sim.url}/_sim/health`)).status).to.equal(200);
      expect((await fetch(`${sim.url}/_sim/submissions`, { headers: CONTROL })).status).to.equal(400);
      expect(await (await fetch(`${sim.url}/_sim/submissions?documentId=never`, { headers: CONTROL })).json()).to.deep.equal({ count: 0 });
    });

    it('the controls want the control token (constant-time compared); without one configured they are off (404)', async () => {
      await start();
      const scenario = JSON.stringify({ reject: { reasonClass: 'FD', message: 'The buyer access point is unreachable' } });
      const put = (headers: Record<string, string>) => fetch(`${sim.url}/_sim/scenarios/${BUYER_TRN}`, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: scenario });
      for (const headers of <Record<string, string>[]>[{}, { authorization: 'Bearer wrong-token' }, { authorization: `Bearer ${CONTROL_TOKEN}x` }, { authorization: CONTROL_TOKEN }]) {
        const refused = await put(headers);
        expect([refused.status, refused.headers.get('www-authenticate')], JSON.stringify(headers)).to.deep.equal([401, 'Bearer']);
        expect(await refused.json()).to.include({ error: 'unauthorized', field: 'Authorization' });
      }
      expect((await fetch(`${sim.url}/_sim/submissions?documentId=never`)).status).to.equal(401);
      expect((await fetch(`${sim.url}/_sim/scenarios/${BUYER_TRN}`, { method: 'DELETE' })).status).to.equal(401);
      // nothing was set: a submit is still reported
      await pollUntil((await submit(docId())).body.submissionId, 'REPORTED');
      // an API access token is not the control token
      expect((await put({ authorization: `Bearer ${await token()}` })).status).to.equal(401);
      expect((await put(CONTROL)).status).to.equal(200);
      await sim.stop();

      await start({ controlToken: undefined });
      expect((await put(CONTROL)).status).to.equal(404);
      expect((await fetch(`${sim.url}/_sim/submissions?documentId=never`, { headers: CONTROL })).status).to.equal(404);
      expect((await fetch(`${sim.url}/_sim/health`)).status).to.equal(200); // health stays open (container healthchecks)
    });

    it('listens on a given port', async () => {
      const probe = await start();
      const port = probe.port;
      await probe.stop();
      await start({ port });
      expect(sim.url).to.equal(`http://127.0.0.1:${port}`);
      expect((await fetch(`${sim.url}/_sim/health`)).status).to.equal(200);
    });

    it('reads the buyer TRN from the VAT CompanyID, else the EndpointID', () => {
      expect(buyerTrnOf(VALID_XML)).to.equal(BUYER_TRN);
      const withoutVat = VALID_XML.replace(/(<cac:AccountingCustomerParty>[\s\S]*?)<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/, '$1');
      expect(buyerTrnOf(withoutVat)).to.equal('1009876543');
      expect(buyerTrnOf('<Invoice/>')).to.equal(null);
    });
  });
});
