// Every pre-submit refusal, with its exact code and JSON path; and, for the checks that guard an official
// PINT-AE rule, proof that the document rendered without the check is rejected by the official Schematron.
import { expect } from 'chai';
import { validateInvoiceBody, type InvoiceCreateBody } from '../../../src/domain/invoice-schema';
import { preSubmitCheck, renderInvoice } from '@einvoice/pint-ae';
import { corpus, fixture, officialValidator } from '../pint-ae/render-helpers';

type Mutator = (b: any) => void;

/** A fixture, changed, then shape-validated (defaults applied) — the body preSubmitCheck receives. */
function body(name: string, mutate: Mutator = () => {}): InvoiceCreateBody {
  const raw = fixture(name);
  mutate(raw);
  const { value, errors } = validateInvoiceBody(raw);
  expect(errors, 'shape errors').to.deep.equal([]);
  return value!;
}

function held(name: string, mutate: Mutator) {
  return preSubmitCheck(body(name, mutate));
}

function codesAt(name: string, mutate: Mutator): string[] {
  return (held(name, mutate)?.heldErrors ?? []).map((e) => `${e.code} ${e.path}`);
}

const MIN = '01-tax-invoice-minimal';

interface Case {
  title: string;
  fixture?: string;
  mutate: Mutator;
  expect: string[];
  /** Official Schematron rule the check guards: the unchecked rendering must fail it. */
  guards?: string;
}

