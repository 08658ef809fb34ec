// The Tenant API over real HTTP (SPEC 4.2, 5.2, 7.2): token, drafts, modes, submit, reads, retry, and the
// {code, humanMessage, meta} error shape; the pipeline runs on the real worker and Temporal server.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { signJwt } from '../../src/credentials/jwt';
import { config } from '../../src/config';
import { updateTenant } from '../../src/services/tenants';
import { consumeBudget } from '../../src/services/rate-budget';
import { call } from '../helpers/http';
import { ensureWorker } from '../helpers/worker';
import { type TestTenant, expectTenantError, mutation, newTenant, tenantInvoice, waitForTenantStatus } from '../helpers/tenants';



describe('Tenant API', () => {
  describe('POST /v1/auth/token and bearer auth', () => {
    it('exchanges the client id and secret for a 1 h Bearer JWT', async () => {
      const t = await newTenant();
      const res = await call('POST', '/v1/auth/token', { json: { clientId: t.clientId, clientSecret: t.clientSecret } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ tokenType: 'Bearer', expiresIn: 3600 });
      expect(res.body.accessToken.split('.')).to.have.length(3);
    });

    it('a wrong secret, a missing, forged or expired token: 401 missing_authorization_header', async () => {
      const t = await newTenant();
      expectTenantError(await call('POST', '/v1/auth/token', { json: { clientId: t.clientId, clientSecret: 'nope' } }), 401, 'missing_authorization_header');
      expectTenantError(await call('GET', '/v1/invoices'), 401, 'missing_authorization_header');
      expectTenantError(await call('GET', '/v1/invoices', { headers: { Authorization: `Bearer ${t.token}x` } }), 401, 'missing_authorization_header');
      const iat = Math.floor(Date.now() / 1000) - 7200;
      const expired = signJwt({ sub: t.tenantId, iat, exp: iat + 3600, aud: 'einvoice-tenant' }, config().jwtSecret);
      expectTenantError(await call('GET', '/v1/invoices', { headers: { Authorization: `Bearer ${expired}` } }), 401, 'missing_authorization_header');
    });

    it("429 with Retry-After and the rate-limit headers once the tenant's budget is used up", async () => {
      const t = await newTenant();
      const ok = await call('GET', '/v1/invoices', { headers: t.headers });
      expect(ok.headers.get('x-ratelimit-limit')).to.equal(String(config().defaultRateLimitPerMinute));
      const limit = config().defaultRateLimitPerMinute;
      const leftInMinute = 60_000 - (Date.now() % 60_000);
      if (leftInMinute < 10_000) await new Promise((r) => setTimeout(r, leftInMinute + 100)); // the budget's window is the minute
      // The rest of this minute's budget, spent at once (uses in one process coalesce into one write).
      await Promise.all(Array.from({ length: limit }, () => consumeBudget({ bucket: `tenant:${t.tenantId}`, limit, windowMs: 60_000 })));
      const res = await call('GET', '/v1/invoices', { headers: t.headers });
      expectTenantError(res, 429, 'rate_limited');
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
    });

    it('a tenant compliance has not approved: 403 kyb_required', async () => {
      const t = await newTenant({ kyb: 'pending' });
      expectTenantError(await call('GET', '/v1/invoices', { headers: t.headers }), 403, 'kyb_required');
      await updateTenant(t.tenantId, { kyb: 'approved' });
      expect((await call('GET', '/v1/invoices', { headers: t.headers })).status).to.equal(200);
    });
  });

  describe('POST /v1/invoices (drafts)', () => {
    it('201 draft: totals computed by us, the planned pipeline, submissionMode and source', async () => {
      const t = await newTenant();
      const body = tenantInvoice(t);
      const res = await call('POST', '/v1/invoices', { headers: mutation(t), json: body });
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ number: body.number, status: 'draft', invoiceType: 'sale', submissionMode: 'test', source: 'test-connector/1.0' });
      expect(res.body.id).to.match(/^[0-9a-f-]{36}$/);
      expect(res.body.totals).to.deep.equal({ subtotal: 1500, tax: 75, total: 1575, currency: 'AED' });
      expect(res.body.pipeline.map((s: any) => `${s.step}:${s.state}`)).to.deep.equal(['transform:pending', 'validate:pending', 'deliver:pending', 'acknowledge:pending']);
      expect(res.body.errors).to.deep.equal([]);
    });

    it('SPEC 7.2 refusals: invalid_body with the path, arabic_seller_name_required, totals_mismatch, unknown_tax, unknown_tax_ledger, 403, 409, 422', async () => {
      const t = await newTenant();
      const post = (b: unknown, headers = mutation(t)) => call('POST', '/v1/invoices', { headers, json: b });

      let res = await post(tenantInvoice(t, (b) => (b.buyer.trn = '12345')));
      expectTenantError(res, 400, 'invalid_body');
      expect(res.body.errors.map((e: any) => e.path)).to.include('buyer.trn');

      res = await post(tenantInvoice(t, (b) => (b.buyer.trn = t.trn)));
      expectTenantError(res, 400, 'invalid_body');

      res = await post(tenantInvoice(t, (b) => delete b.lines[0].taxCategory));
      expectTenantError(res, 400, 'invalid_body');
      expect(res.body.errors.map((e: any) => e.path)).to.include('lines[0].taxCategory');

      res = await post(tenantInvoice(t, (b) => delete b.issueDate));
      expectTenantError(res, 400, 'invalid_body');
      expect(res.body.errors.map((e: any) => e.path)).to.include('issueDate');

      expectTenantError(await post(tenantInvoice(t, (b) => (b.seller.legalNameArabic = ''))), 400, 'arabic_seller_name_required');
      expectTenantError(await post(tenantInvoice(t, (b) => (b.totals = { subtotal: 1500, tax: 75, total: 1575.02 }))), 400, 'totals_mismatch');
      expectTenantError(
        await post({ invoiceNumber: 'ALT-1', issueDate: '2025-02-07', currency: 'AED', buyer: { legalName: 'Noor LLC', trn: '100987654300003', address: 'Khalifa Street 12, Abu Dhabi' }, items: [{ name: 'x', quantity: 1, unitPrice: 10, tax: 'LUXURY' }] }),
        400,
        'unknown_tax',
      );
      expectTenantError(
        await post({ invoiceNumber: 'ALT-2', issueDate: '2025-02-07', currency: 'AED', buyer: { legalName: 'Noor LLC', trn: '100987654300003', address: 'Khalifa Street 12, Abu Dhabi' }, items: [{ name: 'x', quantity: 1, unitPrice: 10, taxLedger: 'GL-4410' }] }),
        400,
        'unknown_tax_ledger',
      );

      res = await post(tenantInvoice(t, (b) => (b.seller.trn = '100000000000103')));
      expect(res.status, res.text).to.equal(403);

      const body = tenantInvoice(t);
      expect((await post(body)).status).to.equal(201);
      expectTenantError(await post(body), 409, 'invoice_number_duplicate');

      expectTenantError(await post(tenantInvoice(t), { ...t.headers }), 422, 'idempotency_required');

      // PINT-AE would refuse it (no buyer address on a B2B invoice): 422 with errors[] of {code, path, message}
      res = await post(tenantInvoice(t, (b) => delete b.buyer.address));
      expectTenantError(res, 422, 'pint_ae_validation_failed');
      expect(res.body.errors[0]).to.have.keys('code', 'path', 'message');
    });

    it('the same key and body replays the draft; another body under the key is 409', async () => {
      const t = await newTenant();
      const headers = mutation(t);
      const first = await call('POST', '/v1/invoices', { headers, json: tenantInvoice(t, (b) => (b.number = 'K-1')) });
      const again = await call('POST', '/v1/invoices', { headers, json: tenantInvoice(t, (b) => (b.number = 'K-1')) });
      expect(again.status).to.equal(201);
      expect(again.body.id).to.equal(first.body.id);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      const other = await call('POST', '/v1/invoices', { headers, json: tenantInvoice(t, (b) => (b.number = 'K-2')) });
      expect(other.status).to.equal(409);
      expect(other.body).to.have.property('humanMessage');
    });

    it('seller details left out default from the registration (both shapes)', async () => {
      const t = await newTenant();
      const res = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t, (b) => (b.seller = { trn: t.trn })) });
      expect(res.status, res.text).to.equal(201);
      const alt = await call('POST', '/v1/invoices', {
        headers: mutation(t),
        json: { invoiceNumber: `ALT-${randomUUID().slice(0, 6)}`, issueDate: '2025-02-07', currency: 'AED', buyer: { legalName: 'Noor LLC', legalNameArabic: 'نور', trn: '100987654300003', address: 'Khalifa Street 12, Abu Dhabi' }, items: [{ name: 'Cables', quantity: 2, unitPrice: 100, taxPercent: 5 }], totals: { netAmount: 200, taxAmount: 10, grossAmount: 210.01 } },
      });
      expect(alt.status, alt.text).to.equal(201);
      expect(alt.body.totals).to.deep.equal({ subtotal: 200, tax: 10, total: 210, currency: 'AED' });
    });
  });

  describe('modes', () => {
    it('invoices are partitioned per mode; live data while in sandbox is 409 invoice_mode_mismatch', async () => {
      const t = await newTenant({ mode: 'test' });
      const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
      expect(created.status).to.equal(201);
      expectTenantError(await call('POST', '/v1/invoices?mode=live', { headers: mutation(t), json: tenantInvoice(t) }), 409, 'invoice_mode_mismatch');

      await updateTenant(t.tenantId, { mode: 'sandbox' });
      expectTenantError(await call('POST', '/v1/invoices?mode=live', { headers: mutation(t), json: tenantInvoice(t) }), 409, 'invoice_mode_mismatch');
      expect((await call('GET', `/v1/invoices/${created.body.id}`, { headers: t.headers })).status).to.equal(404);
      expect((await call('GET', '/v1/invoices', { headers: t.headers })).body.data).to.deep.equal([]);
      // The same number is free in the other mode.
      const again = await call('POST', '/v1/invoices?mode=sandbox', { headers: mutation(t), json: tenantInvoice(t, (b) => (b.number = created.body.number)) });
      expect(again.status, again.text).to.equal(201);
      expect(again.body.submissionMode).to.equal('sandbox');

      await updateTenant(t.tenantId, { mode: 'test' });
      const back = await call('GET', `/v1/invoices/${created.body.id}`, { headers: t.headers });
      expect(back.status).to.equal(200);
      expect((await call('GET', '/v1/invoices', { headers: t.headers })).body.data.map((i: any) => i.id)).to.deep.equal([created.body.id]);
    });

    it("another tenant's invoice is a 404", async () => {
      const a = await newTenant();
      const b = await newTenant();
      const created = await call('POST', '/v1/invoices', { headers: mutation(a), json: tenantInvoice(a) });
      expectTenantError(await call('GET', `/v1/invoices/${created.body.id}`, { headers: b.headers }), 404, 'not_found');
      const submit = await call('POST', '/v1/invoices/submit', { headers: mutation(b), json: { ids: [created.body.id] } });
      expect(submit.body).to.deep.equal({ submitted: 0, ids: [] });
    });
  });

  describe('submit, poll, retry (test mode: the simulated ASP)', () => {
    before(() => ensureWorker());

    it('submit moves drafts into the pipeline (non-drafts skipped); GET shows status, history and ackRef', async () => {
      const t = await newTenant();
      const one = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
      const two = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
      // The Tenant API's drafts are drafts (never held): ?status=draft lists them, ?status=held is not a filter here.
      const drafts = await call('GET', '/v1/invoices?status=draft', { headers: t.headers });
      expect(drafts.body.data.map((i: any) => [i.id, i.status])).to.have.deep.members([[one.body.id, 'draft'], [two.body.id, 'draft']]);
      expectTenantError(await call('GET', '/v1/invoices?status=held', { headers: t.headers }), 400, 'invalid_body');
      const submit = await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [one.body.id, two.body.id, randomUUID()] } });
      expect(submit.status, submit.text).to.equal(200);
      expect(submit.body.submitted).to.equal(2);
      expect(submit.body.ids).to.have.members([one.body.id, two.body.id]);
      const again = await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [one.body.id] } });
      expect(again.body).to.deep.equal({ submitted: 0, ids: [] });

      const done = await waitForTenantStatus(t, one.body.id, ['acknowledged']);
      expect(done.ackRef).to.match(/^TEST-/); // test mode calls no provider: a simulated reference, marked TEST-
      expect(done.history.map((h: any) => h.status)).to.deep.equal(['draft', 'queued', 'transformed', 'validated', 'delivered', 'acknowledged']);
      expect(done.pipeline.every((s: any) => s.state === 'done')).to.equal(true);
      const list = await call('GET', '/v1/invoices?status=acknowledged&status=delivered', { headers: t.headers });
      expect(list.body.data.map((i: any) => i.id)).to.include(one.body.id);
      // pagination: one per page, the cursor leads to the other
      const page1 = await call('GET', '/v1/invoices?limit=1', { headers: t.headers });
      const page2 = await call('GET', `/v1/invoices?limit=1&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { headers: t.headers });
      expect([page1.body.data[0].id, page2.body.data[0].id]).to.have.members([one.body.id, two.body.id]);
      expect(page2.body.nextCursor).to.equal(null);
    });

    it('submit refuses an empty or oversized id list with invalid_body', async () => {
      const t = await newTenant();
      expectTenantError(await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [] } }), 400, 'invalid_body');
      const ids = Array.from({ length: 201 }, () => randomUUID());
      expectTenantError(await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids } }), 400, 'invalid_body');
    });

    it('a rejected invoice carries its reason code; retry starts a new run', async () => {
      const t = await newTenant();
      const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t, (b) => (b.buyer.name = 'Noor [asp:reject]')) });
      await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [created.body.id] } });
      const rejected = await waitForTenantStatus(t, created.body.id, ['rejected']);
      expect(rejected.errors[0].code).to.equal('buyer_trn_invalid');
      expect(rejected.pipeline.find((s: any) => s.state === 'failed').step).to.equal('deliver');
      const retried = await call('POST', `/v1/invoices/${created.body.id}/retry`, { headers: mutation(t) });
      expect(retried.status, retried.text).to.equal(202);
      expect(retried.body.run).to.equal(2);
      expectTenantError(await call('POST', `/v1/invoices/${randomUUID()}/retry`, { headers: mutation(t) }), 404, 'not_found');
    });
  });
});
