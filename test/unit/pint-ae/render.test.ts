// What the renderer writes for each documentType, party kind, tax category and option.
import { expect } from 'chai';
import { create } from 'xmlbuilder2';
import { validateInvoiceBody, type InvoiceCreateBody } from '../../../src/domain/invoice-schema';
import { renderInvoice, computeTotals, InvoiceNotRenderableError, defaultDocumentUuid, tinFromTrn, ENDPOINT_EXPORT, ENDPOINT_NO_TIN } from '@einvoice/pint-ae';
import { fixture } from './render-helpers';

function body(name: string, mutate: (b: any) => void = () => {}): InvoiceCreateBody {
  const raw = fixture(name);
  mutate(raw);
  const { value, errors } = validateInvoiceBody(raw);
  expect(errors).to.deep.equal([]);
  return value!;
}
const render = (name: string, mutate?: (b: any) => void) => renderInvoice(body(name, mutate));

/** Text of the first element matching a path of tag names, e.g. leaf(xml, 'cac:AccountingCustomerParty', 'cbc:EndpointID'). */
function leaf(xml: string, ...path: string[]): string | undefined {
  let from = 0;
  for (const tag of path.slice(0, -1)) {
    const i = xml.indexOf(`<${tag}`, from);
    if (i < 0) return undefined;
    from = i;
  }
  const last = path[path.length - 1];
  const m = new RegExp(`<${last}(?: [^>]*)?>([^<]*)</${last}>`).exec(xml.slice(from));
  return m?.[1];
}
function all(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}(?: [^>]*)?>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]);
}
function section(xml: string, tag: string, index = 0): string {
  const parts = xml.split(`<${tag}>`);
  return parts[index + 1].split(`</${tag}>`)[0];
}