const CASES: Case[] = [
  { title: 'vatRate given as a percent', mutate: (b) => (b.lines[0].vatRate = 5), expect: ['vat_rate_percent lines[0].vatRate'] },
  {
    title: 'vatRate as a percent on the third line',
    fixture: '02-tax-invoice-discount-charge-iban',
    mutate: (b) => (b.lines[2].vatRate = 5),
    expect: ['vat_rate_percent lines[2].vatRate'],
  },
  { title: 'negative vatRate', mutate: (b) => (b.lines[0].vatRate = -0.05), expect: ['invalid_vat_rate lines[0].vatRate'] },
  { title: 'vatRate that does not match the category', mutate: (b) => (b.lines[0].vatRate = 0), expect: ['vat_rate_mismatch lines[0].vatRate'] },
  {
    title: 'zero-rated line with vatRate 0.05',
    mutate: (b) => Object.assign(b.lines[0], { taxCategory: 'zero_rated_healthcare', vatRate: 0.05 }),
    expect: ['vat_rate_mismatch lines[0].vatRate'],
  },
  { title: 'short code S', mutate: (b) => (b.lines[0].taxCategory = 'S'), expect: ['short_tax_code lines[0].taxCategory'] },
  { title: 'short code Z', mutate: (b) => Object.assign(b.lines[0], { taxCategory: 'Z', vatRate: 0 }), expect: ['short_tax_code lines[0].taxCategory'] },
  { title: 'short code E', mutate: (b) => Object.assign(b.lines[0], { taxCategory: 'E', vatRate: 0 }), expect: ['short_tax_code lines[0].taxCategory'] },
  { title: 'short code O', mutate: (b) => Object.assign(b.lines[0], { taxCategory: 'O', vatRate: 0 }), expect: ['short_tax_code lines[0].taxCategory'] },
  {
    title: 'credit transfer (30) without paymentAccountIdentifier',
    mutate: (b) => (b.paymentMeansCode = '30'),
    expect: ['payment_account_required paymentAccountIdentifier'],
    guards: 'ibr-192-ae',
  },
  { title: 'paymentAccountIdentifier without paymentMeansCode', mutate: (b) => (b.paymentAccountIdentifier = 'AE070331234567890123456'), expect: ['payment_means_required paymentMeansCode'] },
  {
    title: 'PAS buyer without passportNumber and passportCountry',
    mutate: (b) => {
      delete b.buyer.trn;
      delete b.buyer.tradeLicenseNumber;
      b.buyer.legalRegistrationType = 'PAS';
    },
    expect: ['passport_number_required buyer.passportNumber', 'passport_country_required buyer.passportCountry'],
  },
  {
    title: 'PAS seller without passportNumber',
    mutate: (b) => {
      delete b.seller.tradeLicenseNumber;
      Object.assign(b.seller, { legalRegistrationType: 'PAS', passportCountry: 'GB' });
    },
    expect: ['passport_number_required seller.passportNumber'],
  },
  {
    title: 'PAS buyer with a passport country that is not ISO 3166',
    mutate: (b) => Object.assign(b.buyer, { legalRegistrationType: 'PAS', passportNumber: 'P1', passportCountry: 'XX' }),
    expect: ['invalid_passport_country buyer.passportCountry'],
    guards: 'ibr-010-ae',
  },
  {
    title: 'VAT-registered (TIN) UAE buyer without trn and without another identifier',
    mutate: (b) => {
      delete b.buyer.trn;
      delete b.buyer.tradeLicenseNumber;
    },
    expect: ['trn_required buyer.trn'],
    guards: 'ibr-135-ae',
  },
  {
    title: 'reverse charge without buyer trn',
    fixture: '25-reverse-charge-electronic-devices',
    mutate: (b) => delete b.buyer.trn,
    expect: ['trn_required buyer.trn'],
    guards: 'ibr-103-ae',
  },
  {
    title: 'purchase without the seller trn',
    fixture: '16-purchase-invoice',
    mutate: (b) => delete b.seller.trn,
    expect: ['trn_required seller.trn'],
  },
  { title: 'supplier trn not in PINT-AE format', mutate: (b) => (b.trn = b.seller.trn = '100123456700001'), expect: ['invalid_trn trn', 'invalid_trn seller.trn'], guards: 'ibr-132-ae' },
  { title: 'buyer trn not starting with 1', mutate: (b) => (b.buyer.trn = '200987654300003'), expect: ['invalid_trn buyer.trn'], guards: 'ibr-132-ae' },
  { title: 'seller trn differing from the supplier trn', mutate: (b) => (b.seller.trn = '100555666700003'), expect: ['trn_mismatch seller.trn'] },
  {
    title: 'seller without trade licence (legal registration)',
    mutate: (b) => delete b.seller.tradeLicenseNumber,
    expect: ['trade_license_required seller.tradeLicenseNumber'],
    guards: 'ibr-150-ae',
  },
  {
    title: 'commercial invoice to a buyer without legal registration',
    fixture: '04-commercial-invoice-out-of-scope',
    mutate: (b) => delete b.buyer.tradeLicenseNumber,
    expect: ['legal_registration_required buyer.tradeLicenseNumber'],
    guards: 'ibr-136-ae',
  },
  {
    title: 'credit note without precedingInvoiceNumber and precedingInvoiceIssueDate',
    fixture: '07-credit-note-01-cancellation',
    mutate: (b) => {
      delete b.precedingInvoiceNumber;
      delete b.precedingInvoiceIssueDate;
    },
    expect: ['preceding_invoice_required precedingInvoiceNumber', 'preceding_invoice_date_required precedingInvoiceIssueDate'],
    guards: 'ibr-055-ae',
  },
  {
    title: 'debit note without precedingInvoiceNumber',
    fixture: '13-debit-note',
    mutate: (b) => delete b.precedingInvoiceNumber,
    expect: ['preceding_invoice_required precedingInvoiceNumber'],
  },
  {
    title: 'debit note without precedingInvoiceIssueDate',
    fixture: '13-debit-note',
    mutate: (b) => delete b.precedingInvoiceIssueDate,
    expect: ['preceding_invoice_date_required precedingInvoiceIssueDate'],
  },
  {
    title: 'preceding number and deprecated reference that differ',
    fixture: '07-credit-note-01-cancellation',
    mutate: (b) => (b.precedingInvoiceReference = 'INV-OTHER'),
    expect: ['preceding_invoice_conflict precedingInvoiceReference'],
  },
  {
    title: 'credit note without creditNoteReasonCode',
    fixture: '07-credit-note-01-cancellation',
    mutate: (b) => delete b.creditNoteReasonCode,
    expect: ['credit_note_reason_required creditNoteReasonCode'],
    guards: 'ibr-158-ae',
  },
  { title: 'export without deliveryAddress', fixture: '17-export-goods-us', mutate: (b) => delete b.deliveryAddress, expect: ['delivery_address_required deliveryAddress'] },
  {
    title: 'zero-rated export goods to a UAE buyer without deliveryAddress',
    fixture: '19-export-goods-delivered-abroad-domestic-buyer',
    mutate: (b) => delete b.deliveryAddress,
    expect: ['delivery_address_required deliveryAddress'],
  },
  {
    title: 'delivery abroad without street, city and region',
    fixture: '17-export-goods-us',
    mutate: (b) => (b.deliveryAddress = { country: 'US' }),
    expect: ['delivery_address_incomplete deliveryAddress.line1', 'delivery_address_incomplete deliveryAddress.city', 'delivery_address_incomplete deliveryAddress.emirate'],
    guards: 'ibr-152-ae',
  },
  { title: 'seller without address', mutate: (b) => delete b.seller.address, expect: ['address_required seller.address'] },
  { title: 'buyer without address', mutate: (b) => delete b.buyer.address, expect: ['address_required buyer.address'] },
  { title: 'UAE seller address without emirate', mutate: (b) => delete b.seller.address.emirate, expect: ['emirate_required seller.address.emirate'], guards: 'ibr-143-ae' },
  { title: 'UAE buyer address with an unknown emirate', mutate: (b) => (b.buyer.address.emirate = 'Al Ain City'), expect: ['invalid_emirate buyer.address.emirate'] },
  { title: 'UAE delivery address with an unknown emirate', mutate: (b) => (b.deliveryAddress = { line1: 'x', city: 'y', emirate: 'Narnia' }), expect: ['invalid_emirate deliveryAddress.emirate'] },
  {
    title: 'foreign buyer address without region',
    fixture: '18-export-services-gb',
    mutate: (b) => delete b.buyer.address.emirate,
    expect: ['region_required buyer.address.emirate'],
    guards: 'ibr-144-ae',
  },
  { title: 'unknown country', fixture: '18-export-services-gb', mutate: (b) => (b.buyer.country = b.deliveryAddress.country = 'XX'), expect: ['invalid_country buyer.country', 'invalid_country deliveryAddress.country'] },
  { title: 'address country differing from the party country', mutate: (b) => (b.buyer.address.country = 'SA'), expect: ['country_mismatch buyer.address.country'] },
  { title: 'zero quantity', mutate: (b) => (b.lines[0].quantity = 0), expect: ['invalid_quantity lines[0].quantity'] },
  { title: 'negative unit price', mutate: (b) => (b.lines[0].unitPrice = -1), expect: ['negative_unit_price lines[0].unitPrice'], guards: 'ibr-027' },
  { title: 'negative discount', mutate: (b) => (b.lines[0].discountAmount = -5), expect: ['negative_amount lines[0].discountAmount'] },
  { title: 'charge in thousandths', mutate: (b) => (b.lines[0].chargeAmount = 1.005), expect: ['too_many_decimals lines[0].chargeAmount'] },
  { title: 'discount larger than the line', mutate: (b) => (b.lines[0].discountAmount = 1500.01), expect: ['discount_exceeds_line_amount lines[0].discountAmount'] },
  { title: 'unit code outside UN/ECE Rec 20', mutate: (b) => (b.lines[0].unitOfMeasureCode = 'PIECES'), expect: ['invalid_unit_code lines[0].unitOfMeasureCode'], guards: 'ibr-cl-23' },
  {
    title: 'standard-rated line on a commercial invoice',
    fixture: '04-commercial-invoice-out-of-scope',
    mutate: (b) => Object.assign(b.lines[1], { taxCategory: 'standard_5', vatRate: 0.05 }),
    expect: ['tax_category_not_allowed lines[1].taxCategory'],
    guards: 'ibr-122-ae',
  },
  {
    title: 'reverse-charge line without HS code',
    fixture: '25-reverse-charge-electronic-devices',
    mutate: (b) => delete b.lines[0].classificationCode,
    expect: ['classification_code_required lines[0].classificationCode'],
    guards: 'ibr-174-ae',
  },
  {
    title: 'designated-zone reverse charge on goods PINT-AE does not list',
    fixture: '28-reverse-charge-designated-zone',
    mutate: (b) => (b.lines[0].classificationCode = '080410'),
    expect: ['goods_type_unknown lines[0].classificationCode'],
  },
  {
    title: 'tax invoice with exempt lines only',
    mutate: (b) => Object.assign(b.lines[0], { taxCategory: 'exempt_financial', vatRate: 0 }),
    expect: ['no_taxable_line lines'],
    guards: 'ibr-151-ae',
  },
  {
    title: 'credit note for exempt supplies only (type 81) to a buyer without legal registration',
    fixture: '12-credit-note-exempt-only-type-81',
    mutate: (b) => delete b.buyer.tradeLicenseNumber,
    expect: ['legal_registration_required buyer.tradeLicenseNumber'],
    guards: 'ibr-136-ae',
  },
];

