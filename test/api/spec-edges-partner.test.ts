// Issue 35 cases 7 to 10 over real HTTP: issue-date limits on both surfaces (warnings and refusals), the SME's
// registration filling the SPEC's minimum body, the simulated TEST- ackRef of test mode, and the retry limit's own
// X-RateLimit-* headers.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { config } from '../../src/config';
import { Invoice } from '../../src/db/models';
import { numberScope } from '../../src/domain/owner';
import { uaeToday } from '../../src/domain/submission-rules';
import { consumeBudget } from '../../src/services/rate-budget';
import { adminCall, apiBase, call } from '../helpers/http';
import { getInvoice, invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, randomTrn } from '../helpers/partners';
import { csvRowOf, tenantCsv } from '../helpers/tenant-csv';
import { expectTenantError, mutation, newTenant, tenantInvoice, waitForTenantStatus, type TestTenant } from '../helpers/tenants';
import { WebhookReceiver } from '../helpers/webhook-receiver';
import { ensureWorker } from '../helpers/worker';

/** The UAE calendar day `n` days from today (negative: back), as the service counts it. */
function day(n: number): string {
  const today = uaeToday();
  return new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1, Number(today.slice(8, 10)) + n)).toISOString().slice(0, 10);
}
const SIX_YEARS_AGO = day(-6 * 366);

const RETRY_WINDOW = { limit: 3, windowMs: 3_600_000 };

async function tenantDraft(t: TestTenant, change: (b: Record<string, any>) => void = () => {}) {
  return call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t, change) });
}

async function acknowledgedTenantInvoice(t: TestTenant, issueDate: string): Promise<{ id: string; number: string; body: any }> {
  const created = await tenantDraft(t, (b) => (b.issueDate = issueDate));
  expect(created.status, created.text).to.equal(201);
  const submit = await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [created.body.id] } });
  expect(submit.body.submitted, submit.text).to.equal(1);
  const done = await waitForTenantStatus(t, created.body.id, ['acknowledged']);
  return { id: created.body.id, number: created.body.number, body: done };
}

