// POST /v1/credit-notes over real HTTP (SPEC 2.2 Credit-note body, 4.2, 7.2): a credit note against a delivered
// invoice is stored, submitted at once and runs the pipeline on the real worker (test mode: the simulated ASP),
// rendered as a PINT-AE CreditNote the official Schematron accepts.
import { expect } from 'chai';
import { uaeToday } from '../../src/domain/submission-rules';
import { randomUUID } from 'node:crypto';
import { InvoiceDocument } from '../../src/db/models';
import { updateTenant } from '../../src/services/tenants';
import { call } from '../helpers/http';
import { ensureWorker } from '../helpers/worker';
import { type TestTenant, expectTenantError, mutation, newTenant, tenantInvoice, waitForTenantStatus } from '../helpers/tenants';
import { describeFatal, officialValidator } from '../unit/pint-ae/render-helpers';



/** A sale (10 x 150 AED at 5 %, 1,575.00 AED) created, submitted and acknowledged. */
async function acknowledgedInvoice(t: TestTenant): Promise<{ id: string; number: string }> {
  const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
  expect(created.status, created.text).to.equal(201);
  const submit = await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [created.body.id] } });
  expect(submit.body.submitted, submit.text).to.equal(1);
  await waitForTenantStatus(t, created.body.id, ['acknowledged']);
  return { id: created.body.id, number: created.body.number };
}

function creditNote(originalInvoiceNumber: string, grossAmount: number, change: Record<string, unknown> = {}): Record<string, unknown> {
  // Dated today: no late_issuance warning in the answer.
  return { originalInvoiceNumber, issueDate: uaeToday(), creditNoteNumber: `CN-${randomUUID().slice(0, 8)}`, reason: 'ReturnOfGoods', totals: { grossAmount }, ...change };
}

