// The credit-note body (SPEC 2.2) and the credit note built from the original's stored body: full and partial
// credits, the reason mapping, what is left to credit, and notes the official PINT-AE Schematron accepts.
import { expect } from 'chai';
import { buildCreditNoteBody, creditNoteInputSchema, creditReasonCode, netForGross, type CreditNoteBuilt, type CreditNoteInput, type CreditNoteRefusal } from '../../../src/domain/credit-note-input';
import { type InvoiceCreateBody, fils, preSubmitCheck, computeTotals, renderInvoice } from '@einvoice/pint-ae';
import { readTenantInvoice } from '../../../src/domain/tenant-invoice-input';
import type { TenantDraft, TenantRegistration } from '../../../src/domain/tenant-invoice-types';
import { describeFatal, officialValidator } from '../pint-ae/render-helpers';
import { FALCON_TENANT } from '../../helpers/tenant-registration';

const TENANT: TenantRegistration = FALCON_TENANT;

type Body = Record<string, any>;

/** A stored original: 10 x 150 AED at 5 % (1,575.00 AED) to a UAE business, as POST /v1/invoices maps it. */
function original(change: (b: Body) => void = () => {}): InvoiceCreateBody {
  const b: Body = {
    number: 'T-2025-0001',
    issueDate: '2025-02-07',
    currency: 'AED',
    invoiceType: 'sale',
    seller: { name: 'Falcon Trading LLC', legalNameArabic: TENANT.legalNameArabic, trn: TENANT.trn, country: 'AE' },
    buyer: {
      name: 'Noor Electronics LLC',
      trn: '100987654300003',
      country: 'AE',
      address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', state: 'Abu Dhabi', country: 'AE' },
    },
    lines: [{ description: 'Consulting, January', quantity: 10, unit: 'HUR', unitPrice: 150, vatRate: 0.05, taxCategory: 'standard_5' }],
  };
  change(b);
  const r = readTenantInvoice(b, TENANT);
  expect(r, JSON.stringify(r)).to.have.property('draft');
  return (r as { draft: TenantDraft }).draft.body;
}

/** 2 lines: 1,000 AED at 5 % and 500 AED zero-rated healthcare (1,550.00 AED). */
const multiRate = () =>
  original(
    (b) =>
      (b.lines = [
        { description: 'Cables', quantity: 10, unitPrice: 100, vatRate: 0.05, taxCategory: 'standard_5' },
        { description: 'Medicine', quantity: 5, unitPrice: 100, vatRate: 0, taxCategory: 'zero_rated_healthcare' },
      ]),
  );

function input(change: Partial<CreditNoteInput> = {}, gross = -1575): CreditNoteInput {
  return { originalInvoiceNumber: 'T-2025-0001', issueDate: '2025-02-20', creditNoteNumber: 'CN-2025-0001', reason: 'ReturnOfGoods', totals: { grossAmount: gross }, ...change };
}

function built(orig: InvoiceCreateBody, inp: CreditNoteInput, alreadyCredited = 0): CreditNoteBuilt {
  const r = buildCreditNoteBody({ body: orig, alreadyCreditedFils: fils(alreadyCredited) }, inp);
  expect(r, JSON.stringify(r)).to.not.have.property('refusal');
  return r as CreditNoteBuilt;
}

function refused(orig: InvoiceCreateBody, inp: CreditNoteInput, alreadyCredited = 0): CreditNoteRefusal {
  const r = buildCreditNoteBody({ body: orig, alreadyCreditedFils: fils(alreadyCredited) }, inp);
  expect(r, JSON.stringify(r)).to.have.property('refusal');
  return (r as { refusal: CreditNoteRefusal }).refusal;
}

function totals(b: InvoiceCreateBody): [string, string, string] {
  const t = computeTotals(b);
  return [t.taxExclusive, t.tax, t.taxInclusive];
}