describe('renderInvoice', () => {
  describe('document types', () => {
    const cases: [string, string, string, string][] = [
      ['01-tax-invoice-minimal', 'Invoice', '380', 'urn:peppol:pint:billing-1@ae-1'],
      ['03-simplified-tax-invoice-buyer-without-trn', 'Invoice', '380', 'urn:peppol:pint:billing-1@ae-1'],
      ['04-commercial-invoice-out-of-scope', 'Invoice', '480', 'urn:peppol:pint:billing-1@ae-1'],
      ['07-credit-note-01-cancellation', 'CreditNote', '381', 'urn:peppol:pint:billing-1@ae-1'],
      ['12-credit-note-exempt-only-type-81', 'CreditNote', '81', 'urn:peppol:pint:billing-1@ae-1'],
      ['13-debit-note', 'Invoice', '380', 'urn:peppol:pint:billing-1@ae-1'],
      ['14-self-billed-invoice', 'Invoice', '389', 'urn:peppol:pint:selfbilling-1@ae-1'],
    ];
    for (const [name, root, code, customization] of cases) {
      it(`${name}: ${root} ${code}`, () => {
        const xml = render(name);
        expect(xml).to.match(new RegExp(`^<\\?xml version="1.0" encoding="UTF-8"\\?><${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2"`));
        expect(leaf(xml, root === 'Invoice' ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode')).to.equal(code);
        expect(leaf(xml, 'cbc:CustomizationID')).to.equal(customization);
        expect(leaf(xml, 'cbc:ProfileID')).to.equal(customization.includes('selfbilling') ? 'urn:peppol:bis:selfbilling' : 'urn:peppol:bis:billing');
        expect(all(xml, root === 'Invoice' ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity').length).to.be.greaterThan(0);
      });
    }

    it('names the document in cbc:Note', () => {
      expect(leaf(render('03-simplified-tax-invoice-buyer-without-trn'), 'cbc:Note')).to.equal('Simplified tax invoice');
      expect(leaf(render('13-debit-note'), 'cbc:Note')).to.equal('Debit note');
    });

    it('references the adjusted invoice from credit and debit notes (deprecated alias included)', () => {
      for (const name of ['07-credit-note-01-cancellation', '13-debit-note', '08-credit-note-02-correction', '37-debit-note-deprecated-reference']) {
        const ref = section(render(name), 'cac:BillingReference');
        expect(ref, name).to.match(/<cac:InvoiceDocumentReference><cbc:ID>[^<]+<\/cbc:ID><cbc:IssueDate>\d{4}-\d\d-\d\d<\/cbc:IssueDate>/);
      }
      expect(leaf(render('08-credit-note-02-correction'), 'cac:BillingReference', 'cbc:ID')).to.equal('INV-2025-0001');
    });

    it('maps creditNoteReasonCode 01-05 onto the PINT-AE CreditReason list', () => {
      const expected: Record<string, string> = { '01': 'DL8.61.1.A', '02': 'DL8.61.1.E', '03': 'DL8.61.1.C', '04': 'DL8.61.1.D', '05': 'DL8.61.1.C' };
      for (const [code, reason] of Object.entries(expected)) {
        const xml = render('07-credit-note-01-cancellation', (b) => (b.creditNoteReasonCode = code));
        expect(leaf(xml, 'cac:DiscrepancyResponse', 'cbc:ResponseCode'), code).to.equal(reason);
      }
    });

    it('writes a due date on invoices (the issue date when none is given) and none on credit notes', () => {
      expect(leaf(render('01-tax-invoice-minimal'), 'cbc:DueDate')).to.equal('2025-02-07');
      expect(leaf(render('02-tax-invoice-discount-charge-iban'), 'cbc:DueDate')).to.equal('2025-03-09');
      expect(render('07-credit-note-01-cancellation')).not.to.contain('DueDate');
      expect(leaf(render('11-credit-note-05-other'), 'cac:PaymentMeans', 'cbc:PaymentDueDate')).to.equal('2025-02-20');
    });
  });

  describe('parties and endpoints', () => {
    it('uses the 10-digit TIN of the TRN as endpoint (scheme 0235) and the TRN as VAT identifier', () => {
      const xml = render('01-tax-invoice-minimal');
      const seller = section(xml, 'cac:AccountingSupplierParty');
      const buyer = section(xml, 'cac:AccountingCustomerParty');
      expect(seller).to.contain('<cbc:EndpointID schemeID="0235">1001234567</cbc:EndpointID>');
      expect(leaf(seller, 'cac:PartyTaxScheme', 'cbc:CompanyID')).to.equal('100123456700003');
      expect(buyer).to.contain('<cbc:EndpointID schemeID="0235">1009876543</cbc:EndpointID>');
      expect(tinFromTrn('100987654300003')).to.equal('1009876543');
    });

    it('gives a UAE buyer without TRN the predefined endpoint and its trade licence as identifier', () => {
      const buyer = section(render('03-simplified-tax-invoice-buyer-without-trn'), 'cac:AccountingCustomerParty');
      expect(buyer).to.contain(`<cbc:EndpointID schemeID="0235">${ENDPOINT_NO_TIN}</cbc:EndpointID>`);
      expect(leaf(buyer, 'cac:PartyIdentification', 'cbc:ID')).to.equal('SHJ-998877');
      expect(buyer).not.to.contain('PartyTaxScheme');
    });

    it('gives a foreign buyer the predefined export endpoint and sets the export flag', () => {
      const xml = render('17-export-goods-us');
      expect(leaf(xml, 'cbc:ProfileExecutionID')).to.equal('00000001');
      expect(section(xml, 'cac:AccountingCustomerParty')).to.contain(`<cbc:EndpointID schemeID="0235">${ENDPOINT_EXPORT}</cbc:EndpointID>`);
      const delivery = section(xml, 'cac:Delivery');
      expect(delivery).to.contain('<cbc:ActualDeliveryDate>2025-02-28</cbc:ActualDeliveryDate>');
      expect(delivery).to.contain('<cbc:CountrySubentity>California</cbc:CountrySubentity>');
      expect(delivery).to.contain('<cbc:IdentificationCode>US</cbc:IdentificationCode>');
    });

    it('sets the export flag for goods delivered abroad to a UAE buyer', () => {
      expect(leaf(render('19-export-goods-delivered-abroad-domestic-buyer'), 'cbc:ProfileExecutionID')).to.equal('00000001');
      expect(leaf(render('01-tax-invoice-minimal'), 'cbc:ProfileExecutionID')).to.equal('00000000');
    });

    it('writes PAS buyers and sellers with the passport and its issuing country', () => {
      const buyer = section(render('30-pas-buyer'), 'cac:AccountingCustomerParty');
      expect(buyer).to.contain('<cbc:CompanyID schemeAgencyID="PAS" schemeAgencyName="IN">Z1234567</cbc:CompanyID>');
      expect(buyer).to.contain(`<cbc:EndpointID schemeID="0235">${ENDPOINT_NO_TIN}</cbc:EndpointID>`);
      expect(leaf(buyer, 'cac:PartyIdentification', 'cbc:ID')).to.equal('Z1234567');
      const seller = section(render('31-pas-seller'), 'cac:AccountingSupplierParty');
      expect(seller).to.contain('<cbc:CompanyID schemeAgencyID="PAS" schemeAgencyName="GB">533401122</cbc:CompanyID>');
      expect(leaf(seller, 'cac:PartyTaxScheme', 'cbc:CompanyID')).to.equal('100123456700003');
    });

    it('writes the trade licence with the issuing authority of the emirate (BTAE-12/BTAE-15)', () => {
      expect(section(render('01-tax-invoice-minimal'), 'cac:AccountingSupplierParty')).to.contain(
        '<cbc:CompanyID schemeAgencyID="TL" schemeAgencyName="Dubai Department of Economic Development">DED-778812</cbc:CompanyID>',
      );
    });

    it('writes emirate names as PINT-AE codes', () => {
      expect(all(render('01-tax-invoice-minimal'), 'cbc:CountrySubentity')).to.deep.equal(['DXB', 'AUH']);
      expect(all(render('32-payment-means-ach-emirate-name'), 'cbc:CountrySubentity')).to.deep.equal(['DXB', 'UAQ']);
    });

    it('keeps the roles of a purchase as given and takes the SME (buyer) TRN from trn', () => {
      const xml = render('16-purchase-invoice');
      expect(leaf(section(xml, 'cac:AccountingSupplierParty'), 'cbc:RegistrationName')).to.equal('Desert Logistics FZE');
      expect(leaf(section(xml, 'cac:AccountingSupplierParty'), 'cac:PartyTaxScheme', 'cbc:CompanyID')).to.equal('100555666700003');
      expect(leaf(section(xml, 'cac:AccountingCustomerParty'), 'cac:PartyTaxScheme', 'cbc:CompanyID')).to.equal('100123456700003');
    });
  });

  describe('tax categories', () => {
    const xml = () => render('34-every-tax-category');
    it('writes S 5 %, Z 0 %, E without rate and with its exemption reason, AE 5 %, O without rate', () => {
      const cats = xml()
        .split('<cac:ClassifiedTaxCategory>')
        .slice(1)
        .map((s) => s.split('</cac:ClassifiedTaxCategory>')[0].replace(/<cac:TaxScheme>.*<\/cac:TaxScheme>/, ''));
      expect(cats).to.deep.equal([
        '<cbc:ID>S</cbc:ID><cbc:Percent>5</cbc:Percent>',
        '<cbc:ID>Z</cbc:ID><cbc:Percent>0</cbc:Percent>',
        '<cbc:ID>Z</cbc:ID><cbc:Percent>0</cbc:Percent>',
        '<cbc:ID>Z</cbc:ID><cbc:Percent>0</cbc:Percent>',
        '<cbc:ID>E</cbc:ID><cbc:TaxExemptionReasonCode>DL8.46.1</cbc:TaxExemptionReasonCode><cbc:TaxExemptionReason>Certain financial services</cbc:TaxExemptionReason>',
        '<cbc:ID>E</cbc:ID><cbc:TaxExemptionReasonCode>DL8.46.2</cbc:TaxExemptionReasonCode><cbc:TaxExemptionReason>Supply of residential units (lease or sale)</cbc:TaxExemptionReason>',
        '<cbc:ID>AE</cbc:ID><cbc:Percent>5</cbc:Percent>',
        '<cbc:ID>AE</cbc:ID><cbc:Percent>5</cbc:Percent>',
        '<cbc:ID>AE</cbc:ID><cbc:Percent>5</cbc:Percent>',
        '<cbc:ID>AE</cbc:ID><cbc:Percent>5</cbc:Percent>',
        '<cbc:ID>O</cbc:ID>',
      ]);
    });

    it('writes the reverse-charge goods type (BTAE-09), and the designated zone from the HS code with the free-trade-zone flag', () => {
      expect(all(xml(), 'cbc:NatureCode')).to.deep.equal(['DL8.48.8.2', 'DL8.48.8.1', 'DL8.48.3.1', 'DL8.48.8.2']);
      const dz = render('28-reverse-charge-designated-zone');
      expect(leaf(dz, 'cbc:ProfileExecutionID')).to.equal('10000000');
      expect(leaf(dz, 'cac:BuyerCustomerParty', 'cac:PartyIdentification', 'cbc:ID')).to.equal('100987654300003');
      expect(dz).to.contain('<cac:StandardItemIdentification><cbc:ID schemeID="0160">851762</cbc:ID></cac:StandardItemIdentification>');
    });

    it('writes BTAE-08 and BTAE-10 on every line, without BTAE-08 on exempt lines', () => {
      const lines = xml().split('<cac:InvoiceLine>').slice(1);
      for (const l of lines) {
        const ext = section(l, 'cac:ItemPriceExtension');
        expect(ext).to.match(/^<cbc:Amount currencyID="AED">[\d.]+<\/cbc:Amount>/);
        if (l.includes('<cbc:ID>E</cbc:ID>')) expect(ext).not.to.contain('TaxTotal');
        else expect(ext).to.match(/<cac:TaxTotal><cbc:TaxAmount currencyID="AED">[\d.]+<\/cbc:TaxAmount><\/cac:TaxTotal>$/);
        if (/<cbc:ID>(Z|AE|O)<\/cbc:ID>/.test(l)) expect(ext).to.contain('<cbc:TaxAmount currencyID="AED">0.00</cbc:TaxAmount>');
      }
    });

    it('writes one breakdown per category and totals that match computeTotals', () => {
      const b = body('34-every-tax-category');
      const out = renderInvoice(b);
      const t = computeTotals(b);
      expect(all(section(out, 'cac:TaxTotal'), 'cbc:TaxableAmount')).to.deep.equal(t.breakdown.map((x) => x.taxable));
      expect(leaf(out, 'cac:LegalMonetaryTotal', 'cbc:PayableAmount')).to.equal(t.payable);
      expect(leaf(out, 'cac:TaxTotal', 'cbc:TaxAmount')).to.equal(t.tax);
    });
  });

  describe('lines', () => {
    it('writes discounts and charges as line allowances and charges, the price with base quantity and gross price', () => {
      const line = render('02-tax-invoice-discount-charge-iban').split('<cac:InvoiceLine>')[3];
      expect(line).to.contain(
        '<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>95</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Discount</cbc:AllowanceChargeReason><cbc:Amount currencyID="AED">5.00</cbc:Amount></cac:AllowanceCharge>',
      );
      expect(line).to.contain(
        '<cac:AllowanceCharge><cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>ABK</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Charge</cbc:AllowanceChargeReason><cbc:Amount currencyID="AED">2.50</cbc:Amount></cac:AllowanceCharge>',
      );
      expect(line).to.contain(
        '<cac:Price><cbc:PriceAmount currencyID="AED">19.99</cbc:PriceAmount><cbc:BaseQuantity unitCode="SET">1</cbc:BaseQuantity><cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount currencyID="AED">0.00</cbc:Amount><cbc:BaseAmount currencyID="AED">19.99</cbc:BaseAmount></cac:AllowanceCharge></cac:Price>',
      );
      expect(line).to.contain('<cbc:InvoicedQuantity unitCode="SET">3</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="AED">57.47</cbc:LineExtensionAmount>');
    });

    it('writes the HS code, and the goods item type when the line says goods', () => {
      const line = render('17-export-goods-us').split('<cac:InvoiceLine>')[1];
      expect(line).to.contain('<cac:CommodityClassification><cbc:CommodityCode>G</cbc:CommodityCode><cbc:ItemClassificationCode listID="HS">080410</cbc:ItemClassificationCode></cac:CommodityClassification>');
    });
  });

  describe('payment means', () => {
    it('writes credit transfer with the account (IBAN scheme) and name', () => {
      expect(section(render('02-tax-invoice-discount-charge-iban'), 'cac:PaymentMeans')).to.equal(
        '<cbc:PaymentMeansCode name="Credit transfer">30</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID schemeID="IBAN">AE070331234567890123456</cbc:ID><cbc:Name>Falcon Trading LLC</cbc:Name></cac:PayeeFinancialAccount>',
      );
    });
    it('uses code 1 (instrument not defined) on invoices without paymentMeansCode, nothing on such credit notes', () => {
      expect(section(render('01-tax-invoice-minimal'), 'cac:PaymentMeans')).to.equal('<cbc:PaymentMeansCode name="Instrument not defined">1</cbc:PaymentMeansCode>');
      expect(render('07-credit-note-01-cancellation')).not.to.contain('PaymentMeans');
    });
    it('writes other codes with their account', () => {
      expect(section(render('16-purchase-invoice'), 'cac:PaymentMeans')).to.contain('>57</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>0123456789</cbc:ID>');
      expect(leaf(render('30-pas-buyer'), 'cbc:PaymentMeansCode')).to.equal('48');
    });
  });

  describe('document UUID, escaping, refusals', () => {
    it('uses the given documentUuid, else a stable name-based UUID', () => {
      const b = body('01-tax-invoice-minimal');
      expect(leaf(renderInvoice(b, { documentUuid: '4b6000ca-0128-4bdc-99a6-406f2909247f' }), 'cbc:UUID')).to.equal('4b6000ca-0128-4bdc-99a6-406f2909247f');
      const uuid = leaf(renderInvoice(b), 'cbc:UUID')!;
      expect(uuid).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(uuid).to.equal(defaultDocumentUuid(b));
      expect(defaultDocumentUuid({ ...b, number: 'INV-2025-0002' })).not.to.equal(uuid);
    });

    it('escapes markup and drops characters XML cannot carry, identically in both serializers', () => {
      const b = body('01-tax-invoice-minimal', (x) => {
        x.buyer.name = 'Smith & Sons <"Trading"> \u0001LLC';
        x.lines[0].description = 'a < b && c > d \uFFFF';
      });
      const xml = renderInvoice(b);
      expect(xml).to.contain('<cbc:RegistrationName>Smith &amp; Sons &lt;"Trading"&gt; LLC</cbc:RegistrationName>');
      expect(xml).to.equal(renderInvoice(b, { engine: 'xmlbuilder2' }));
      const dom = create(xml).node as unknown as { getElementsByTagName(n: string): ArrayLike<{ textContent: string }> };
      expect(dom.getElementsByTagName('cbc:RegistrationName')[1].textContent).to.equal('Smith & Sons <"Trading"> LLC');
      expect(dom.getElementsByTagName('cbc:Description')[0].textContent).to.equal('a < b && c > d ');
    });

    it('refuses a body preSubmitCheck holds, unless told to skip the checks', () => {
      const b = body('01-tax-invoice-minimal', (x) => (x.lines[0].vatRate = 5));
      expect(() => renderInvoice(b)).to.throw(InvoiceNotRenderableError).with.property('heldReason', 'vat_rate_percent');
      expect(() => renderInvoice(b, { skipChecks: true })).not.to.throw();
    });

    it('renders 1,000 lines', () => {
      const b = body('01-tax-invoice-minimal', (x) => (x.lines = Array.from({ length: 1000 }, (_, i) => ({ description: `Item ${i}`, quantity: 1 + (i % 7), unitPrice: 9.99, vatRate: 0.05 }))));
      const xml = renderInvoice(b);
      expect(all(xml, 'cbc:InvoicedQuantity').length).to.equal(1000);
      expect(leaf(xml, 'cac:LegalMonetaryTotal', 'cbc:PayableAmount')).to.equal(computeTotals(b).payable);
    });
  });
});
