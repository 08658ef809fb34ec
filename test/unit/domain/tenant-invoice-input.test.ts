// The Tenant API invoice input (SPEC 2.2, 7.2): both payload shapes, every refusal code with its path and
// their precedence, the totals tolerance, the simplified threshold, seller defaults from the registration,
// and bodies that pass the pre-submit checks and render to XML the official PINT-AE Schematron accepts.
import { expect } from 'chai';
import { preSubmitCheck, renderInvoice } from '@einvoice/pint-ae';
import { readTenantInvoice, tenantAlternativeInputSchema, tenantInvoiceInputSchema, tenantPathOf } from '../../../src/domain/tenant-invoice-input';
import type { TenantDraft, TenantInputRefusal, TenantRegistration } from '../../../src/domain/tenant-invoice-types';
import { describeFatal, officialValidator } from '../pint-ae/render-helpers';
import { FALCON_TENANT } from '../../helpers/tenant-registration';

const TENANT: TenantRegistration = FALCON_TENANT;
const BUYER_TRN = '100987654300003';

type Body = Record<string, any>;

/** A standard-shape sale of 10 x 150 AED at 5 % to a UAE business; `change` edits it. */
function standard(change: (b: Body) => void = () => {}): Body {
  const b: Body = {
    number: 'T-2025-0001',
    issueDate: '2025-02-07',
    currency: 'AED',
    invoiceType: 'sale',
    seller: { name: 'Falcon Trading LLC', legalNameArabic: 'فالكون للتجارة ذ.م.م', trn: TENANT.trn, country: 'AE' },
    buyer: {
      name: 'Noor Electronics LLC',
      trn: BUYER_TRN,
      country: 'AE',
      email: 'ap@noor.example.ae',
      address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', state: 'Abu Dhabi', country: 'AE' },
    },
    lines: [{ description: 'Consulting, January', sellerItemId: 'CONS-1', quantity: 10, unit: 'HUR', unitPrice: 150, vatRate: 0.05, taxCategory: 'standard_5' }],
  };
  change(b);
  return b;
}

/** An alternative-shape sale: 2 x 100 AED standard and 1 x 50 AED zero-rated. */
function alternative(change: (b: Body) => void = () => {}): Body {
  const b: Body = {
    invoiceNumber: 'ALT-0001',
    issueDate: '2025-02-07',
    currency: 'AED',
    buyer: { legalName: 'Noor Electronics LLC', trn: BUYER_TRN, address: 'Khalifa Street 12, Abu Dhabi, UAE' },
    items: [
      { name: 'Cables', quantity: 2, unitPrice: 100, taxPercent: 5, tax: 'STANDARD', lineTotal: 200 },
      { name: 'Medicine', quantity: 1, unitPrice: 50, taxPercent: 0, tax: 'ZERO_RATE', lineTotal: 50 },
    ],
    totals: { netAmount: 250, taxAmount: 10, grossAmount: 260 },
  };
  change(b);
  return b;
}

function draftOf(body: unknown, tenant: TenantRegistration = TENANT): TenantDraft {
  const r = readTenantInvoice(body, tenant);
  expect(r, JSON.stringify(r)).to.have.property('draft');
  return (r as { draft: TenantDraft }).draft;
}

function refusalOf(body: unknown, tenant: TenantRegistration = TENANT): TenantInputRefusal {
  const r = readTenantInvoice(body, tenant);
  expect(r, JSON.stringify(r)).to.have.property('refusal');
  return (r as { refusal: TenantInputRefusal }).refusal;
}

/** "code path" of every finding. */
function findings(body: unknown, tenant: TenantRegistration = TENANT): string[] {
  return refusalOf(body, tenant).errors.map((e) => `${e.code} ${e.path}`);
}

/** One line whose VAT-inclusive total is `net` x 1.05 rounded (9523.80 -> 9999.99, 9523.81 -> 10000.00). */
function oneLine(net: number) {
  return [{ description: 'Office furniture', quantity: 1, unitPrice: net, vatRate: 0.05, taxCategory: 'standard_5' }];
}