describe('preSubmitCheck', () => {
  it('passes every body of the corpus', () => {
    for (const { name, body: raw } of corpus()) {
      const { value } = validateInvoiceBody(raw);
      expect(preSubmitCheck(value!), name).to.equal(null);
    }
  });

  for (const c of CASES) {
    it(`holds: ${c.title} -> ${c.expect.join(', ')}`, () => {
      expect(codesAt(c.fixture ?? MIN, c.mutate)).to.deep.equal(c.expect);
    });
  }

  it('every error has a message saying what to send', () => {
    for (const c of CASES) {
      for (const e of held(c.fixture ?? MIN, c.mutate)!.heldErrors) {
        expect(e.message.length, `${e.code} ${e.path}`).to.be.greaterThan(20);
        expect(e.message, `${e.code} ${e.path}`).to.contain(e.path.replace(/\[\d+\].*$/, '').split('.')[0] || 'lines');
      }
    }
  });

  it('says what to send instead of a percent vatRate and of a short code', () => {
    const r = held(MIN, (b) => Object.assign(b.lines[0], { vatRate: 5, taxCategory: 'S' }))!;
    expect(r.heldErrors.find((e) => e.code === 'vat_rate_percent')!.message).to.contain('send 0.05');
    expect(r.heldErrors.find((e) => e.code === 'short_tax_code')!.message).to.contain('send standard_5');
  });

  it('accepts the deprecated precedingInvoiceReference as the preceding number', () => {
    expect(held('08-credit-note-02-correction', () => {})).to.equal(null);
  });

  it('accepts emirate codes and common names in any case', () => {
    for (const emirate of ['AUH', 'dxb', 'Dubai', 'ABU DHABI', 'Sharjah', 'ajman', 'Umm Al Quwain', 'umm al-quwain', 'Ras Al Khaimah', 'Fujairah', 'RAK', 'AE-DU']) {
      expect(held(MIN, (b) => (b.seller.address.emirate = emirate)), emirate).to.equal(null);
    }
  });

  it('heldReason is the code when all errors share it, otherwise pre_submit_validation_failed', () => {
    expect(held(MIN, (b) => (b.lines[0].vatRate = 5))!.heldReason).to.equal('vat_rate_percent');
    expect(held(MIN, (b) => (b.lines[0].vatRate = b.lines[0].quantity = 0) && undefined)!.heldReason).to.equal('pre_submit_validation_failed');
  });

  it('refuses a currency other than AED even when called without the shape check', () => {
    const b = { ...body(MIN), currency: 'USD' } as unknown as InvoiceCreateBody;
    expect(preSubmitCheck(b)!.heldErrors.map((e) => `${e.code} ${e.path}`)).to.deep.equal(['unsupported_currency currency']);
  });

  describe('the held checks guard official PINT-AE rules: rendered anyway, the official Schematron rejects the document', () => {
    let validate: Awaited<ReturnType<typeof officialValidator>>;
    before(async () => {
      validate = await officialValidator();
    });
    for (const c of CASES.filter((x) => x.guards)) {
      it(`${c.title}: ${c.guards}`, () => {
        const xml = renderInvoice(body(c.fixture ?? MIN, c.mutate), { skipChecks: true });
        const ids = validate(xml).fatal.map((f) => f.id);
        expect(ids).to.include(c.guards);
      });
    }
  });
});
