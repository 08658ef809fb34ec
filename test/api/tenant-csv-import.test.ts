// POST /v1/invoices/bulk over real HTTP (SPEC 4.2, 7.2, 8): 1,000 invoices with some bad rows, the per-row report,
// nothing rolled back, skipErrors, upserting drafts and refusing submitted numbers, the Arabic-name variant, the
// 413 limits while streaming, and idempotent resends.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Invoice } from '../../src/db/models';
import { numberScope } from '../../src/domain/owner';
import { apiBase, call } from '../helpers/http';
import { randomTrn } from '../helpers/partners';
import { csvInvoiceNumber, csvRowOf, tenantCsv, type TenantCsvOptions } from '../helpers/tenant-csv';
import { mutation, newTenant, type TestTenant } from '../helpers/tenants';

async function upload(t: TestTenant, csv: string, options?: unknown, key = randomUUID()): Promise<{ status: number; body: any }> {
  const form = new FormData();
  if (options !== undefined) form.append('options', JSON.stringify(options));
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'invoices.csv');
  const res = await fetch(`${await apiBase()}/v1/invoices/bulk`, { method: 'POST', headers: mutation(t, key), body: form });
  return { status: res.status, body: await res.json() };
}

async function csvTenant(): Promise<{ t: TestTenant; csv: (n: number, lines: number, o?: TenantCsvOptions) => string }> {
  const trn = randomTrn();
  const t = await newTenant({ trn });
  return { t, csv: (n, lines, o = {}) => tenantCsv(n, lines, { sellerTrn: trn, ...o }) };
}

describe('Tenant API: CSV bulk import', function () {
  this.timeout(120_000);

  it('1,000 invoices with bad rows and skipErrors: the report names each bad row; the good ones are drafts', async () => {
    const { t, csv } = await csvTenant();
    const bad = [
      { invoice: 3, line: 1, column: 'lineQty' as const, value: 'abc' },
      { invoice: 10, column: 'buyerTrn' as const, value: '12345' },
      { invoice: 500, column: 'lineTaxCategory' as const, value: '' },
    ];
    const res = await upload(t, csv(1000, 2, { badRows: bad }), { skipErrors: true });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(200);
    expect(res.body.invoices).to.deep.equal({ received: 1000, created: 997, updated: 0, rejected: 3 });
    const byNumber = (n: number) => res.body.errors.filter((e: any) => e.invoiceNumber === csvInvoiceNumber(n));
    expect(byNumber(3)[0]).to.include({ row: csvRowOf(3, 1, 2), column: 'lineQty', code: 'invalid_number' });
    expect(byNumber(10)[0]).to.include({ column: 'buyerTrn' });
    expect(byNumber(500)[0]).to.include({ column: 'lineTaxCategory' });
    for (const e of res.body.errors) expect(e.message).to.be.a('string').and.not.equal('');
    const stored = await Invoice.countDocuments({ numberScope: numberScope({ kind: 'tenant', tenantId: t.tenantId, mode: 'test' }), status: 'draft' });
    expect(stored).to.equal(997);
    const list = await call('GET', '/v1/invoices?limit=5', { headers: t.headers });
    expect(list.body.data).to.have.length(5);
    // every line is at 5 %: the tax is 5 % of the subtotal, and the total their sum, to the fils
    for (const { totals: t } of list.body.data) {
      expect(t.subtotal).to.be.greaterThan(0);
      expect(Math.round(t.tax * 100)).to.equal(Math.round(t.subtotal * 5));
      expect(Math.round(t.total * 100)).to.equal(Math.round(t.subtotal * 100) + Math.round(t.tax * 100));
    }
  });

  it('without skipErrors a bad row stores nothing (422 with the report)', async () => {
    const { t, csv } = await csvTenant();
    const res = await upload(t, csv(5, 1, { badRows: [{ invoice: 2, column: 'lineUnitPrice', value: 'x' }] }));
    expect(res.status).to.equal(422);
    expect(res.body.code).to.equal('bulk_rows_invalid');
    expect(res.body.errors[0]).to.include({ invoiceNumber: csvInvoiceNumber(2), column: 'lineUnitPrice' });
    expect(await Invoice.countDocuments({ numberScope: numberScope({ kind: 'tenant', tenantId: t.tenantId, mode: 'test' }) })).to.equal(0);
  });

  it('a number already a draft is updated; one already submitted is refused for its rows; the Arabic variant reads', async () => {
    const { t, csv } = await csvTenant();
    const first = await upload(t, csv(3, 1));
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const submittedId = first.body.results.find((r: any) => r.number === csvInvoiceNumber(0)).id;
    await Invoice.updateOne({ _id: submittedId }, { $set: { status: 'queued', listStatus: 'queued' } }); // as a submit would leave it
    const again = await upload(t, csv(3, 2, { arabic: true }), { skipErrors: true });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.invoices).to.deep.equal({ received: 3, created: 0, updated: 2, rejected: 1 });
    expect(again.body.errors).to.have.length(1);
    expect(again.body.errors[0]).to.include({ invoiceNumber: csvInvoiceNumber(0), code: 'invoice_already_submitted', column: 'number' });
    const updated = await Invoice.findById(again.body.results.find((r: any) => r.number === csvInvoiceNumber(1)).id).lean();
    expect(updated!.body.lines).to.have.length(2);
    expect(updated!.body.buyer.legalNameArabic).to.match(/[\u0600-\u06FF]/);
  });

  it('413 bulk_payload_too_large beyond 1,000 invoices; the same key and file replays the first report', async () => {
    const { t, csv } = await csvTenant();
    const tooMany = await upload(t, csv(1001, 1));
    expect(tooMany.status).to.equal(413);
    expect(tooMany.body.code).to.equal('bulk_payload_too_large');
    const big = await upload(t, csv(1, 1).trimEnd() + 'x'.repeat(6 * 1024 * 1024) + '\n'); // one 6 MB notes cell
    expect(big.status).to.equal(413);

    const key = randomUUID();
    const file = csv(2, 1);
    const one = await upload(t, file, undefined, key);
    const two = await upload(t, file, undefined, key);
    expect(two.body).to.deep.equal(one.body);
    expect(await Invoice.countDocuments({ numberScope: numberScope({ kind: 'tenant', tenantId: t.tenantId, mode: 'test' }) })).to.equal(2);
    const other = await upload(t, csv(3, 1), undefined, key);
    expect(other.status).to.equal(409);
    const noKey = await fetch(`${await apiBase()}/v1/invoices/bulk`, { method: 'POST', headers: t.headers, body: new FormData() });
    expect(noKey.status).to.equal(422);
    expect(((await noKey.json()) as { code: string }).code).to.equal('idempotency_required');
  });
});