describe('readTenantInvoice', () => {
  it('exports both joi schemas (for the OpenAPI description)', () => {
    expect(Object.keys(tenantInvoiceInputSchema.describe().keys)).to.include.members(['number', 'invoiceType', 'seller', 'buyer', 'lines', 'reasonCode']);
    expect(Object.keys(tenantAlternativeInputSchema.describe().keys)).to.include.members(['invoiceNumber', 'items', 'totals']);
  });

  describe('standard shape (InvoiceCreateInput)', () => {
    it('maps a sale to the internal body with computed totals', () => {
      const d = draftOf(standard((b) => (b.buyerReference = 'PO-7781')));
      expect(d).to.include({ number: 'T-2025-0001', invoiceType: 'sale', profile: 'standard', shape: 'standard' });
      expect(d.totals).to.deep.equal({ subtotal: 1500, tax: 75, total: 1575, currency: 'AED' });
      expect(d.body).to.deep.equal({
        trn: TENANT.trn,
        number: 'T-2025-0001',
        issueDate: '2025-02-07',
        invoiceType: 'sale',
        currency: 'AED',
        purchaseOrderReference: 'PO-7781',
        seller: {
          name: 'Falcon Trading LLC',
          legalNameArabic: 'فالكون للتجارة ذ.م.م',
          country: 'AE',
          address: TENANT.address,
          trn: TENANT.trn,
          tradeLicenseNumber: 'DED-778812',
        },
        buyer: {
          name: 'Noor Electronics LLC',
          country: 'AE',
          address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', emirate: 'Abu Dhabi', country: 'AE' },
          trn: BUYER_TRN,
          email: 'ap@noor.example.ae',
        },
        lines: [{ description: 'Consulting, January', quantity: 10, unitPrice: 150, vatRate: 0.05, taxCategory: 'standard_5', unitOfMeasureCode: 'HUR' }],
        documentType: 'tax_invoice',
      });
    });

    it('defaults the unit to EA, and recognises the emirate in the city when state is left out', () => {
      const d = draftOf(
        standard((b) => {
          delete b.lines[0].unit;
          b.buyer.address = { line1: 'Al Nahda Road 4', city: 'Sharjah' };
        }),
      );
      expect(d.body.lines[0].unitOfMeasureCode).to.equal('EA');
      expect(d.body.buyer.address).to.deep.equal({ line1: 'Al Nahda Road 4', city: 'Sharjah', emirate: 'SHJ' });
    });

    it('accepts C62 and the seller address sent in the body (additive)', () => {
      const d = draftOf(
        standard((b) => {
          b.lines[0].unit = 'C62';
          b.seller.address = { line1: 'Warehouse 9', city: 'Jebel Ali', state: 'DXB', postalCode: '00000' };
        }),
      );
      expect(d.body.lines[0].unitOfMeasureCode).to.equal('C62');
      expect(d.body.seller.address).to.deep.equal({ line1: 'Warehouse 9', city: 'Jebel Ali', emirate: 'DXB', postalCode: '00000' });
    });

    it('maps a credit note: positive amounts, referenced invoice and reason', () => {
      const d = draftOf(
        standard((b) => {
          b.invoiceType = 'credit_note';
          b.referencedInvoiceNumber = 'T-2025-0000';
          b.referencedInvoiceIssueDate = '2025-01-31';
          b.reasonCode = 'ReturnOfGoods';
        }),
      );
      expect(d.invoiceType).to.equal('credit_note');
      expect(d.body).to.include({ documentType: 'credit_note', precedingInvoiceNumber: 'T-2025-0000', precedingInvoiceIssueDate: '2025-01-31', creditNoteReasonCode: '04' });
      expect(d.totals.total).to.equal(1575);
      expect(preSubmitCheck(d.body)).to.equal(null);
    });

    it('maps reasonCode PriceCorrection to 03 and OtherAdjustment to 05; a debit note keeps debit_note', () => {
      const note = (type: string, reason: string) =>
        draftOf(standard((b) => Object.assign(b, { invoiceType: type, referencedInvoiceNumber: 'T-0', reasonCode: reason })));
      expect(note('credit_note', 'PriceCorrection').body.creditNoteReasonCode).to.equal('03');
      expect(note('credit_note', 'OtherAdjustment').body.creditNoteReasonCode).to.equal('05');
      const debit = note('debit_note', 'PriceCorrection');
      expect(debit.body).to.include({ documentType: 'debit_note', precedingInvoiceNumber: 'T-0' });
      expect(debit.body).not.to.have.property('creditNoteReasonCode');
    });

    it('maps a purchase to the internal purchase (tax_invoice), trn the buyer side', () => {
      const d = draftOf(standard((b) => (b.invoiceType = 'purchase')));
      expect(d.body).to.include({ invoiceType: 'purchase', documentType: 'tax_invoice', trn: BUYER_TRN });
      expect(d.profile).to.equal('standard');
    });

    it('credit notes carry positive quantities and unit prices: negative ones are invalid_body with the path', () => {
      const r = refusalOf(
        standard((b) => {
          Object.assign(b, { invoiceType: 'credit_note', referencedInvoiceNumber: 'T-0', reasonCode: 'ReturnOfGoods' });
          b.lines[0].quantity = -10;
          b.lines.push({ description: 'Refund', quantity: 1, unitPrice: -20, vatRate: 0.05, taxCategory: 'standard_5' });
        }),
      );
      expect(r.code).to.equal('invalid_body');
      expect(r.errors.map((e) => `${e.code} ${e.path}`)).to.deep.equal(['not_positive lines[0].quantity', 'negative_amount lines[1].unitPrice']);
      expect(r.errors[0].message).to.match(/positive quantities/);
    });

    it('notes become the document note (SPEC 2.2: they appear in the authority-facing XML); sellerInvoiceReference is not mapped', () => {
      const d = draftOf(standard((b) => Object.assign(b, { notes: 'Thank you', sellerInvoiceReference: 'ERP-1' })));
      expect(d.body.notes).to.equal('Thank you');
      expect(JSON.stringify(d.body)).not.to.match(/ERP-1/);
    });
  });

  describe('simplified profile (rule 3)', () => {
    const sale = (net: number, buyerTrn?: string) =>
      draftOf(
        standard((b) => {
          b.lines = oneLine(net);
          if (buyerTrn === undefined) delete b.buyer.trn;
          else b.buyer.trn = buyerTrn;
        }),
      );

    it('no buyer TRN and 9,999.99 total: simplified_tax_invoice', () => {
      const d = sale(9523.8);
      expect(d.totals.total).to.equal(9999.99);
      expect(d.body.documentType).to.equal('simplified_tax_invoice');
      expect(d.profile).to.equal('simplified');
    });

    it('an empty buyer TRN counts as none', () => {
      const d = sale(9523.8, '');
      expect(d.body.documentType).to.equal('simplified_tax_invoice');
      expect(d.body.buyer).not.to.have.property('trn');
    });

    it('no buyer TRN and 10,000.00 total: tax_invoice', () => {
      const d = sale(9523.81);
      expect(d.totals.total).to.equal(10000);
      expect(d.body.documentType).to.equal('tax_invoice');
      expect(d.profile).to.equal('standard');
    });

    it('with a buyer TRN: tax_invoice at 9,999.99 and at 10,000.00', () => {
      expect(sale(9523.8, BUYER_TRN).body.documentType).to.equal('tax_invoice');
      expect(sale(9523.81, BUYER_TRN).body.documentType).to.equal('tax_invoice');
    });

    it('a credit note without buyer TRN below the limit stays a credit_note', () => {
      const d = draftOf(
        standard((b) => {
          Object.assign(b, { invoiceType: 'credit_note', referencedInvoiceNumber: 'T-0', reasonCode: 'OtherAdjustment' });
          delete b.buyer.trn;
        }),
      );
      expect(d.body.documentType).to.equal('credit_note');
      expect(d.profile).to.equal('standard');
    });

    it('the alternative shape follows the same rule', () => {
      const d = draftOf(alternative((b) => delete b.buyer.trn));
      expect(d.body.documentType).to.equal('simplified_tax_invoice');
    });
  });

  describe('alternative shape (rule 4)', () => {
    it('maps items, tax names and the one-string address; the seller comes from the registration', () => {
      const d = draftOf(alternative());
      expect(d).to.include({ number: 'ALT-0001', invoiceType: 'sale', shape: 'alternative', profile: 'standard' });
      expect(d.totals).to.deep.equal({ subtotal: 250, tax: 10, total: 260, currency: 'AED' });
      expect(d.body).to.deep.equal({
        trn: TENANT.trn,
        number: 'ALT-0001',
        issueDate: '2025-02-07',
        invoiceType: 'sale',
        currency: 'AED',
        seller: {
          name: TENANT.legalName,
          legalNameArabic: TENANT.legalNameArabic,
          country: 'AE',
          address: TENANT.address,
          trn: TENANT.trn,
          tradeLicenseNumber: 'DED-778812',
        },
        buyer: {
          name: 'Noor Electronics LLC',
          country: 'AE',
          address: { line1: 'Khalifa Street 12, Abu Dhabi, UAE', city: 'Abu Dhabi', emirate: 'AUH' },
          trn: BUYER_TRN,
        },
        lines: [
          { description: 'Cables', quantity: 2, unitPrice: 100, vatRate: 0.05, taxCategory: 'standard_5', unitOfMeasureCode: 'EA' },
          { description: 'Medicine', quantity: 1, unitPrice: 50, vatRate: 0, taxCategory: 'zero_rated_healthcare', unitOfMeasureCode: 'EA' },
        ],
        documentType: 'tax_invoice',
      });
    });

    it('maps every tax name (case-insensitively); ZERO_RATE is an export for a buyer outside the UAE', () => {
      const cats = (country: string | undefined, names: string[]) =>
        draftOf(
          alternative((b) => {
            if (country) b.buyer.country = country;
            b.items = names.map((tax, i) => ({ name: `item ${i}`, quantity: 1, unitPrice: 10, tax }));
            delete b.totals;
          }),
        ).body.lines.map((l) => `${l.taxCategory} ${l.vatRate}`);
      expect(cats(undefined, ['STANDARD', 'ZERO_RATE', 'EXEMPT', 'REVERSE_CHARGE', 'OUT_OF_SCOPE', 'zero rate', 'Out-Of-Scope'])).to.deep.equal([
        'standard_5 0.05',
        'zero_rated_healthcare 0',
        'exempt_financial 0',
        'reverse_charge_designated_zone 0.05',
        'out_of_scope 0',
        'zero_rated_healthcare 0',
        'out_of_scope 0',
      ]);
      expect(cats('GB', ['ZERO_RATE'])).to.deep.equal(['zero_rated_export 0']);
    });

    it('derives the tax from taxPercent when no name is given (5 STANDARD, 0 ZERO_RATE)', () => {
      const d = draftOf(
        alternative((b) => {
          for (const item of b.items) delete item.tax;
        }),
      );
      expect(d.body.lines.map((l) => l.taxCategory)).to.deep.equal(['standard_5', 'zero_rated_healthcare']);
    });

    it('accepts legalNameArabic on both parties, and the seller sent in the body', () => {
      const d = draftOf(
        alternative((b) => {
          b.buyer.legalNameArabic = 'نور للإلكترونيات';
          b.seller = { trn: TENANT.trn, legalName: 'Falcon Trading (Branch)', legalNameArabic: 'فالكون فرع', address: 'Unit 3, Al Quoz 1, Dubai' };
        }),
      );
      expect(d.body.buyer.legalNameArabic).to.equal('نور للإلكترونيات');
      expect(d.body.seller).to.deep.include({
        name: 'Falcon Trading (Branch)',
        legalNameArabic: 'فالكون فرع',
        address: { line1: 'Unit 3, Al Quoz 1, Dubai', city: 'Dubai', emirate: 'DXB' },
      });
    });

    it('an address without a recognisable emirate keeps its last part as the city', () => {
      const d = draftOf(alternative((b) => (b.buyer.address = 'Building 7, Industrial Area 2, Al Ain City')));
      expect(d.body.buyer.address).to.deep.equal({ line1: 'Building 7, Industrial Area 2, Al Ain City', city: 'Al Ain City' });
    });

    describe('totals tolerance (0.01 AED)', () => {
      for (const [field, exact] of [
        ['grossAmount', 260],
        ['netAmount', 250],
        ['taxAmount', 10],
      ] as const) {
        it(`totals.${field}: 0.01 off is accepted, 0.02 off is totals_mismatch`, () => {
          draftOf(alternative((b) => (b.totals[field] = exact + 0.01)));
          draftOf(alternative((b) => (b.totals[field] = exact - 0.01)));
          const r = refusalOf(alternative((b) => (b.totals[field] = exact + 0.02)));
          expect(r.code).to.equal('totals_mismatch');
          expect(r.errors).to.have.length(1);
          expect(r.errors[0]).to.include({ code: 'totals_mismatch', path: `totals.${field}` });
          expect(r.errors[0].message).to.contain(String(exact + 0.02)).and.to.contain(`${exact}.00`);
        });
      }

      it('items[].lineTotal: 0.01 off is accepted, 0.02 off is totals_mismatch', () => {
        draftOf(alternative((b) => (b.items[1].lineTotal = 50.01)));
        const r = refusalOf(alternative((b) => (b.items[1].lineTotal = 49.98)));
        expect(r).to.deep.include({ code: 'totals_mismatch' });
        expect(r.errors.map((e) => e.path)).to.deep.equal(['items[1].lineTotal']);
        expect(r.errors[0].message).to.contain('49.98').and.to.contain('50.00');
      });

      it('totals may be left out', () => {
        draftOf(
          alternative((b) => {
            delete b.totals;
            for (const item of b.items) delete item.lineTotal;
          }),
        );
      });
    });
  });

  describe('seller defaults (rule 5)', () => {
    it('standard shape: name, Arabic name, TRN, address and trade licence come from the registration', () => {
      const d = draftOf(standard((b) => (b.seller = {})));
      expect(d.body.trn).to.equal(TENANT.trn);
      expect(d.body.seller).to.deep.equal({
        name: TENANT.legalName,
        legalNameArabic: TENANT.legalNameArabic,
        country: 'AE',
        address: TENANT.address,
        trn: TENANT.trn,
        tradeLicenseNumber: 'DED-778812',
      });
    });

    it('values sent in the body win over the registration', () => {
      const d = draftOf(standard((b) => (b.seller = { name: 'Falcon FZE', legalNameArabic: 'فالكون م.م.ح', tradeLicenseNumber: 'JAFZA-1' })));
      expect(d.body.seller).to.include({ name: 'Falcon FZE', legalNameArabic: 'فالكون م.م.ح', tradeLicenseNumber: 'JAFZA-1', trn: TENANT.trn });
    });

    it('a registration without address or trade licence leaves them out (pre-submit holds later)', () => {
      const d = draftOf(standard((b) => (b.seller = {})), { trn: TENANT.trn, legalName: 'Falcon', legalNameArabic: 'فالكون', address: null });
      expect(d.body.seller).to.deep.equal({ name: 'Falcon', legalNameArabic: 'فالكون', country: 'AE', trn: TENANT.trn });
    });
  });

  describe('refusals (SPEC 7.2)', () => {
    it('invalid_body: bad TRN (seller and buyer)', () => {
      expect(findings(standard((b) => (b.seller.trn = '10012345670000')))).to.deep.equal(['invalid_format seller.trn']);
      expect(findings(standard((b) => (b.buyer.trn = '1009876543ABC03')))).to.deep.equal(['invalid_format buyer.trn']);
      expect(findings(alternative((b) => (b.buyer.trn = '123')))).to.deep.equal(['invalid_format buyer.trn']);
      expect(refusalOf(standard((b) => (b.seller.trn = '1'))).code).to.equal('invalid_body');
    });

    it('invalid_body: buyer equals seller (also when the seller TRN is the registered default)', () => {
      expect(findings(standard((b) => (b.buyer.trn = TENANT.trn)))).to.deep.equal(['buyer_equals_seller buyer.trn']);
      expect(findings(standard((b) => ((b.seller = {}), (b.buyer.trn = TENANT.trn))))).to.deep.equal(['buyer_equals_seller buyer.trn']);
      expect(findings(alternative((b) => (b.buyer.trn = TENANT.trn)))).to.deep.equal(['buyer_equals_seller buyer.trn']);
    });

    it('invalid_body: a line without taxCategory (missing VAT code), or with an unknown one', () => {
      const r = refusalOf(standard((b) => delete b.lines[0].taxCategory));
      expect(r.code).to.equal('invalid_body');
      expect(r.errors.map((e) => `${e.code} ${e.path}`)).to.deep.equal(['required lines[0].taxCategory']);
      expect(findings(standard((b) => (b.lines[0].taxCategory = 'S')))).to.deep.equal(['invalid_enum lines[0].taxCategory']);
    });

    it('invalid_body: an item without tax and taxPercent, or whose percent contradicts its tax name', () => {
      expect(findings(alternative((b) => (delete b.items[0].tax, delete b.items[0].taxPercent)))).to.deep.equal(['required items[0].tax']);
      expect(findings(alternative((b) => (b.items[0].taxPercent = 0)))).to.deep.equal(['tax_percent_mismatch items[0].taxPercent']);
    });

    it('invalid_body: missing required fields, with their paths', () => {
      const r = refusalOf(standard((b) => (delete b.number, delete b.issueDate, delete b.buyer.name, delete b.lines[0].quantity)));
      expect(r.code).to.equal('invalid_body');
      expect(r.errors.map((e) => `${e.code} ${e.path}`)).to.have.members(['required number', 'required issueDate', 'required buyer.name', 'required lines[0].quantity']);
      expect(findings(standard((b) => (b.lines = [])))).to.deep.equal(['too_short lines']);
      expect(findings(alternative((b) => delete b.invoiceNumber))).to.deep.equal(['required invoiceNumber']);
      expect(findings(alternative((b) => delete b.buyer.legalName))).to.deep.equal(['required buyer.legalName']);
    });

    it('invalid_body: credit and debit notes need referencedInvoiceNumber and a known reasonCode', () => {
      expect(findings(standard((b) => (b.invoiceType = 'credit_note')))).to.have.members(['required referencedInvoiceNumber', 'required reasonCode']);
      expect(findings(standard((b) => (b.invoiceType = 'debit_note')))).to.have.members(['required referencedInvoiceNumber', 'required reasonCode']);
      expect(findings(standard((b) => Object.assign(b, { invoiceType: 'credit_note', referencedInvoiceNumber: 'T-0', reasonCode: 'Goodwill' })))).to.deep.equal([
        'invalid_enum reasonCode',
      ]);
    });

    it('invalid_body: field values (currency, invoiceType, dates, unit, vatRate as a percent, length of number)', () => {
      expect(findings(standard((b) => (b.currency = 'USD')))).to.deep.equal(['invalid_enum currency']);
      expect(findings(standard((b) => (b.invoiceType = 'proforma')))).to.deep.equal(['invalid_enum invoiceType']);
      expect(findings(standard((b) => (b.issueDate = '2025-02-30')))).to.deep.equal(['invalid_format issueDate']);
      expect(findings(standard((b) => (b.lines[0].unit = 'PIECES')))).to.deep.equal(['invalid_unit_code lines[0].unit']);
      expect(findings(standard((b) => (b.lines[0].vatRate = 5)))).to.deep.equal(['vat_rate_percent lines[0].vatRate']);
      expect(findings(standard((b) => (b.number = 'N'.repeat(65))))).to.deep.equal(['too_long number']);
      expect(findings(standard((b) => (b.buyer.country = 'ARE')))).to.deep.equal(['invalid_length buyer.country']);
    });

    it('invalid_body: unknown fields (a ledger on the standard shape among them)', () => {
      expect(findings(standard((b) => (b.lines[0].colour = 'red')))).to.deep.equal(['unknown_field lines[0].colour']);
      expect(findings(standard((b) => (b.seller.legalName = 'x')))).to.deep.equal(['unknown_field seller.legalName']);
      expect(findings(standard((b) => (b.lines[0].taxLedger = 'SR')))).to.deep.equal(['unknown_field lines[0].taxLedger']);
      expect(findings(alternative((b) => (b.number = 'x')))).to.deep.equal(['unknown_field number']);
    });

    it('invalid_body: a body that is not an object, or parts of the wrong type', () => {
      for (const body of [null, 'x', [], 3]) expect(findings(body)).to.deep.equal(['invalid_type ']);
      expect(findings(standard((b) => (b.seller = 'Falcon')))).to.deep.equal(['invalid_type seller']);
      expect(findings(standard((b) => (b.lines = [1])))).to.deep.equal(['invalid_type lines[0]']);
      expect(findings(alternative((b) => (b.items[0].tax = 5)))).to.deep.equal(['invalid_type items[0].tax']);
      expect(findings(alternative((b) => (b.items = 'all')))).to.deep.equal(['invalid_type items']);
    });

    it('unknown_tax: an unmapped tax name or taxPercent, with the item path', () => {
      const r = refusalOf(
        alternative((b) => {
          b.items.push({ name: 'Fuel', quantity: 1, unitPrice: 10, tax: 'EXCISE' });
          b.items.push({ name: 'Other', quantity: 1, unitPrice: 10, taxPercent: 7 });
        }),
      );
      expect(r.code).to.equal('unknown_tax');
      expect(r.errors.map((e) => `${e.code} ${e.path}`)).to.deep.equal(['unknown_tax items[2].tax', 'unknown_tax items[3].taxPercent']);
      expect(r.errors[0].message).to.contain('EXCISE').and.to.contain('STANDARD');
    });

    it('arabic_seller_name_required: empty string sent (overrides the registration), or none sent nor registered', () => {
      const empty = refusalOf(standard((b) => (b.seller.legalNameArabic = '')));
      expect(empty).to.deep.include({ code: 'arabic_seller_name_required' });
      expect(empty.errors.map((e) => `${e.code} ${e.path}`)).to.deep.equal(['arabic_seller_name_required seller.legalNameArabic']);
      expect(findings(standard((b) => (b.seller.legalNameArabic = '   ')))).to.deep.equal(['arabic_seller_name_required seller.legalNameArabic']);
      const unregistered = { ...TENANT, legalNameArabic: '' };
      expect(findings(standard((b) => delete b.seller.legalNameArabic), unregistered)).to.deep.equal(['arabic_seller_name_required seller.legalNameArabic']);
      expect(findings(alternative(), unregistered)).to.deep.equal(['arabic_seller_name_required seller.legalNameArabic']);
      expect(findings(alternative((b) => (b.seller = { legalNameArabic: '' })))).to.deep.equal(['arabic_seller_name_required seller.legalNameArabic']);
      // Sent in the body: the registration does not matter.
      draftOf(standard(), unregistered);
    });

    it('totals_mismatch on the standard shape: client totals are tolerated only when they agree (0.01 AED)', () => {
      draftOf(standard((b) => Object.assign(b, { subtotal: 1500, vatAmount: 75.01, total: 1575 })));
      draftOf(standard((b) => (b.totals = { subtotal: 1500, tax: 75, total: 1575, currency: 'AED' })));
      const r = refusalOf(standard((b) => Object.assign(b, { vat_amount: 75, total: 1500 })));
      expect(r.code).to.equal('totals_mismatch');
      expect(r.errors).to.have.length(1);
      expect(r.errors[0]).to.include({ code: 'totals_mismatch', path: 'total' });
      expect(r.errors[0].message).to.contain('1500').and.to.contain('1575.00');
      expect(findings(standard((b) => (b.totals = { vatAmount: 75.02 })))).to.deep.equal(['totals_mismatch totals.vatAmount']);
    });

    it('reports every finding at once', () => {
      const r = refusalOf(
        standard((b) => {
          b.seller.trn = 'x';
          b.buyer.email = 'not-an-email';
          b.lines[0].quantity = 0;
          delete b.lines[0].taxCategory;
          b.extra = true;
        }),
      );
      expect(r.errors.map((e) => `${e.code} ${e.path}`)).to.have.members([
        'invalid_format seller.trn',
        'invalid_format buyer.email',
        'not_positive lines[0].quantity',
        'required lines[0].taxCategory',
        'unknown_field extra',
      ]);
    });

    it('unknown_tax_ledger: an ERP tax ledger code we do not map; known codes map to tax names', () => {
      const r = refusalOf(alternative((b) => (b.items[0] = { name: 'Cables', quantity: 2, unitPrice: 100, taxLedger: 'LUX-VAT', lineTotal: 200 })));
      expect(r.code).to.equal('unknown_tax_ledger');
      expect(r.errors[0]).to.include({ code: 'unknown_tax_ledger', path: 'items[0].taxLedger' });
      const d = draftOf(alternative((b) => {
        b.items[0] = { name: 'Cables', quantity: 2, unitPrice: 100, taxLedger: 'Output VAT 5%', lineTotal: 200 };
        b.items[1] = { name: 'Medicine', quantity: 1, unitPrice: 50, taxLedger: 'ZR', lineTotal: 50 };
      }));
      expect(d.body.lines.map((l) => l.taxCategory)).to.deep.equal(['standard_5', 'zero_rated_healthcare']);
      const clash = refusalOf(alternative((b) => (b.items[0] = { name: 'Cables', quantity: 2, unitPrice: 100, tax: 'EXEMPT', taxLedger: 'SR' })));
      expect(clash.errors[0]).to.include({ code: 'tax_ledger_mismatch', path: 'items[0].taxLedger' });
    });

    describe('precedence: invalid_body, unknown_tax, arabic_seller_name_required, totals_mismatch', () => {
      it('invalid_body wins over unknown_tax and the Arabic name, which are still listed', () => {
        const r = refusalOf(
          alternative((b) => {
            b.seller = { legalNameArabic: '' };
            b.items[0].tax = 'EXCISE';
            b.items[1].quantity = -1;
          }),
        );
        expect(r.code).to.equal('invalid_body');
        expect(r.errors.map((e) => `${e.code} ${e.path}`)).to.deep.equal([
          'not_positive items[1].quantity',
          'unknown_tax items[0].tax',
          'arabic_seller_name_required seller.legalNameArabic',
        ]);
      });

      it('unknown_tax wins over the Arabic name', () => {
        const r = refusalOf(alternative((b) => ((b.seller = { legalNameArabic: '' }), (b.items[0].tax = 'EXCISE'))));
        expect(r.code).to.equal('unknown_tax');
        expect(r.errors.map((e) => e.code)).to.deep.equal(['unknown_tax', 'arabic_seller_name_required']);
      });

      it('the Arabic name wins over totals_mismatch', () => {
        const r = refusalOf(alternative((b) => ((b.seller = { legalNameArabic: '' }), (b.totals.grossAmount = 999))));
        expect(r.code).to.equal('arabic_seller_name_required');
        expect(r.errors.map((e) => `${e.code} ${e.path}`)).to.deep.equal(['arabic_seller_name_required seller.legalNameArabic', 'totals_mismatch totals.grossAmount']);
      });
    });
  });

  describe('pre-submit checks and the official PINT-AE Schematron', () => {
    let validate: Awaited<ReturnType<typeof officialValidator>>;
    before(async () => {
      validate = await officialValidator();
    });

    function passes(d: TenantDraft): void {
      expect(preSubmitCheck(d.body), 'pre-submit').to.equal(null);
      const xml = renderInvoice(d.body, { documentUuid: '6f1c2a5e-3b7d-4c2a-9e1f-0a8b7c6d5e4f' });
      const report = validate(xml);
      expect(report.fatal, describeFatal(report)).to.deep.equal([]);
    }

    it('a standard sale (buyer TRN, buyer reference)', () => {
      passes(draftOf(standard((b) => (b.buyerReference = 'PO-7781'))));
    });

    it('a simplified invoice: 9,999.99 AED, no buyer TRN (buyer identified by trade licence)', () => {
      const d = draftOf(
        standard((b) => {
          b.lines = oneLine(9523.8);
          delete b.buyer.trn;
          b.buyer.tradeLicenseNumber = 'AUH-CN-12345';
        }),
      );
      expect(d.body.documentType).to.equal('simplified_tax_invoice');
      passes(d);
    });

    it('a tax invoice at exactly 10,000.00 AED without buyer TRN', () => {
      const d = draftOf(
        standard((b) => {
          b.lines = oneLine(9523.81);
          delete b.buyer.trn;
          b.buyer.tradeLicenseNumber = 'AUH-CN-12345';
        }),
      );
      expect(d.body.documentType).to.equal('tax_invoice');
      passes(d);
    });

    it('an alternative-shape sale with a domestic zero-rated item', () => {
      passes(draftOf(alternative()));
    });

    it('a credit note (ReturnOfGoods) with the referenced invoice and its date', () => {
      passes(
        draftOf(
          standard((b) => Object.assign(b, { invoiceType: 'credit_note', referencedInvoiceNumber: 'T-2025-0000', referencedInvoiceIssueDate: '2025-01-31', reasonCode: 'ReturnOfGoods' })),
        ),
      );
    });
  });

  it('pre-submit paths (internal body) are given back as the paths of the body the tenant sent', () => {
    expect(tenantPathOf('lines[2].unitOfMeasureCode', 'standard')).to.equal('lines[2].unit');
    expect(tenantPathOf('buyer.address.emirate', 'standard')).to.equal('buyer.address.state');
    expect(tenantPathOf('precedingInvoiceIssueDate', 'standard')).to.equal('referencedInvoiceIssueDate');
    expect(tenantPathOf('buyer.trn', 'standard')).to.equal('buyer.trn');
    expect(tenantPathOf('lines[1].description', 'alternative')).to.equal('items[1].name');
    expect(tenantPathOf('lines[1].taxCategory', 'alternative')).to.equal('items[1].tax');
    expect(tenantPathOf('lines[0].quantity', 'alternative')).to.equal('items[0].quantity');
    expect(tenantPathOf('buyer.address.emirate', 'alternative')).to.equal('buyer.address');
    expect(tenantPathOf('seller.name', 'alternative')).to.equal('seller.legalName');
  });
});
