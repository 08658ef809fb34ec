// The rendition (src/rendition): every official PINT-AE example and every rendered fixture body renders to
// HTML and PDF; the PDF's extracted text (poppler's pdftotext) holds the number, the TRNs and the totals exactly
// as the XML has them (to the fils), and the Arabic legal names in logical order.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import Decimal from 'decimal.js';
import { ServiceError } from '../../../src/domain/errors';
import { documentView, type DocumentView } from '../../../src/rendition/document-view';
import { documentHtml, findingsHtml } from '../../../src/rendition/html';
import { documentPdf } from '../../../src/rendition/pdf';
import { money } from '../../../src/rendition/format';
import { renderInvoice, type InvoiceCreateBody } from '@einvoice/pint-ae';
import { corpus } from '../pint-ae/render-helpers';
import { hasPdftotext, pdfText } from '../../helpers/pdftotext';

const EXAMPLES = path.resolve(__dirname, '../../../../shared/pint-ae/examples');

function examples(): { name: string; xml: string }[] {
  const out: { name: string; xml: string }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.xml')) out.push({ name: path.relative(EXAMPLES, p), xml: fs.readFileSync(p, 'utf8') });
    }
  };
  walk(EXAMPLES);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function renderedFixtures(): { name: string; xml: string }[] {
  const out: { name: string; xml: string }[] = [];
  for (const { name, body } of corpus()) {
    try {
      out.push({ name, xml: renderInvoice(body as InvoiceCreateBody, { skipChecks: true }) });
    } catch {
      // a body the renderer refuses has no document to show
    }
  }
  return out;
}



/** The XML's own value of a LegalMonetaryTotal / TaxTotal element (first match). */
function xmlAmount(xml: string, local: string): string | undefined {
  return new RegExp(`<(?:cbc:)?${local}[^>]*>([^<]+)<`).exec(xml)?.[1].trim();
}

/** Every figure printed after "AED " in the text, as decimals. */
function printedAmounts(text: string): Decimal[] {
  return [...text.matchAll(/[A-Z]{3} (-?[\d,]+\.\d+)/g)].map((m) => new Decimal(m[1].replace(/,/g, '')));
}

function checkPdfText(name: string, xml: string, d: DocumentView, text: string): void {
  const flat = text.replace(/\s+/g, ' ');
  expect(flat, `${name}: number`).to.include(d.number);
  for (const trn of [d.seller.trn, d.buyer.trn]) if (trn) expect(flat, `${name}: TRN ${trn}`).to.include(trn);
  const amounts = printedAmounts(text);
  for (const local of ['PayableAmount', 'TaxInclusiveAmount', 'TaxExclusiveAmount']) {
    const v = xmlAmount(xml, local);
    if (!v) continue;
    expect(flat, `${name}: ${local} printed as in the XML`).to.include(`${d.currency} ${money(v)}`);
    expect(amounts.some((a) => a.equals(new Decimal(v))), `${name}: ${local} ${v} equal to the fils`).to.equal(true);
  }
  if (d.vatTotal) expect(amounts.some((a) => a.equals(new Decimal(d.vatTotal!))), `${name}: VAT total ${d.vatTotal}`).to.equal(true);
  for (const l of d.lines.slice(0, 50)) expect(flat, `${name}: line ${l.id} net`).to.include(money(l.net));
}