describe('issue 35 [spec-edges], cases 7 to 10', function () {
  this.timeout(180_000);
  before(() => ensureWorker());

  describe('7. issue-date limits', () => {
    it('Partner: today has no warnings; 20 days back is queued with late_issuance (20 days); the answer replays with it', async () => {
      const p = await newPartner();
      const fresh = await postInvoice(p, invoiceBody(p, (b) => (b.issueDate = day(0))));
      expect(fresh.status, fresh.text).to.equal(201);
      expect(fresh.body).to.deep.equal({ invoiceId: fresh.body.invoiceId, number: fresh.body.number, status: 'queued' });

      const key = randomUUID();
      const body = invoiceBody(p, (b) => (b.issueDate = day(-20)));
      const late = await postInvoice(p, body, key);
      expect(late.status, late.text).to.equal(201);
      expect(late.body.status).to.equal('queued');
      expect(late.body.warnings).to.have.length(1);
      expect(late.body.warnings[0]).to.include({ code: 'late_issuance', path: 'issueDate', days: 20 });
      expect(late.body.warnings[0].message).to.contain('14 days');
      const replay = await postInvoice(p, body, key);
      expect(replay.text).to.equal(late.text);
    });

    it('Partner: more than 5 years back, or 3 days ahead, is 400 issue_date_out_of_range naming issueDate; nothing stored', async () => {
      const p = await newPartner();
      for (const [issueDate, code] of [
        [SIX_YEARS_AGO, 'issue_date_too_old'],
        [day(3), 'issue_date_in_future'],
        ['1990-01-01', 'issue_date_too_old'],
        ['2099-01-01', 'issue_date_in_future'],
      ]) {
        const body = invoiceBody(p, (b) => (b.issueDate = issueDate));
        const res = await postInvoice(p, body);
        expect(res.status, res.text).to.equal(400);
        expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(res.body.code).to.equal('issue_date_out_of_range');
        expect(res.body.meta.errors).to.have.length(1);
        expect(res.body.meta.errors[0]).to.include({ code, path: 'issueDate' });
        expect(res.body.detail).to.contain('issueDate').and.contain('send');
        expect(await Invoice.countDocuments({ smeId: p.sme.smeId, number: body.number })).to.equal(0);
      }
      // one day ahead is slack for time zones
      expect((await postInvoice(p, invoiceBody(p, (b) => (b.issueDate = day(1))))).status).to.equal(201);
    });

    it('Partner bulk: per item, a late one carries its warning and a future one is refused naming issueDate', async () => {
      const p = await newPartner();
      const late = invoiceBody(p, (b) => (b.issueDate = day(-30)));
      const future = invoiceBody(p, (b) => (b.issueDate = day(10)));
      const res = await call('POST', '/v1/partner/invoices/bulk', { headers: { ...p.headers, 'Idempotency-Key': randomUUID() }, json: { invoices: [late, future] } });
      expect(res.status, res.text).to.equal(207);
      const [a, b] = res.body.results;
      expect(a).to.include({ ok: true, status: 'queued' });
      expect(a.warnings[0]).to.include({ code: 'late_issuance', days: 30 });
      expect(b.ok).to.equal(false);
      expect(b.error.code).to.equal('issue_date_out_of_range');
      expect(b.error.errors[0]).to.include({ code: 'issue_date_in_future', path: 'issueDate' });
    });

    it('Partner dry run (/invoices/validate): the same limits, nothing stored', async () => {
      const p = await newPartner();
      const dry = (issueDate: string) => call('POST', '/v1/partner/invoices/validate', { headers: p.headers, json: invoiceBody(p, (b) => (b.issueDate = issueDate)) });
      const late = await dry(day(-25));
      expect(late.status, late.text).to.equal(200);
      expect(late.body.valid).to.equal(true);
      expect(late.body.warnings[0]).to.include({ code: 'late_issuance', days: 25 });
      expect((await dry(day(0))).body).to.not.have.property('warnings');
      const future = await dry(day(2));
      expect(future.status).to.equal(400);
      expect(future.body.meta.errors[0]).to.include({ code: 'issue_date_in_future', path: 'issueDate' });
    });

    it('Tenant: a late draft carries the warning; too old or in the future is 400 issue_date_out_of_range (Tenant shape)', async () => {
      const t = await newTenant();
      const late = await tenantDraft(t, (b) => (b.issueDate = day(-40)));
      expect(late.status, late.text).to.equal(201);
      expect(late.body.status).to.equal('draft');
      expect(late.body.warnings[0]).to.include({ code: 'late_issuance', path: 'issueDate', days: 40 });
      const fresh = await tenantDraft(t, (b) => (b.issueDate = day(0)));
      expect(fresh.body).to.not.have.property('warnings');

      for (const [issueDate, code] of [
        [SIX_YEARS_AGO, 'issue_date_too_old'],
        [day(5), 'issue_date_in_future'],
      ]) {
        const res = await tenantDraft(t, (b) => (b.issueDate = issueDate));
        expectTenantError(res, 400, 'issue_date_out_of_range');
        expect(res.body.errors[0]).to.include({ code, path: 'issueDate' });
      }
      // the alternative shape too
      const alt = await call('POST', '/v1/invoices', {
        headers: mutation(t),
        json: {
          invoiceNumber: `ALT-${randomUUID().slice(0, 8)}`,
          issueDate: day(9),
          currency: 'AED',
          buyer: { legalName: 'Noor Electronics LLC', trn: '100987654300003', country: 'AE', address: 'Khalifa Street 12, Abu Dhabi' },
          items: [{ name: 'Consulting', quantity: 1, unitPrice: 100, tax: 'STANDARD' }],
        },
      });
      expectTenantError(alt, 400, 'issue_date_out_of_range');
      expect(alt.body.errors[0]).to.include({ path: 'issueDate' });
    });

    it('Tenant CSV: a future issueDate is refused naming the issueDate column and row; a late one is imported with its warning', async () => {
      const trn = randomTrn();
      const t = await newTenant({ trn });
      const csv = tenantCsv(2, 1, { sellerTrn: trn, badRows: [{ invoice: 0, column: 'issueDate', value: day(-20) }, { invoice: 1, column: 'issueDate', value: day(4) }] });
      const form = new FormData();
      form.append('options', JSON.stringify({ skipErrors: true }));
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'invoices.csv');
      const res = await fetch(`${await apiBase()}/v1/invoices/bulk`, { method: 'POST', headers: mutation(t), body: form });
      const report: any = await res.json();
      expect(res.status, JSON.stringify(report)).to.equal(200);
      expect(report.invoices).to.include({ created: 1, rejected: 1 });
      expect(report.errors).to.have.length(1);
      expect(report.errors[0]).to.include({ column: 'issueDate', code: 'issue_date_in_future', row: csvRowOf(1, 0, 1) });
      expect(report.warnings).to.have.length(1);
      expect(report.warnings[0]).to.include({ column: 'issueDate', code: 'late_issuance', days: 20, row: csvRowOf(0, 0, 1) });
      expect(await Invoice.countDocuments({ numberScope: numberScope({ kind: 'tenant', tenantId: t.tenantId, mode: 'test' }) })).to.equal(1);
    });

    it('Tenant credit note: a late one is queued with the warning; one dated in the future is refused', async () => {
      const t = await newTenant();
      const original = await acknowledgedTenantInvoice(t, day(-60));
      const note = (issueDate: string) => ({ originalInvoiceNumber: original.number, issueDate, creditNoteNumber: `CN-${randomUUID().slice(0, 8)}`, reason: 'ReturnOfGoods', totals: { grossAmount: -105 } });
      const future = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: note(day(7)) });
      expectTenantError(future, 400, 'issue_date_out_of_range');
      expect(future.body.errors[0]).to.include({ code: 'issue_date_in_future', path: 'issueDate' });
      const late = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: note(day(-16)) });
      expect(late.status, late.text).to.equal(202);
      expect(late.body.warnings[0]).to.include({ code: 'late_issuance', days: 16 });
    });
  });

  describe('8. SME registration fills the minimum body', () => {
    const admin = () => ({ Authorization: `Bearer ${config().adminToken}` });
    // SPEC 2.1 "Minimum viable body": trn, number, issueDate, currency, seller{name,country,address},
    // buyer{name,country,address}, lines[{description,quantity,unitPrice,vatRate}]; the buyer has a TRN (a buyer the rules accept).
    const minimumBody = (trn: string) => ({
      trn,
      number: `MIN-${randomUUID().slice(0, 8)}`,
      issueDate: day(0),
      currency: 'AED',
      seller: { name: 'Gulf Foods LLC', country: 'AE', address: { line1: 'Warehouse 7, Al Quoz 3', city: 'Dubai' } },
      buyer: { name: 'Noor Electronics LLC', country: 'AE', address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', emirate: 'AUH' }, trn: '100987654300003' },
      lines: [{ description: 'Dates, 10 kg', quantity: 3, unitPrice: 40, vatRate: 0.05 }],
    });

    async function smeOverAdminApi(registration: Record<string, unknown>) {
      const partner = await adminCall('POST', '/v1/admin/partners', { headers: admin(), json: { name: 'Min ERP', mode: 'test' } });
      expect(partner.status, partner.text).to.equal(201);
      const trn = randomTrn();
      const sme = await adminCall('POST', `/v1/admin/partners/${partner.body.partnerId}/smes`, { headers: admin(), json: { trn, name: 'Gulf Foods LLC', ...registration } });
      expect(sme.status, sme.text).to.equal(201);
      const headers = { 'X-API-Key': partner.body.apiKey, 'X-API-Secret': partner.body.apiSecret, 'x-erp-partner-secret': sme.body.connectionSecret };
      return { trn, sme: sme.body, headers };
    }

    it('connected with trade licence and address (admin API): the minimum body is queued, acknowledged, and its XML has both', async () => {
      const { trn, sme, headers } = await smeOverAdminApi({ tradeLicenseNumber: 'DED-445566', address: { line1: 'Warehouse 7, Al Quoz 3', city: 'Dubai', emirate: 'Dubai' } });
      expect(sme).to.deep.include({ tradeLicenseNumber: 'DED-445566', address: { line1: 'Warehouse 7, Al Quoz 3', city: 'Dubai', emirate: 'Dubai', country: 'AE' } });
      const res = await call('POST', '/v1/partner/invoices', { headers: { ...headers, 'Idempotency-Key': randomUUID() }, json: minimumBody(trn) });
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.deep.equal({ invoiceId: res.body.invoiceId, number: res.body.number, status: 'queued' });
      const p = { headers } as never;
      const done = await waitForStatus(p, res.body.invoiceId, ['acknowledged', 'rejected']);
      expect(done.status, JSON.stringify(done)).to.equal('acknowledged');
      const doc = await call('GET', `/v1/partner/invoices/${res.body.invoiceId}/document`, { headers });
      expect(doc.status).to.equal(200);
      expect(doc.text).to.contain('DED-445566');
      expect(doc.text).to.match(/<cbc:CountrySubentity>DXB<\/cbc:CountrySubentity>/);
    });

    it('the same body for an SME connected without them is held (what the fill-in prevents), naming seller.tradeLicenseNumber', async () => {
      const { trn, headers } = await smeOverAdminApi({});
      const res = await call('POST', '/v1/partner/invoices', { headers: { ...headers, 'Idempotency-Key': randomUUID() }, json: minimumBody(trn) });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.status).to.equal('held');
      expect(res.body.heldErrors.map((e: any) => e.path)).to.include.members(['seller.tradeLicenseNumber', 'seller.address.emirate']);
    });

    it('the admin API refuses an SME address PINT-AE cannot use (400 naming address.emirate)', async () => {
      const partner = await adminCall('POST', '/v1/admin/partners', { headers: admin(), json: { name: 'Bad ERP', mode: 'test' } });
      const bad = await adminCall('POST', `/v1/admin/partners/${partner.body.partnerId}/smes`, { headers: admin(), json: { trn: randomTrn(), name: 'X', address: { line1: 'L', city: 'C', emirate: 'Atlantis' } } });
      expect(bad.status, bad.text).to.equal(400);
      expect(bad.body.meta.errors[0]).to.include({ code: 'invalid_address', path: 'address.emirate' });
    });
  });

  describe('9. test mode acknowledges with a simulated TEST- ackRef', () => {
    it('Partner: GET, the list and the evidence show the same TEST- reference', async () => {
      const p = await newPartner();
      const res = await postInvoice(p, invoiceBody(p, (b) => (b.issueDate = day(0))));
      const done = await waitForStatus(p, res.body.invoiceId, 'acknowledged');
      expect(done.ackRef).to.match(/^TEST-[0-9A-F]{16}$/);
      const list = await call('GET', '/v1/partner/invoices?limit=10', { headers: p.headers });
      expect(list.body.data.find((i: any) => i.invoiceId === res.body.invoiceId)).to.include({ status: 'acknowledged', ackRef: done.ackRef });
      const evidence = await call('GET', `/v1/partner/invoices/${res.body.invoiceId}/evidence`, { headers: p.headers });
      expect(evidence.body.submissions[0].ackRef).to.equal(done.ackRef);
      // a queued invoice has none yet
      const queued = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name = 'Noor [asp:no-ack]')));
      expect((await getInvoice(p, queued.body.invoiceId)).body).to.not.have.property('ackRef');
    });

    it('Tenant: GET, the list and the signed status update carry the TEST- reference', async () => {
      const receiver = await WebhookReceiver.start();
      try {
        const t = await newTenant({ statusUrl: receiver.url });
        const { id, number, body } = await acknowledgedTenantInvoice(t, day(0));
        expect(body.ackRef).to.match(/^TEST-[0-9A-F]{16}$/);
        const list = await call('GET', '/v1/invoices?limit=10', { headers: t.headers });
        expect(list.body.data.find((i: any) => i.id === id)).to.include({ ackRef: body.ackRef });
        const updates = (await receiver.waitForRequests(2)).map((r) => JSON.parse(r.rawBody));
        const acknowledged = updates.find((u: any) => /acknowledged/i.test(u.status));
        expect(acknowledged, JSON.stringify(updates)).to.include({ invoiceNumber: number, uuid: id, ackRef: body.ackRef });
      } finally {
        await receiver.close();
      }
    });
  });

  describe('10. the retry limit answers 429 with its own X-RateLimit-* headers', () => {
    it('Partner: Limit 3, Remaining 0, Policy 3;w=3600, Scope invoice-retry, Reset = Retry-After (not the 600 a minute budget)', async () => {
      const p = await newPartner();
      const created = await postInvoice(p, invoiceBody(p, (b) => ((b.buyer.name = 'Noor [asp:reject]'), (b.issueDate = day(0)))));
      await waitForStatus(p, created.body.invoiceId, 'rejected');
      for (let i = 0; i < RETRY_WINDOW.limit; i++) await consumeBudget({ bucket: `retry:${created.body.invoiceId}`, ...RETRY_WINDOW });
      const ok = await call('GET', `/v1/partner/invoices/${created.body.invoiceId}`, { headers: p.headers });
      expect(ok.headers.get('x-ratelimit-limit')).to.equal(String(config().defaultRateLimitPerMinute));
      const limited = await call('POST', `/v1/partner/invoices/${created.body.invoiceId}/retry`, { headers: { ...p.headers, 'Idempotency-Key': randomUUID() } });
      expect(limited.status, limited.text).to.equal(429);
      expect(limited.body.code).to.equal('retry_rate_limited');
      expect(limited.headers.get('x-ratelimit-limit')).to.equal('3');
      expect(limited.headers.get('x-ratelimit-remaining')).to.equal('0');
      expect(limited.headers.get('x-ratelimit-policy')).to.equal('3;w=3600');
      expect(limited.headers.get('x-ratelimit-scope')).to.equal('invoice-retry');
      expect(Number(limited.headers.get('x-ratelimit-reset'))).to.be.within(1, 3600);
      expect(limited.headers.get('x-ratelimit-reset')).to.equal(limited.headers.get('retry-after'));
    });

    it('Tenant: the same headers on POST /v1/invoices/{id}/retry', async () => {
      const t = await newTenant();
      const created = await tenantDraft(t, (b) => ((b.buyer.name = 'Noor [asp:reject]'), (b.issueDate = day(0))));
      await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [created.body.id] } });
      await waitForTenantStatus(t, created.body.id, ['rejected']);
      for (let i = 0; i < RETRY_WINDOW.limit; i++) await consumeBudget({ bucket: `retry:${created.body.id}`, ...RETRY_WINDOW });
      const limited = await call('POST', `/v1/invoices/${created.body.id}/retry`, { headers: mutation(t) });
      expectTenantError(limited, 429, 'retry_rate_limited');
      expect(limited.headers.get('x-ratelimit-limit')).to.equal('3');
      expect(limited.headers.get('x-ratelimit-remaining')).to.equal('0');
      expect(limited.headers.get('x-ratelimit-policy')).to.equal('3;w=3600');
      expect(limited.headers.get('x-ratelimit-scope')).to.equal('invoice-retry');
    });
  });
});