describe('credit-note input (POST /v1/credit-notes)', () => {
  describe('the body schema', () => {
    const check = (body: unknown) => creditNoteInputSchema.validate(body, { abortEarly: false, convert: true });
    const paths = (body: unknown) => (check(body).error?.details ?? []).map((d) => `${d.type} ${d.path.join('.')}`);

    it('accepts the SPEC 2.2 body (strings trimmed)', () => {
      const { value, error } = check({ ...input(), creditNoteNumber: ' CN-1 ', totals: { grossAmount: -10.5 } });
      expect(error).to.equal(undefined);
      expect(value).to.deep.include({ creditNoteNumber: 'CN-1', totals: { grossAmount: -10.5 } });
    });

    it('grossAmount: negative JSON number with at most 2 decimals', () => {
      expect(paths(input({}, 105))).to.deep.equal(['number.negative totals.grossAmount']);
      expect(paths(input({}, 0))).to.deep.equal(['number.negative totals.grossAmount']);
      expect(paths(input({}, -1.005))).to.deep.equal(['number.precision totals.grossAmount']);
      expect(paths({ ...input(), totals: { grossAmount: '-105' } })).to.deep.equal(['number.base totals.grossAmount']);
      expect(paths({ ...input(), totals: {} })).to.deep.equal(['any.required totals.grossAmount']);
    });

    it('required strings, lengths, dates, unknown fields', () => {
      expect(paths({})).to.have.members(['any.required originalInvoiceNumber', 'any.required issueDate', 'any.required creditNoteNumber', 'any.required reason', 'any.required totals']);
      expect(paths(input({ creditNoteNumber: 'x'.repeat(65), originalInvoiceNumber: '' }))).to.have.members(['string.max creditNoteNumber', 'string.empty originalInvoiceNumber']);
      expect(paths(input({ reason: 'r'.repeat(501) }))).to.deep.equal(['string.max reason']);
      expect(paths(input({ issueDate: '2025-02-30' }))).to.deep.equal(['any.invalid issueDate']);
      expect(paths({ ...input(), lines: [] })).to.deep.equal(['object.unknown lines']);
    });
  });

  it('reason -> creditNoteReasonCode: the known reasons as on POST /v1/invoices, any other text 05', () => {
    expect(creditReasonCode('ReturnOfGoods')).to.equal('04');
    expect(creditReasonCode('PriceCorrection')).to.equal('03');
    expect(creditReasonCode('OtherAdjustment')).to.equal('05');
    expect(creditReasonCode('Damaged in transit')).to.equal('05');
    expect(creditReasonCode('returnofgoods')).to.equal('05');
  });

  describe('full credit', () => {
    it('|grossAmount| = the original total: the original lines, a credit_note naming the original', () => {
      const orig = original();
      const { body, kind } = built(orig, input());
      expect(kind).to.equal('full');
      expect(body).to.deep.include({
        trn: TENANT.trn,
        number: 'CN-2025-0001',
        issueDate: '2025-02-20',
        invoiceType: 'sale',
        documentType: 'credit_note',
        precedingInvoiceNumber: 'T-2025-0001',
        precedingInvoiceIssueDate: '2025-02-07',
        creditNoteReasonCode: '04',
        currency: 'AED',
      });
      expect(body.seller).to.deep.equal(orig.seller);
      expect(body.buyer).to.deep.equal(orig.buyer);
      expect(body.lines).to.deep.equal(orig.lines);
      expect(totals(body)).to.deep.equal(['1500.00', '75.00', '1575.00']);
    });

    it('a multi-rate original is credited in full', () => {
      const { body, kind } = built(multiRate(), input({}, -1550));
      expect(kind).to.equal('full');
      expect(body.lines).to.have.length(2);
    });
  });

  describe('partial credit', () => {
    it('-105 on a 5 % invoice: one line "Credit: <reason>", quantity 1, net 100, VAT 5', () => {
      const { body, kind } = built(original(), input({ reason: 'PriceCorrection' }, -105));
      expect(kind).to.equal('partial');
      expect(body.creditNoteReasonCode).to.equal('03');
      expect(body.lines).to.have.length(1);
      expect(body.lines[0]).to.deep.include({ description: 'Credit: PriceCorrection', quantity: 1, unitPrice: 100, vatRate: 0.05, taxCategory: 'standard_5', unitOfMeasureCode: 'EA' });
      expect(totals(body)).to.deep.equal(['100.00', '5.00', '105.00']);
    });

    it('another reason is kept in the line and coded 05', () => {
      const { body } = built(original(), input({ reason: 'Damaged in transit' }, -52.5));
      expect(body.creditNoteReasonCode).to.equal('05');
      expect(body.lines[0].description).to.equal('Credit: Damaged in transit');
      expect(totals(body)).to.deep.equal(['50.00', '2.50', '52.50']);
    });

    it('a gross no net reaches: totals_mismatch naming the reachable amounts either side', () => {
      const r = refused(original(), input({}, -0.31));
      expect(r.code).to.equal('totals_mismatch');
      expect(r.errors.map((e) => e.path)).to.deep.equal(['totals.grossAmount']);
      expect(r.meta).to.deep.equal({ reachable: [-0.3, -0.32] });
      expect(r.message).to.contain('-0.30 and -0.32');
    });

    it('every gross from 0.01 to 40.00 AED at 5 %: an exact net, or two reachable neighbours around it', () => {
      const like = original().lines[0];
      for (let g = 1n; g <= 4000n; g++) {
        const r = netForGross(like, g);
        if (typeof r === 'bigint') {
          expect(r + (r * 5n * 2n + 100n) / 200n, `gross ${g}`).to.equal(g);
        } else {
          expect(r.reachable, `gross ${g}`).to.have.length(2);
          expect(r.reachable[0] < g && g < r.reachable[1], `gross ${g}: ${r.reachable}`).to.equal(true);
          for (const n of r.reachable) expect(netForGross(like, n), `reachable ${n}`).to.be.a('bigint');
        }
      }
    });

    it('a zero-rated original: net = gross', () => {
      const orig = original((b) => (b.lines = [{ description: 'Medicine', quantity: 3, unitPrice: 40, vatRate: 0, taxCategory: 'zero_rated_healthcare' }]));
      const { body } = built(orig, input({}, -33.33));
      expect(totals(body)).to.deep.equal(['33.33', '0.00', '33.33']);
    });

    it('a partial credit of a multi-rate original: invalid_body on totals.grossAmount', () => {
      const r = refused(multiRate(), input({}, -105));
      expect(r.code).to.equal('invalid_body');
      expect(r.errors.map((e) => e.path)).to.deep.equal(['totals.grossAmount']);
      expect(r.message).to.contain('-1550.00').and.contain('POST /v1/invoices');
    });
  });

  describe('what is left to credit', () => {
    it('more than the original total: invalid_body stating the amount left', () => {
      const r = refused(original(), input({}, -1575.01));
      expect(r.code).to.equal('invalid_body');
      expect(r.errors.map((e) => e.path)).to.deep.equal(['totals.grossAmount']);
      expect(r.meta).to.deep.include({ leftToCredit: 1575, originalTotal: 1575, alreadyCredited: 0 });
    });

    it('earlier credit notes reduce it; the exact remainder is a partial credit', () => {
      const r = refused(original(), input({}, -1000), 1050);
      expect(r.meta).to.deep.include({ leftToCredit: 525, alreadyCredited: 1050 });
      expect(r.message).to.contain('525.00');
      const rest = built(original(), input({}, -525), 1050);
      expect(rest.kind).to.equal('partial');
      expect(totals(rest.body)).to.deep.equal(['500.00', '25.00', '525.00']);
      // once credited in full, even the full amount is refused
      expect(refused(original(), input({}, -1575), 1575).message).to.contain('already credited in full');
    });
  });

  it('an issue date before the original: invalid_body on issueDate', () => {
    const r = refused(original(), input({ issueDate: '2025-02-06' }));
    expect(r.code).to.equal('invalid_body');
    expect(r.errors.map((e) => e.path)).to.deep.equal(['issueDate']);
  });

  describe('pre-submit checks and the official PINT-AE Schematron', () => {
    let validate: Awaited<ReturnType<typeof officialValidator>>;
    before(async () => {
      validate = await officialValidator();
    });

    function passes(body: InvoiceCreateBody): void {
      expect(preSubmitCheck(body), 'pre-submit').to.equal(null);
      const xml = renderInvoice(body, { documentUuid: '6f1c2a5e-3b7d-4c2a-9e1f-0a8b7c6d5e4f' });
      expect(xml).to.match(/<CreditNote[\s>]/);
      const report = validate(xml);
      expect(report.fatal, describeFatal(report)).to.deep.equal([]);
    }

    it('a full credit note', () => passes(built(original(), input()).body));
    it('a partial credit note', () => passes(built(original(), input({ reason: 'Damaged in transit' }, -105)).body));
    it('a full credit note of a multi-rate original', () => passes(built(multiRate(), input({}, -1550)).body));
  });
});