describe('Tenant API: POST /v1/credit-notes', () => {
  let validate: Awaited<ReturnType<typeof officialValidator>>;
  before(async () => {
    await ensureWorker();
    validate = await officialValidator();
  });

  it('a full credit note: 202 queued, then acknowledged; GET says credit_note; its XML is a CreditNote the official Schematron accepts', async () => {
    const t = await newTenant();
    const original = await acknowledgedInvoice(t);
    const body = creditNote(original.number, -1575);
    const headers = mutation(t);
    const res = await call('POST', '/v1/credit-notes', { headers, json: body });
    expect(res.status, res.text).to.equal(202);
    expect(res.body).to.deep.equal({
      id: res.body.id,
      number: body.creditNoteNumber,
      status: 'queued',
      invoiceType: 'credit_note',
      totals: { subtotal: 1500, tax: 75, total: 1575, currency: 'AED' },
      pipeline: [
        { step: 'transform', state: 'pending' },
        { step: 'validate', state: 'pending' },
        { step: 'deliver', state: 'pending' },
        { step: 'acknowledge', state: 'pending' },
      ],
      errors: [],
      submissionMode: 'test',
      source: 'test-connector/1.0',
      originalInvoiceId: original.id,
      originalInvoiceNumber: original.number,
      reason: 'ReturnOfGoods',
      grossAmount: -1575,
    });
    expect(res.body.id).to.match(/^[0-9a-f-]{36}$/);

    // the same key and body replays the answer
    const again = await call('POST', '/v1/credit-notes', { headers, json: body });
    expect(again.status).to.equal(202);
    expect(again.body.id).to.equal(res.body.id);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');

    const done = await waitForTenantStatus(t, res.body.id, ['acknowledged']);
    expect(done).to.include({ invoiceType: 'credit_note', documentType: 'credit_note', issueDate: body.issueDate });
    expect(done.history.map((h: any) => h.status)).to.deep.equal(['draft', 'queued', 'transformed', 'validated', 'delivered', 'acknowledged']);

    const doc = await InvoiceDocument.findById(res.body.id).lean();
    expect(doc, 'stored XML').to.not.equal(null);
    const xml = doc!.xml;
    expect(xml).to.match(/^(<\?xml[^>]*>\s*)?<CreditNote[\s>]/);
    expect(xml).to.contain(`<cbc:ID>${original.number}</cbc:ID>`); // BillingReference to the original
    const report = validate(xml);
    expect(report.fatal, describeFatal(report)).to.deep.equal([]);

    // credited in full: nothing is left
    const more = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, -1) });
    expectTenantError(more, 400, 'invalid_body');
    expect(more.body.errors.map((e: any) => e.path)).to.deep.equal(['totals.grossAmount']);
    expect(more.body.meta.leftToCredit).to.equal(0);
  });

  it('a partial credit of a 5 % invoice: -105 is net 100, VAT 5; then at most what is left; unreachable amounts are totals_mismatch', async () => {
    const t = await newTenant();
    const original = await acknowledgedInvoice(t);
    const res = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, -105, { reason: 'Damaged in transit' }) });
    expect(res.status, res.text).to.equal(202);
    expect(res.body).to.include({ status: 'queued', invoiceType: 'credit_note', reason: 'Damaged in transit', grossAmount: -105 });
    expect(res.body.totals).to.deep.equal({ subtotal: 100, tax: 5, total: 105, currency: 'AED' });
    await waitForTenantStatus(t, res.body.id, ['acknowledged']);

    const tooMuch = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, -1470.01) });
    expectTenantError(tooMuch, 400, 'invalid_body');
    expect(tooMuch.body.errors.map((e: any) => e.path)).to.deep.equal(['totals.grossAmount']);
    expect(tooMuch.body.meta).to.include({ leftToCredit: 1470, alreadyCredited: 105, originalTotal: 1575 });
    expect(tooMuch.body.humanMessage).to.contain('1470.00');

    const odd = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, -0.31) });
    expectTenantError(odd, 400, 'totals_mismatch');
    expect(odd.body.meta.reachable).to.deep.equal([-0.3, -0.32]);

    const rest = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, -1470) });
    expect(rest.status, rest.text).to.equal(202);
    expect(rest.body.totals).to.deep.equal({ subtotal: 1400, tax: 70, total: 1470, currency: 'AED' });
  });

  it('404 original_invoice_not_found: an unknown number, or the original in another mode', async () => {
    const t = await newTenant();
    expectTenantError(await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote('NOPE-1', -10) }), 404, 'original_invoice_not_found');

    const original = await acknowledgedInvoice(t);
    await updateTenant(t.tenantId, { mode: 'sandbox' });
    try {
      expectTenantError(await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, -1575) }), 404, 'original_invoice_not_found');
    } finally {
      await updateTenant(t.tenantId, { mode: 'test' });
    }
    // another tenant's invoice is not found either
    const other = await newTenant();
    expectTenantError(await call('POST', '/v1/credit-notes', { headers: mutation(other), json: creditNote(original.number, -1575) }), 404, 'original_invoice_not_found');
  });

  it('409 original_not_delivered for a draft original; 409 original_not_creditable for a credit note', async () => {
    const t = await newTenant();
    const draft = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
    const res = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(draft.body.number, -1575) });
    expectTenantError(res, 409, 'original_not_delivered');
    expect(res.body.meta).to.include({ status: 'draft', originalInvoiceId: draft.body.id });

    const original = await acknowledgedInvoice(t);
    const note = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, -1575) });
    expect(note.status, note.text).to.equal(202);
    const ofNote = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(note.body.number, -10) });
    expectTenantError(ofNote, 409, 'original_not_creditable');
  });

  it('400 invalid_body: a positive or over-precise grossAmount, a missing field; 409 duplicate creditNoteNumber; 422 without Idempotency-Key', async () => {
    const t = await newTenant();
    const original = await acknowledgedInvoice(t);

    let res = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, 105) });
    expectTenantError(res, 400, 'invalid_body');
    expect(res.body.errors.map((e: any) => e.path)).to.deep.equal(['totals.grossAmount']);
    res = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, -1.005) });
    expectTenantError(res, 400, 'invalid_body');
    expect(res.body.errors.map((e: any) => e.path)).to.deep.equal(['totals.grossAmount']);
    const { reason: _r, ...noReason } = creditNote(original.number, -10);
    res = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: noReason });
    expectTenantError(res, 400, 'invalid_body');
    expect(res.body.errors.map((e: any) => e.path)).to.deep.equal(['reason']);

    const first = creditNote(original.number, -105, { creditNoteNumber: 'CN-DUP-1' });
    expect((await call('POST', '/v1/credit-notes', { headers: mutation(t), json: first })).status).to.equal(202);
    res = await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, -105, { creditNoteNumber: 'CN-DUP-1' }) });
    expectTenantError(res, 409, 'invoice_number_duplicate');
    // the invoice's own number is taken too
    expectTenantError(await call('POST', '/v1/credit-notes', { headers: mutation(t), json: creditNote(original.number, -105, { creditNoteNumber: original.number }) }), 409, 'invoice_number_duplicate');

    expectTenantError(await call('POST', '/v1/credit-notes', { headers: t.headers, json: creditNote(original.number, -105) }), 422, 'idempotency_required');
  });
});