describe('rendition (HTML and PDF of the delivered XML)', function () {
  const docs = [...examples().map((e) => ({ ...e, name: `example ${e.name}` })), ...renderedFixtures().map((f) => ({ ...f, name: `fixture ${f.name}` }))];

  before(function () {
    if (!hasPdftotext()) this.skip(); // poppler-utils absent: the extraction checks cannot run (apt-get install -y poppler-utils)
  });

  it('has the corpus: the official examples and the rendered fixtures', () => {
    expect(examples().length).to.be.greaterThan(25);
    expect(renderedFixtures().length).to.be.greaterThan(30);
  });

  for (const { name, xml } of docs) {
    it(`renders ${name} in HTML and PDF with its number, TRNs and totals`, async () => {
      const d = documentView(xml);
      const html = documentHtml(d);
      expect(html).to.match(/^<!DOCTYPE html>/);
      expect(html).to.include(d.number.replace(/&/g, '&amp;'));
      expect(html).to.include('dir="rtl"');
      if (d.totals.payable) expect(html).to.include(`${d.currency} ${money(d.totals.payable)}`);
      const pdf = await documentPdf(d);
      expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
      checkPdfText(name, xml, d, pdfText(pdf));
    });
  }

  it('prints the Arabic legal names in logical order, from the XML or from the record', async () => {
    const example = fs.readFileSync(path.join(EXAMPLES, 'billing/inv/Standard tax invoice.xml'), 'utf8');
    // The buyer's Arabic name as a second PartyName in the XML; the seller's from the invoice record.
    const xml = example.replace(/(<cac:AccountingCustomerParty>\s*<cac:Party>[\s\S]*?)(<cac:PostalAddress>)/, '$1<cac:PartyName><cbc:Name>مؤسسة النور للمقاولات</cbc:Name></cac:PartyName>$2');
    expect(xml).to.include('مؤسسة النور');
    const d = documentView(xml, { arabicNames: { seller: 'شركة المستأجر للتجارة العامة' } });
    expect(d.buyer.arabicName).to.equal('مؤسسة النور للمقاولات');
    expect(d.buyer.arabicNameFromRecord).to.equal(false);
    expect(d.seller.arabicName).to.equal('شركة المستأجر للتجارة العامة');
    expect(d.seller.arabicNameFromRecord).to.equal(true);
    const text = pdfText(await documentPdf(d)).replace(/\s+/g, ' ');
    expect(text).to.include('شركة المستأجر للتجارة العامة');
    expect(text).to.include('مؤسسة النور للمقاولات');
    // The Arabic labels too (lam-alef ligatures included): "Issue date", "Total including VAT".
    expect(text).to.include('تاريخ الإصدار');
    expect(text).to.include('الإجمالي شامل الضريبة');
    const html = documentHtml(d);
    expect(html).to.include('<span class="arname" dir="rtl" lang="ar">شركة المستأجر للتجارة العامة</span>');
  });

  it('says the transaction-type flags in words and shows the delivery evidence', async () => {
    const xml = fs.readFileSync(path.join(EXAMPLES, 'billing/inv/Exports.xml'), 'utf8');
    const evidence = { submissionId: 'sub-7f3a', ackRef: 'ACK-2026-000123', documentSha256: 'a'.repeat(64), statuses: [{ status: 'accepted', at: '2026-11-27T08:00:00.000Z' }] };
    const d = documentView(xml, { evidence });
    expect(d.transactionTypes.map((t) => t.en)).to.deep.equal(['Exports']);
    const text = pdfText(await documentPdf(d)).replace(/\s+/g, ' ');
    for (const s of ['Exports', 'sub-7f3a', 'ACK-2026-000123', 'a'.repeat(64), 'accepted 2026-11-27T08:00:00.000Z']) expect(text).to.include(s);
    const html = documentHtml(d);
    for (const s of ['Exports', 'تصدير', 'ACK-2026-000123', 'a'.repeat(64)]) expect(html).to.include(s);
  });

  it('shows a credit note with its reason and preceding invoice', () => {
    const xml = fs.readFileSync(path.join(EXAMPLES, 'billing/cn/Standard tax credit Note.xml'), 'utf8');
    const d = documentView(xml);
    expect(d.root).to.equal('CreditNote');
    expect(d.title.en).to.equal('Tax credit note');
    expect(d.references.some((r) => r.key === 'precedingInvoice')).to.equal(true);
    expect(d.lines.length).to.be.greaterThan(0);
  });

  it('escapes the document text in HTML', () => {
    const xml = fs.readFileSync(path.join(EXAMPLES, 'billing/inv/Standard tax invoice.xml'), 'utf8').replace(/<cbc:Note>[^<]*<\/cbc:Note>/, '<cbc:Note>&lt;script&gt;alert(1)&lt;/script&gt;</cbc:Note>');
    const html = documentHtml(documentView(xml));
    expect(html).not.to.include('<script>');
    expect(html).to.include('&lt;script&gt;');
  });

  it('refuses what is not a PINT-AE document, saying why', () => {
    expect(() => documentView('<Order xmlns="urn:x"/>')).to.throw(ServiceError, /root element is <Order>/).with.property('code', 'unreadable_document');
    expect(() => documentView('<Invoice>')).to.throw(ServiceError, /not well-formed/).with.property('code', 'unreadable_document');
  });

  it('renders the validation findings beside the document', () => {
    const xml = fs.readFileSync(path.join(EXAMPLES, 'billing/inv/Standard tax invoice.xml'), 'utf8');
    const html = findingsHtml({ fatal: [{ id: 'ibr-001-ae', location: '/Invoice', text: 'A <bad> thing' }], warning: [] }, documentView(xml));
    expect(html).to.include('ibr-001-ae');
    expect(html).to.include('A &lt;bad&gt; thing');
    expect(html).to.include('Tax invoice');
  });
});
