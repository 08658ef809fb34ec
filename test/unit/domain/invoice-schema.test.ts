import { expect } from 'chai';
import { validateInvoiceBody } from '../../../src/domain/invoice-schema';
import { jsonPath, isIsoDate } from '../../../src/domain/schema-helpers';
import { fixture } from '../pint-ae/render-helpers';

const minimal = () => fixture('01-tax-invoice-minimal');

function errorsOf(body: unknown, opts?: { bulkItem?: boolean }) {
  return validateInvoiceBody(body, opts).errors.map((e) => `${e.code} ${e.path}`);
}

describe('validateInvoiceBody (joi shape, HTTP 400)', () => {
  it('accepts the minimum viable body and applies the documented defaults', () => {
    const body = {
      trn: '100123456700003',
      number: 'INV-1',
      issueDate: '2025-02-07',
      currency: 'AED',
      seller: { name: 'S', country: 'AE', address: { line1: 'Street 1', city: 'Dubai' } },
      buyer: { name: 'B', country: 'AE', address: { line1: 'Street 2', city: 'Abu Dhabi' } },
      lines: [{ description: 'Item', quantity: 1, unitPrice: 10, vatRate: 0.05 }],
    };
    const { value, errors } = validateInvoiceBody(body);
    expect(errors).to.deep.equal([]);
    expect(value).to.include({ invoiceType: 'sale', documentType: 'tax_invoice' });
    expect(value!.seller.legalRegistrationType).to.equal('TIN');
    expect(value!.lines[0]).to.include({ taxCategory: 'standard_5', unitOfMeasureCode: 'EA', classificationCodeScheme: 'HS' });
  });

  it('reports a missing seller at `seller` and a missing buyer at `buyer`', () => {
    const body = minimal();
    delete body.seller;
    delete body.buyer;
    const errors = validateInvoiceBody(body).errors;
    expect(errors.map((e) => `${e.code} ${e.path}`)).to.deep.equal(['required seller', 'required buyer']);
    expect(errors[0].message).to.match(/seller is required: send an InvoiceParty/);
  });

  it('reports unknown fields with their full path, at every level', () => {
    const body = minimal();
    body.colour = 'blue';
    body.seller.address.street = 'x';
    body.lines[0].vat = 5;
    expect(errorsOf(body)).to.have.members(['unknown_field colour', 'unknown_field seller.address.street', 'unknown_field lines[0].vat']);
  });

  it('accepts externalRef only on bulk items', () => {
    const body = { ...minimal(), externalRef: 'ERP-42' };
    expect(errorsOf(body)).to.deep.equal(['unknown_field externalRef']);
    expect(errorsOf(body, { bulkItem: true })).to.deep.equal([]);
    expect(errorsOf({ ...body, externalRef: 'x'.repeat(129) }, { bulkItem: true })).to.deep.equal(['too_long externalRef']);
  });

  it('reports every missing required field of the body, parties and lines at once', () => {
    const errors = errorsOf({ seller: { address: {} }, buyer: {}, lines: [{}] });
    expect(errors).to.include.members([
      'required trn',
      'required number',
      'required issueDate',
      'required currency',
      'required seller.name',
      'required seller.address.line1',
      'required seller.address.city',
      'required buyer.name',
      'required lines[0].description',
      'required lines[0].quantity',
      'required lines[0].unitPrice',
      'required lines[0].vatRate',
    ]);
  });

  it('refuses an empty lines array and a non-object body', () => {
    expect(errorsOf({ ...minimal(), lines: [] })).to.deep.equal(['too_short lines']);
    expect(errorsOf('hello')).to.deep.equal(['invalid_type ']);
    expect(errorsOf([])).to.deep.equal(['invalid_type ']);
    expect(errorsOf(null)).to.deep.equal(['invalid_type ']);
  });

  it('checks enums: documentType, invoiceType, currency, taxCategory, paymentMeansCode, creditNoteReasonCode, itemType, legalRegistrationType', () => {
    const body = minimal();
    body.documentType = 'invoice';
    body.invoiceType = 'sell';
    body.currency = 'USD';
    body.paymentMeansCode = '31';
    body.creditNoteReasonCode = '06';
    body.seller.legalRegistrationType = 'EID';
    body.lines[0].taxCategory = 'standard';
    body.lines[0].itemType = 'goodies';
    body.lines[0].classificationCodeScheme = 'CN';
    const errors = validateInvoiceBody(body).errors;
    expect(errors.map((e) => `${e.code} ${e.path}`)).to.have.members([
      'invalid_enum documentType',
      'invalid_enum invoiceType',
      'invalid_enum currency',
      'invalid_enum paymentMeansCode',
      'invalid_enum creditNoteReasonCode',
      'invalid_enum seller.legalRegistrationType',
      'invalid_enum lines[0].taxCategory',
      'invalid_enum lines[0].itemType',
      'invalid_enum lines[0].classificationCodeScheme',
    ]);
    const cat = errors.find((e) => e.path === 'lines[0].taxCategory')!;
    expect(cat.message).to.contain('standard_5').and.not.to.match(/\bS, Z\b/);
    expect(errors.find((e) => e.path === 'currency')!.message).to.equal('currency must be one of: AED');
  });

  it('lets the short tax codes through the shape check (pre-submit holds them with the exact path)', () => {
    const body = minimal();
    body.lines[0].taxCategory = 'S';
    expect(errorsOf(body)).to.deep.equal([]);
  });

  it('accepts paymentMeansCode as a string or a number and normalizes it to the string', () => {
    const body = { ...minimal(), paymentMeansCode: 30, paymentAccountIdentifier: 'AE070331234567890123456' };
    expect(validateInvoiceBody(body).value!.paymentMeansCode).to.equal('30');
    expect(validateInvoiceBody({ ...body, paymentMeansCode: '58' }).value!.paymentMeansCode).to.equal('58');
    expect(errorsOf({ ...body, paymentMeansCode: true })).to.deep.equal(['invalid_type paymentMeansCode']);
  });

  it('checks lengths from SPEC 2.1 (name 300, line 200, city 100, emirate 50, postal code 20, phone 30, country 2)', () => {
    const body = minimal();
    body.seller.name = 'n'.repeat(301);
    body.seller.address.line1 = 'l'.repeat(201);
    body.seller.address.line2 = 'l'.repeat(201);
    body.seller.address.city = 'c'.repeat(101);
    body.seller.address.emirate = 'e'.repeat(51);
    body.seller.address.postalCode = 'p'.repeat(21);
    body.seller.phone = '1'.repeat(31);
    body.buyer.country = 'ARE';
    expect(errorsOf(body)).to.have.members([
      'too_long seller.name',
      'too_long seller.address.line1',
      'too_long seller.address.line2',
      'too_long seller.address.city',
      'too_long seller.address.emirate',
      'too_long seller.address.postalCode',
      'too_long seller.phone',
      'invalid_length buyer.country',
    ]);
    const ok = minimal();
    ok.seller.name = 'n'.repeat(300);
    expect(errorsOf(ok)).to.deep.equal([]);
  });

  it('checks formats: TRN 15 digits, YYYY-MM-DD dates, e-mail, country letters', () => {
    const body = minimal();
    body.trn = '10012345670000';
    body.buyer.trn = '1009876543000O3';
    body.issueDate = '07/02/2025';
    body.dueDate = '2025-02-30';
    body.seller.email = 'not-an-email';
    body.seller.country = '12';
    const errors = validateInvoiceBody(body).errors;
    expect(errors.map((e) => `${e.code} ${e.path}`)).to.have.members([
      'invalid_format trn',
      'invalid_format buyer.trn',
      'invalid_format issueDate',
      'invalid_format dueDate',
      'invalid_format seller.email',
      'invalid_format seller.country',
    ]);
    expect(errors.find((e) => e.path === 'issueDate')!.message).to.contain('YYYY-MM-DD');
    expect(errors.find((e) => e.path === 'trn')!.message).to.contain('15-digit');
  });

  it('checks types of numbers and strings', () => {
    const body = minimal();
    body.lines[0].quantity = 'ten';
    body.lines[0].vatRate = null;
    body.number = 42;
    body.seller = 'Falcon';
    expect(errorsOf(body)).to.have.members([
      'invalid_type lines[0].quantity',
      'invalid_type lines[0].vatRate',
      'invalid_type number',
      'invalid_type seller',
    ]);
  });

  it('refuses empty strings, accepts null e-mail and phone, trims and upper-cases country codes', () => {
    const body = minimal();
    body.number = '  ';
    expect(errorsOf(body)).to.deep.equal(['empty number']);
    const ok = minimal();
    ok.seller.email = null;
    ok.seller.phone = null;
    ok.buyer.country = ' ae ';
    ok.dueDate = null;
    const { value, errors } = validateInvoiceBody(ok);
    expect(errors).to.deep.equal([]);
    expect(value!.buyer.country).to.equal('AE');
  });

  it('accepts the deprecated precedingInvoiceReference', () => {
    const body = { ...minimal(), documentType: 'credit_note', precedingInvoiceReference: 'INV-1', precedingInvoiceIssueDate: '2025-01-01', creditNoteReasonCode: '01' };
    expect(errorsOf(body)).to.deep.equal([]);
  });

  it('accepts every fixture body', () => {
    for (const name of ['02-tax-invoice-discount-charge-iban', '17-export-goods-us', '31-pas-seller', '34-every-tax-category']) {
      expect(errorsOf(fixture(name)), name).to.deep.equal([]);
    }
  });

  it('jsonPath and isIsoDate', () => {
    expect(jsonPath(['lines', 0, 'vatRate'])).to.equal('lines[0].vatRate');
    expect(jsonPath(['seller', 'address', 'city'])).to.equal('seller.address.city');
    expect(isIsoDate('2024-02-29')).to.equal(true);
    expect(isIsoDate('2025-02-29')).to.equal(false);
    expect(isIsoDate('2025-13-01')).to.equal(false);
    expect(isIsoDate('2025-02-07T10:00:00Z')).to.equal(false);
  });
});
