import { expect } from 'chai';
import { uaeToday } from '../../src/domain/submission-rules';
import { randomUUID } from 'node:crypto';
import { Invoice, InvoiceDocument, Partner } from '../../src/db/models';
import { resetConfig } from '../../src/config';
import { updatePartner } from '../../src/services/admin';
import { temporalClient } from '../../src/temporal/client';
import { invoiceWorkflowId } from '../../src/temporal/contract';
import { call } from '../helpers/http';
import { getInvoice, invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner } from '../helpers/partners';
import { WebhookReceiver } from '../helpers/webhook-receiver';
import { ensureWorker } from '../helpers/worker';

const problemJson = /^application\/problem\+json/;

describe('POST /v1/partner/invoices (SPEC 3.1, 4.1, 5.1, 7.1)', function () {
  this.timeout(120_000);
  before(() => ensureWorker());

  it('201 queued, then queued -> transformed -> validated -> delivered -> acknowledged, seen through GET', async () => {
    const p = await newPartner();
    const body = invoiceBody(p, (b) => (b.issueDate = uaeToday())); // today: no late_issuance warning in the answer
    const res = await postInvoice(p, body);
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.deep.equal({ invoiceId: res.body.invoiceId, number: body.number, status: 'queued' });
    expect(res.body.invoiceId).to.match(/^[0-9a-f-]{36}$/);

    const seen = new Set<string>();
    let done: any;
    const deadline = Date.now() + 60_000;
    while (!done && Date.now() < deadline) {
      const got = await getInvoice(p, res.body.invoiceId);
      expect(got.status).to.equal(200);
      seen.add(got.body.status);
      if (got.body.status === 'acknowledged') done = got.body;
      else await new Promise((r) => setTimeout(r, 20));
    }
    expect(done, `statuses seen: ${[...seen].join(', ')}`).to.exist;
    expect(done).to.include({ invoiceId: res.body.invoiceId, number: body.number, status: 'acknowledged', reason: null });
    expect(Date.parse(done.updatedAt)).to.be.at.least(Date.parse(done.createdAt));
    expect(done.history.map((h: any) => h.status)).to.deep.equal(['queued', 'transformed', 'validated', 'delivered', 'acknowledged']);
    expect(done.history.every((h: any) => h.run === 1)).to.equal(true);
    const times = done.history.map((h: any) => Date.parse(h.at));
    expect([...times].sort((a, b) => a - b)).to.deep.equal(times);
  });

  it('GET /invoices/{id}/document returns the stored PINT-AE XML, which passes the official Schematron', async () => {
    const p = await newPartner();
    const body = invoiceBody(p);
    const { body: queued } = await postInvoice(p, body);
    await waitForStatus(p, queued.invoiceId, 'acknowledged');
    const doc = await call('GET', `/v1/partner/invoices/${queued.invoiceId}/document`, { headers: p.headers });
    expect(doc.status).to.equal(200);
    expect(doc.headers.get('content-type')).to.match(/^application\/xml/);
    expect(doc.text).to.contain(`<cbc:ID>${body.number}</cbc:ID>`);
    const stored = await InvoiceDocument.findById(queued.invoiceId).lean();
    expect(doc.text).to.equal(stored!.xml);
    expect(doc.text).to.contain(stored!.documentUuid);
    expect((await Invoice.findById(queued.invoiceId).lean())!.documentUuid).to.equal(stored!.documentUuid);
    const { validatePintAe } = await import('../../../shared/pint-ae/validate.mjs' as string);
    expect(validatePintAe(doc.text).fatal).to.deep.equal([]);
  });

  describe('bad input is a 4xx problem, never a 500', () => {
    it('400 validation_failed with meta.errors when seller and buyer are missing', async () => {
      const p = await newPartner();
      const body = invoiceBody(p, (b) => {
        delete b.seller;
        delete b.buyer;
      });
      const res = await postInvoice(p, body);
      expect(res.status).to.equal(400);
      expect(res.headers.get('content-type')).to.match(problemJson);
      expect(res.body.code).to.equal('validation_failed');
      const byPath = Object.fromEntries(res.body.meta.errors.map((e: any) => [e.path, e.code]));
      expect(byPath).to.deep.equal({ seller: 'required', buyer: 'required' });
      for (const e of res.body.meta.errors) expect(e).to.have.all.keys('code', 'path', 'message');
      expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(0);
    });

    it('unknown fields are refused with their path (externalRef only on bulk items)', async () => {
      const p = await newPartner();
      const res = await postInvoice(p, invoiceBody(p, (b) => {
        b.lines[0].colour = 'red';
        b.externalRef = 'ERP-1';
      }));
      expect(res.status).to.equal(400);
      expect(res.body.meta.errors.map((e: any) => [e.path, e.code])).to.have.deep.members([
        ['lines[0].colour', 'unknown_field'],
        ['externalRef', 'unknown_field'],
      ]);
    });

    it('a body that is not an object, a malformed JSON, > 1 MB, and a non-JSON content type', async () => {
      const p = await newPartner();
      const headers = { ...p.headers, 'Idempotency-Key': randomUUID() };
      const array = await call('POST', '/v1/partner/invoices', { headers, json: [invoiceBody(p)] });
      expect(array.status).to.equal(400);
      expect(array.body.code).to.equal('validation_failed');
      const malformed = await call('POST', '/v1/partner/invoices', { headers: { ...headers, 'Content-Type': 'application/json' }, raw: '{"trn":' });
      expect([malformed.status, malformed.body.code]).to.deep.equal([400, 'malformed_json']);
      const huge = await call('POST', '/v1/partner/invoices', { headers, json: invoiceBody(p, (b) => (b.paymentTermsNote = 'x'.repeat(1024 * 1024 + 1))) });
      expect([huge.status, huge.body.code]).to.deep.equal([413, 'payload_too_large']);
      const form = await call('POST', '/v1/partner/invoices', { headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, raw: 'trn=1' });
      expect([form.status, form.body.code]).to.deep.equal([415, 'unsupported_media_type']);
    });

    it('400 without an Idempotency-Key or with one longer than 128 characters', async () => {
      const p = await newPartner();
      const none = await call('POST', '/v1/partner/invoices', { headers: p.headers, json: invoiceBody(p) });
      expect([none.status, none.body.code]).to.deep.equal([400, 'idempotency_key_required']);
      const long = await postInvoice(p, invoiceBody(p), 'k'.repeat(129));
      expect([long.status, long.body.code]).to.deep.equal([400, 'idempotency_key_too_long']);
    });

    it('401 without credentials or without the connection secret', async () => {
      const p = await newPartner();
      const anonymous = await call('POST', '/v1/partner/invoices', { headers: { 'Idempotency-Key': randomUUID() }, json: invoiceBody(p) });
      expect(anonymous.status).to.equal(401);
      const noSecret = await call('POST', '/v1/partner/invoices', { headers: { ...p.keyHeaders, 'Idempotency-Key': randomUUID() }, json: invoiceBody(p) });
      expect([noSecret.status, noSecret.body.code]).to.deep.equal([401, 'missing_connection_secret']);
    });
  });

  describe('TRN and number rules', () => {
    it('403 trn_mismatch when the body trn or, on a sale, seller.trn is not the connected SME', async () => {
      const p = await newPartner();
      const other = '100111222300003';
      for (const [patch, path] of [
        [(b: any) => (b.trn = other), 'trn'],
        [(b: any) => (b.seller.trn = other), 'seller.trn'],
      ] as const) {
        const res = await postInvoice(p, invoiceBody(p, patch));
        expect(res.status).to.equal(403);
        expect(res.body).to.include({ code: 'trn_mismatch' });
        expect(res.body.meta).to.deep.equal({ path });
      }
      expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(0);
    });

    it('409 invoice_number_duplicate for a number already used by the SME that year; another year is fine', async () => {
      const p = await newPartner();
      const first = await postInvoice(p, invoiceBody(p, (b) => (b.number = 'INV-DUP-1')));
      expect(first.status).to.equal(201);
      const again = await postInvoice(p, invoiceBody(p, (b) => (b.number = 'INV-DUP-1')));
      expect(again.status).to.equal(409);
      expect(again.body).to.include({ code: 'invoice_number_duplicate' });
      expect(again.body.meta).to.include({ number: 'INV-DUP-1', issueYear: 2025, invoiceId: first.body.invoiceId });
      const nextYear = await postInvoice(p, invoiceBody(p, (b) => {
        b.number = 'INV-DUP-1';
        b.issueDate = '2026-01-05';
      }));
      expect(nextYear.status).to.equal(201);
      // Another SME may use the same number.
      const q = await newPartner();
      expect((await postInvoice(q, invoiceBody(q, (b) => (b.number = 'INV-DUP-1')))).status).to.equal(201);
    });

    it('concurrent creates of one number with different keys: exactly one wins (unique index)', async () => {
      const p = await newPartner();
      const results = await Promise.all(Array.from({ length: 6 }, () => postInvoice(p, invoiceBody(p, (b) => (b.number = 'INV-RACE')))));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409, 409, 409]);
      expect(await Invoice.countDocuments({ smeId: p.sme.smeId, number: 'INV-RACE' })).to.equal(1);
    });
  });

  describe('held (pre-submit validation refuses)', () => {
    it('201 held with heldReason and heldErrors at exact paths; stored as a draft; DELETE, then POST a corrected body', async () => {
      const p = await newPartner();
      const body = invoiceBody(p, (b) => delete b.seller.address);
      const res = await postInvoice(p, body);
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ number: body.number, status: 'held', heldReason: 'address_required' });
      expect(res.body.heldErrors.map((e: any) => [e.code, e.path])).to.deep.equal([['address_required', 'seller.address']]);
      const got = await getInvoice(p, res.body.invoiceId);
      // held everywhere on the Partner API: GET, its history, the list and its filter.
      expect(got.body).to.include({ status: 'held', reason: 'address_required', heldReason: 'address_required' });
      expect(got.body.heldErrors).to.deep.equal(res.body.heldErrors);
      expect(got.body.history.map((h: any) => [h.status, h.reason])).to.deep.equal([['held', 'held: address_required']]);
      const listed = await call('GET', '/v1/partner/invoices?status=held', { headers: p.headers });
      expect(listed.body.data.map((i: any) => [i.invoiceId, i.status])).to.deep.equal([[res.body.invoiceId, 'held']]);
      expect((await call('GET', '/v1/partner/invoices?status=draft', { headers: p.headers })).body.data).to.deep.equal([]);
      const doc = await call('GET', `/v1/partner/invoices/${res.body.invoiceId}/document`, { headers: p.headers });
      expect(doc.status).to.equal(404);
      // No pipeline for a held invoice: only the short workflow that records the hold for the Web UI.
      const client = await temporalClient();
      const described = await client.workflow.getHandle(invoiceWorkflowId(res.body.invoiceId)).describe();
      expect([described.type, described.searchAttributes.InvoiceStatus]).to.deep.equal(['heldInvoiceWorkflow', ['held']]);
      // Its number stays taken until it is deleted.
      const fixed = invoiceBody(p, (b) => (b.number = body.number));
      expect((await postInvoice(p, fixed)).status).to.equal(409);
      const retry = await call('POST', `/v1/partner/invoices/${res.body.invoiceId}/retry`, { headers: { ...p.headers, 'Idempotency-Key': randomUUID() } });
      expect([retry.status, retry.body.code]).to.deep.equal([409, 'invoice_held']);
      const del = await call('DELETE', `/v1/partner/invoices/${res.body.invoiceId}`, { headers: { ...p.headers, 'Idempotency-Key': randomUUID() } });
      expect(del.status).to.equal(204);
      const corrected = await postInvoice(p, fixed);
      expect(corrected.status).to.equal(201);
      expect(corrected.body.status).to.equal('queued');
    });
  });

  describe('idempotency (SPEC 5.3)', () => {
    it('the same key and body replays the stored answer byte for byte; another body is 409', async () => {
      const p = await newPartner();
      const key = randomUUID();
      const body = invoiceBody(p);
      const first = await postInvoice(p, body, key);
      const replay = await postInvoice(p, body, key);
      expect(replay.status).to.equal(201);
      expect(replay.text).to.equal(first.text);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      const other = await postInvoice(p, { ...body, number: body.number + '-B' }, key);
      expect([other.status, other.body.code]).to.deep.equal([409, 'idempotency_key_mismatch']);
      expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(1);
    });

    it('two simultaneous POSTs with one key create one invoice', async () => {
      const p = await newPartner();
      const key = randomUUID();
      const body = invoiceBody(p);
      const both = await Promise.all([postInvoice(p, body, key), postInvoice(p, body, key)]);
      const created = both.filter((r) => r.status === 201);
      expect(created.length).to.be.at.least(1);
      for (const r of both) if (r.status !== 201) expect([r.status, r.body.code]).to.deep.equal([409, 'idempotency_in_progress']);
      expect(new Set(created.map((r) => r.body.invoiceId)).size).to.equal(1);
      expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(1);
    });

    it('a validation failure is not stored: the same key works once the body is fixed', async () => {
      const p = await newPartner();
      const key = randomUUID();
      const bad = await postInvoice(p, invoiceBody(p, (b) => delete b.lines), key);
      expect(bad.status).to.equal(400);
      const good = await postInvoice(p, invoiceBody(p), key);
      expect(good.status).to.equal(201);
    });
  });

  describe('reserved test TRNs (SPEC 3.1, 6.1)', () => {
    it('100000000000000 in test mode: delivered synchronously, history shows it, the webhook fires once, lastTestAt is set', async () => {
      const hook = await WebhookReceiver.start();
      try {
        const p = await newPartner({ webhookUrl: hook.url });
        const before = await call('GET', '/v1/partner/whoami', { headers: p.keyHeaders });
        expect(before.body.lastTestAt).to.equal(null);
        const res = await postInvoice(p, invoiceBody(p, (b) => (b.trn = b.seller.trn = '100000000000000')));
        expect(res.status, res.text).to.equal(201);
        expect(res.body.status).to.equal('delivered');
        const got = await getInvoice(p, res.body.invoiceId);
        expect(got.body.status).to.equal('delivered');
        expect(got.body.history.map((h: any) => h.status)).to.deep.equal(['draft', 'delivered']);
        expect(got.body.history[1].reason).to.contain('validation and delivery skipped');
        const [req] = await hook.waitForRequests(1);
        expect(JSON.parse(req.rawBody)).to.include({ event: 'invoice.status_changed', invoiceId: res.body.invoiceId, status: 'delivered', reason: null });
        const whoami = await call('GET', '/v1/partner/whoami', { headers: p.keyHeaders });
        expect(Date.parse(whoami.body.lastTestAt)).to.be.a('number').and.not.NaN;
        const client = await temporalClient();
        const handle = client.workflow.getHandle(invoiceWorkflowId(res.body.invoiceId));
        expect(await handle.result()).to.equal('delivered');
        expect((await handle.describe()).searchAttributes.InvoiceStatus).to.deep.equal(['delivered']);
        expect(hook.requests).to.have.length(1);
      } finally {
        await hook.close();
      }
    });

    it('100000000000666 in test mode: 403 test_trn_reject, nothing stored, no workflow', async () => {
      const p = await newPartner();
      for (const patch of [(b: any) => (b.seller.trn = '100000000000666'), (b: any) => (b.trn = b.seller.trn = '100000000000666')]) {
        const res = await postInvoice(p, invoiceBody(p, patch));
        expect(res.status).to.equal(403);
        expect(res.body.code).to.equal('test_trn_reject');
      }
      expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(0);
    });

    describe('live mode', () => {
      afterEach(() => {
        delete process.env.PROVIDER_LIVE_URL;
        resetConfig();
      });

      it('without PROVIDER_LIVE_URL refuses submissions with 503 provider_not_configured, storing nothing', async () => {
        const p = await newPartner({ mode: 'live' });
        const res = await postInvoice(p, invoiceBody(p));
        expect(res.status).to.equal(503);
        expect(res.body.code).to.equal('provider_not_configured');
        expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(0);
        expect((await Partner.findById(p.partnerId).lean())!.lastTestAt).to.equal(null);
      });

      it('ignores both reserved TRNs: they are ordinary TRNs, subject to trn_mismatch', async () => {
        process.env.PROVIDER_LIVE_URL = 'https://asp.invalid/api';
        resetConfig();
        const p = await newPartner({ mode: 'live' });
        for (const trn of ['100000000000000', '100000000000666']) {
          const res = await postInvoice(p, invoiceBody(p, (b) => (b.trn = b.seller.trn = trn)));
          expect([res.status, res.body.code]).to.deep.equal([403, 'trn_mismatch']);
        }
      });
    });
  });

  describe('rate limit (per partner)', () => {
    it('X-RateLimit headers on invoice endpoints, then 429 with Retry-After', async () => {
      const p = await newPartner();
      await updatePartner(p.partnerId, { rateLimitPerMinute: 3 });
      const a = await postInvoice(p, invoiceBody(p));
      expect(a.headers.get('x-ratelimit-limit')).to.equal('3');
      expect(a.headers.get('x-ratelimit-remaining')).to.equal('2');
      const b = await call('GET', '/v1/partner/invoices', { headers: p.headers });
      expect(b.headers.get('x-ratelimit-remaining')).to.equal('1');
      await getInvoice(p, a.body.invoiceId);
      const limited = await postInvoice(p, invoiceBody(p));
      expect(limited.status).to.equal(429);
      expect(limited.headers.get('x-ratelimit-remaining')).to.equal('0');
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
      expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(1);
    });
  });
});
