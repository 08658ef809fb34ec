// Issue 35, Tenant API cases 1-6, the pure part: what readTenantInvoice makes of the bodies SPEC 2.2 allows, and
// that each renders to a document the official PINT-AE Schematron accepts (the HTTP side is in
// test/api/spec-edges-tenant.test.ts).
import { expect } from 'chai';
import { preSubmitCheck, renderInvoice } from '@einvoice/pint-ae';
import { readTenantInvoice } from '../../../src/domain/tenant-invoice-input';
import type { ReferencedOriginal, TenantDraft, TenantRegistration } from '../../../src/domain/tenant-invoice-types';
import {
  DEFAULT_CSV_REASON_CODE,
  readTenantCsvHeader,
  TENANT_CSV_COLUMNS,
  TENANT_CSV_COLUMNS_ARABIC,
  TENANT_CSV_COLUMNS_ARABIC_WITH_REASON,
  TENANT_CSV_COLUMNS_WITH_REASON,
} from '../../../src/domain/tenant-csv';
import { creditCapFinding, customerReference, reverseChargeFindings } from '../../../src/domain/tenant-rule-checks';
import { describeFatal, officialValidator } from '../pint-ae/render-helpers';
import { FALCON_TENANT } from '../../helpers/tenant-registration';

const TENANT: TenantRegistration = FALCON_TENANT;

type Body = Record<string, any>;

