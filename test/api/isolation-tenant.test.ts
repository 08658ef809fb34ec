// Issue 13 item 3, Tenant API: tenant B never sees or changes anything of tenant A's through ids, list cursors,
// idempotency keys, invoice numbers (credit notes, the CSV import) or submit/retry; every refusal is a 404 in the
// Tenant shape and no answer carries a stack trace or a secret.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { apiBase, call, type ApiResponse } from '../helpers/http';
import { expectNoLeak } from '../helpers/leaks';
import { tenantCsv } from '../helpers/tenant-csv';
import { expectTenantError, mutation, newTenant, tenantInvoice, type TestTenant } from '../helpers/tenants';

function secretsOf(...tenants: TestTenant[]): string[] {
  return tenants.flatMap((t) => [t.clientSecret, t.webhookSecret]);
}

async function draft(t: TestTenant, key = randomUUID()): Promise<ApiResponse> {
  const res = await call('POST', '/v1/invoices', { headers: mutation(t, key), json: tenantInvoice(t) });
  expect(res.status, res.text).to.equal(201);
  return res;
}

async function upload(t: TestTenant, csv: string): Promise<{ status: number; body: any; text: string }> {
  const form = new FormData();
  form.append('options', JSON.stringify({ skipErrors: true }));
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'invoices.csv');
  const res = await fetch(`${await apiBase()}/v1/invoices/bulk`, { method: 'POST', headers: mutation(t), body: form });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

describe('isolation: tenant A and tenant B (Tenant API)', () => {
  let a: TestTenant;
  let b: TestTenant;
  let secrets: string[];
  before(async () => {
    [a, b] = [await newTenant(), await newTenant()];
    secrets = secretsOf(a, b);
  });

  it("A's invoice id: GET and retry are 404 not_found for B, submit skips it, and A's draft is unchanged", async () => {
    const mine = await draft(a);
    const id = mine.body.id;
    for (const res of [await call('GET', `/v1/invoices/${id}`, { headers: b.headers }), await call('POST', `/v1/invoices/${id}/retry`, { headers: mutation(b) })]) {
      expectTenantError(res, 404, 'not_found');
      expect(res.text).not.to.include(mine.body.number);
      expectNoLeak(res, secrets);
    }
    const submit = await call('POST', '/v1/invoices/submit', { headers: mutation(b), json: { ids: [id] } });
    expect(submit.body).to.deep.equal({ submitted: 0, ids: [] });
    const after = await call('GET', `/v1/invoices/${id}`, { headers: a.headers });
    expect(after.body.status).to.equal('draft');
  });

  it("A's list cursor shows B only B's own invoices; B's list never holds A's", async () => {
    const ours = [await draft(a), await draft(a)].map((r) => r.body.id);
    const theirs = (await draft(b)).body.id;
    const page1 = await call('GET', '/v1/invoices?limit=1', { headers: a.headers });
    expect(page1.body.nextCursor, page1.text).to.be.a('string');
    const withCursor = await call('GET', `/v1/invoices?limit=100&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { headers: b.headers });
    expectNoLeak(withCursor, secrets);
    if (withCursor.status === 200) {
      for (const item of withCursor.body.data) expect(ours).not.to.include(item.id);
    } else {
      expectTenantError(withCursor, 400, 'invalid_body');
    }
    const list = await call('GET', '/v1/invoices?limit=100', { headers: b.headers });
    expect(list.body.data.map((i: { id: string }) => i.id)).to.include(theirs).and.not.include.members(ours);
  });

  it("A's Idempotency-Key used by B executes B's own request: never A's stored answer", async () => {
    const key = randomUUID();
    const mine = await draft(a, key);
    const same = await call('POST', '/v1/invoices', { headers: mutation(b, key), json: tenantInvoice(b) });
    expect(same.status, same.text).to.equal(201);
    expect(same.headers.get('idempotent-replayed')).to.equal(null);
    expect(same.body.id).not.to.equal(mine.body.id);
    // A's very body under A's key, sent by B: B's own verdict (A's TRN is not B's), not A's 201.
    const body = tenantInvoice(a, (x) => (x.number = mine.body.number));
    const replayAttempt = await call('POST', '/v1/invoices', { headers: mutation(b, key), json: body });
    expect(replayAttempt.text).not.to.include(mine.body.id);
    expect(replayAttempt.headers.get('idempotent-replayed')).to.equal(null);
    expectNoLeak(replayAttempt, secrets);
  });

  it("A's invoice number: a credit note by B is 404 original_invoice_not_found (not A's 409), and B's CSV import creates B's own draft", async () => {
    const mine = await draft(a);
    expectTenantError(
      await call('POST', '/v1/credit-notes', { headers: mutation(a), json: { originalInvoiceNumber: mine.body.number, issueDate: '2025-02-20', creditNoteNumber: `CN-${randomUUID().slice(0, 8)}`, reason: 'ReturnOfGoods', totals: { grossAmount: -10 } } }),
      409,
      'original_not_delivered',
    );
    const credit = await call('POST', '/v1/credit-notes', { headers: mutation(b), json: { originalInvoiceNumber: mine.body.number, issueDate: '2025-02-20', creditNoteNumber: `CN-${randomUUID().slice(0, 8)}`, reason: 'ReturnOfGoods', totals: { grossAmount: -10 } } });
    expectTenantError(credit, 404, 'original_invoice_not_found');
    expect(credit.text).not.to.include(mine.body.id);

    // Both tenants import the same invoice numbers: each import creates its own drafts, neither updates the other's.
    const trnA = a.trn;
    const prefix = `ISO-${randomUUID().slice(0, 6)}-`;
    const first = await upload(a, tenantCsv(1, 1, { sellerTrn: trnA, numberPrefix: prefix }));
    expect(first.status, first.text).to.equal(200);
    expect(first.body.invoices.created).to.equal(1);
    const second = await upload(b, tenantCsv(1, 1, { sellerTrn: b.trn, numberPrefix: prefix }));
    expect(second.status, second.text).to.equal(200);
    expect(second.body.invoices).to.include({ created: 1, updated: 0 });
    expect(second.body.results[0].id).not.to.equal(first.body.results[0].id);
    expectNoLeak(second, secrets);
  });
});