function standard(change: (b: Body) => void = () => {}): Body {
  const b: Body = {
    number: 'T-1',
    issueDate: '2025-02-07',
    currency: 'AED',
    invoiceType: 'sale',
    seller: { name: 'Falcon Trading LLC', trn: TENANT.trn, country: 'AE' },
    buyer: { name: 'Noor Electronics LLC', trn: '100987654300003', country: 'AE', address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', state: 'Abu Dhabi' } },
    lines: [{ description: 'Consulting', quantity: 10, unit: 'HUR', unitPrice: 150, vatRate: 0.05, taxCategory: 'standard_5' }],
  };
  change(b);
  return b;
}

function draftOf(body: Body, originals: Map<string, ReferencedOriginal> = new Map()): TenantDraft {
  const r = readTenantInvoice(body, TENANT, originals);
  if ('refusal' in r) throw new Error(JSON.stringify(r.refusal));
  return r.draft;
}

/** The draft passes pre-submit and our own checks, and the official Schematron accepts its XML. */
async function officialXml(d: TenantDraft): Promise<string> {
  expect(preSubmitCheck(d.body), 'pre-submit').to.equal(null);
  expect(reverseChargeFindings(d.body, d.shape)).to.deep.equal([]);
  const xml = renderInvoice(d.body);
  const report = (await officialValidator())(xml);
  expect(report.fatal, describeFatal(report)).to.deep.equal([]);
  return xml;
}

describe('Tenant API spec edges (issue 35, cases 1-6): mapping and the official Schematron', function () {
  this.timeout(60_000);

  it('1. a credit note with only referencedInvoiceNumber and reasonCode takes the original\'s issue date; the override wins', async () => {
    const originals = new Map([['INV-9', { issueDate: '2025-01-20', grossFils: 157_500n, creditedFils: 0n }]]);
    const note = (extra: Body = {}) => standard((b) => Object.assign(b, { number: 'CN-1', invoiceType: 'credit_note', referencedInvoiceNumber: 'INV-9', reasonCode: 'ReturnOfGoods', ...extra }));
    const d = draftOf(note(), originals);
    expect(d.body).to.include({ documentType: 'credit_note', precedingInvoiceNumber: 'INV-9', precedingInvoiceIssueDate: '2025-01-20', creditNoteReasonCode: '04' });
    expect(await officialXml(d)).to.contain('<cbc:IssueDate>2025-01-20</cbc:IssueDate>');
    expect(draftOf(note({ referencedInvoiceIssueDate: '2025-01-19' }), originals).body.precedingInvoiceIssueDate).to.equal('2025-01-19');
    // Unknown original: no date (the service refuses it naming referencedInvoiceNumber).
    expect(draftOf(note()).body.precedingInvoiceIssueDate).to.equal(undefined);
  });

  it('1. a credit note may not credit more than is left on the original', () => {
    const d = draftOf(standard((b) => Object.assign(b, { number: 'CN-2', invoiceType: 'credit_note', referencedInvoiceNumber: 'INV-9', reasonCode: 'PriceCorrection' })), new Map([['INV-9', { issueDate: '2025-01-20', grossFils: 157_500n, creditedFils: 0n }]]));
    expect(creditCapFinding(d, { issueDate: '2025-01-20', grossFils: 157_500n, creditedFils: 0n })).to.equal(null);
    const over = creditCapFinding(d, { issueDate: '2025-01-20', grossFils: 157_500n, creditedFils: 100n });
    expect(over).to.include({ code: 'credit_exceeds_original', path: 'lines' });
    expect(over!.message).to.contain('1574.00 AED');
  });

  it('2. CSV headers: the optional reasonCode column right after referencedInvoiceNumber, in both variants; the old headers still read', () => {
    expect(TENANT_CSV_COLUMNS_WITH_REASON.slice(TENANT_CSV_COLUMNS_WITH_REASON.indexOf('referencedInvoiceNumber'))).to.deep.equal(['referencedInvoiceNumber', 'reasonCode', 'notes']);
    expect(readTenantCsvHeader([...TENANT_CSV_COLUMNS])).to.deep.include({ variant: 'plain', reasonColumn: false });
    expect(readTenantCsvHeader([...TENANT_CSV_COLUMNS_ARABIC])).to.deep.include({ variant: 'arabic', reasonColumn: false });
    expect(readTenantCsvHeader([...TENANT_CSV_COLUMNS_WITH_REASON])).to.deep.include({ variant: 'plain', reasonColumn: true });
    expect(readTenantCsvHeader([...TENANT_CSV_COLUMNS_ARABIC_WITH_REASON])).to.deep.include({ variant: 'arabic', reasonColumn: true });
    // The reason column elsewhere: the message gives the order.
    const misplaced = [...TENANT_CSV_COLUMNS.filter((c) => c !== 'notes'), 'notes', 'reasonCode'];
    const err = readTenantCsvHeader(misplaced);
    expect(err).to.include({ code: 'invalid_header' });
    expect((err as { message: string }).message).to.contain('out of order').and.contain('reasonCode column right after referencedInvoiceNumber');
    expect(DEFAULT_CSV_REASON_CODE).to.equal('OtherAdjustment');
  });

  it('3. notes are the document note, after the title (one cbc:Note: ibr-sr-51)', async () => {
    const xml = await officialXml(draftOf(standard((b) => (b.notes = 'Goods remain ours until paid & "settled" <in full>'))));
    expect(xml).to.contain('<cbc:Note>Tax invoice: Goods remain ours until paid &amp; "settled" &lt;in full&gt;</cbc:Note>');
    expect(xml.match(/<cbc:Note>/g)).to.have.length(1);
  });

  it('4. reverse charge: goodsType and hsCode on the line (standard shape and REVERSE_CHARGE items)', async () => {
    const d = draftOf(standard((b) => (b.lines = [{ description: 'Phones', quantity: 2, unitPrice: 1000, vatRate: 0.05, taxCategory: 'reverse_charge_designated_zone', goodsType: 'DL8.48.8.2', hsCode: '8517.13' }])));
    const xml = await officialXml(d);
    expect(xml).to.contain('<cbc:NatureCode>DL8.48.8.2</cbc:NatureCode>');
    expect(xml).to.contain('<cbc:ID schemeID="0160">8517.13</cbc:ID>');
    // goodsType given explicitly wins over an HS heading that does not name one.
    const gas = draftOf(standard((b) => (b.lines = [{ description: 'LNG', quantity: 1, unitPrice: 500, vatRate: 0.05, taxCategory: 'reverse_charge_designated_zone', goodsType: 'DL8.48.3.2', hsCode: '2711.11' }])));
    expect(await officialXml(gas)).to.contain('<cbc:NatureCode>DL8.48.3.2</cbc:NatureCode>');
    const alt = readTenantInvoice(
      { invoiceNumber: 'A-1', issueDate: '2025-02-07', currency: 'AED', buyer: { legalName: 'Noor', trn: '100987654300003', address: 'Khalifa Street 12, Abu Dhabi' }, items: [{ name: 'Gold bar', quantity: 1, unitPrice: 100, tax: 'REVERSE_CHARGE', hsCode: '7108.12' }] },
      TENANT,
    );
    if ('refusal' in alt) throw new Error(JSON.stringify(alt.refusal));
    expect(await officialXml(alt.draft)).to.contain('<cbc:NatureCode>DL8.48.8.1</cbc:NatureCode>');
  });

  it('4. a reverse-charge line without them: hsCode (ibr-174-ae) and goodsType (ibr-166-ae, ibr-006-ae) at the paths sent', () => {
    const d = draftOf(standard((b) => (b.lines = [{ description: 'Services', quantity: 1, unitPrice: 100, vatRate: 0.05, taxCategory: 'reverse_charge_designated_zone' }])));
    const found = reverseChargeFindings(d.body, d.shape);
    expect(found.map((f) => `${f.code} ${f.path}`)).to.deep.equal(['hs_code_required lines[0].hsCode', 'goods_type_required lines[0].goodsType']);
    expect(found[0].message).to.contain('ibr-174-ae');
    expect(found[1].message).to.contain('ibr-006-ae').and.contain('DL8.48.8.2 (Electronic Devices)');
    const alt = readTenantInvoice({ invoiceNumber: 'A-2', issueDate: '2025-02-07', currency: 'AED', buyer: { legalName: 'Noor', trn: '100987654300003', address: 'Dubai' }, items: [{ name: 'x', quantity: 1, unitPrice: 1, tax: 'REVERSE_CHARGE', hsCode: '9999' }] }, TENANT);
    if ('refusal' in alt) throw new Error(JSON.stringify(alt.refusal));
    expect(reverseChargeFindings(alt.draft.body, alt.draft.shape).map((f) => f.path)).to.deep.equal(['items[0].goodsType']);
    const bad = readTenantInvoice(standard((b) => (b.lines[0].goodsType = 'DL9')), TENANT);
    expect('refusal' in bad && bad.refusal.errors[0]).to.include({ path: 'lines[0].goodsType', code: 'invalid_enum' });
  });

  it('5. every line exempt, or every line out of scope: a commercial invoice (480), which the rules allow', async () => {
    for (const taxCategory of ['exempt_financial', 'out_of_scope']) {
      const d = draftOf(standard((b) => {
        b.buyer.tradeLicenseNumber = 'AUH-CN-12345';
        b.lines = [{ description: 'Fees', quantity: 1, unitPrice: 100, vatRate: 0, taxCategory }];
      }));
      expect(d.body.documentType).to.equal('commercial_invoice');
      expect(await officialXml(d)).to.contain('<cbc:InvoiceTypeCode>480</cbc:InvoiceTypeCode>');
    }
    // A mix with a taxable line stays a tax invoice.
    expect(draftOf(standard((b) => b.lines.push({ description: 'Fees', quantity: 1, unitPrice: 100, vatRate: 0, taxCategory: 'exempt_financial' }))).body.documentType).to.equal('tax_invoice');
    // Without the buyer's legal registration, ibr-136-ae holds it, naming buyer.tradeLicenseNumber.
    const held = preSubmitCheck(draftOf(standard((b) => (b.lines = [{ description: 'Fees', quantity: 1, unitPrice: 100, vatRate: 0, taxCategory: 'out_of_scope' }]))).body);
    expect(held!.heldErrors.map((e) => `${e.code} ${e.path}`)).to.deep.equal(['legal_registration_required buyer.tradeLicenseNumber']);
  });

  it('6. B2C: a buyer with name and address, no TRN: simplified, identified by a stable customer reference', async () => {
    const d = draftOf(standard((b) => (b.buyer = { name: 'Aisha Rahman', address: { line1: 'Villa 7, Street 12, Al Barsha', city: 'Dubai' } })));
    expect(d.profile).to.equal('simplified');
    expect(d.body.documentType).to.equal('simplified_tax_invoice');
    const ref = customerReference(d.body.buyer);
    expect(d.body.buyer.identifier).to.equal(ref).and.match(/^CUST-[0-9A-F]{12}$/);
    const xml = await officialXml(d);
    expect(xml).to.contain(`<cac:PartyIdentification><cbc:ID>${ref}</cbc:ID></cac:PartyIdentification>`);
    // The same buyer written differently (case, spaces) keeps its reference; another buyer gets another.
    expect(customerReference({ name: ' aisha  RAHMAN', address: { line1: 'Villa 7, Street 12, Al Barsha', city: 'dubai', emirate: 'DXB' } })).to.equal(ref);
    expect(customerReference({ name: 'Omar Rahman', address: d.body.buyer.address })).to.not.equal(ref);
    // 10,000 AED and more: a tax invoice, same identification.
    const big = draftOf(standard((b) => {
      b.buyer = { name: 'Aisha Rahman', address: { line1: 'Villa 7', city: 'Dubai' } };
      b.lines[0].unitPrice = 1000;
    }));
    expect(big.body.documentType).to.equal('tax_invoice');
    await officialXml(big);
  });
});
