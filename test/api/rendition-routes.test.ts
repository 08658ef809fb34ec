// The rendition where users get it, over real HTTP with the real worker (test mode: the simulated ASP):
// GET /v1/partner/invoices/{id}/document and GET /v1/invoices/{id}/document negotiate XML, HTML and PDF
// (Accept or ?format=), 406 for anything else; POST /v1/partner/documents/validate answers HTML when asked.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { apiBase, call } from '../helpers/http';
import { invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { expectTenantError, mutation, newTenant, tenantInvoice, waitForTenantStatus, TENANT_ARABIC_NAME, type TestTenant } from '../helpers/tenants';
import { ensureWorker } from '../helpers/worker';
import { hasPdftotext, pdfText } from '../helpers/pdftotext';

const EXAMPLES = path.resolve(__dirname, '../../../shared/pint-ae/examples');

/** GET with raw bytes kept (call() decodes text). */
async function getBytes(url: string, headers: Record<string, string>): Promise<{ status: number; type: string; bytes: Buffer }> {
  const res = await fetch((await apiBase()) + url, { headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
}

const pdfWords = (pdf: Buffer) => pdfText(pdf).replace(/\s+/g, ' ');


describe('Rendition routes (GET .../document, POST /documents/validate as HTML)', function () {
  before(async function () {
    if (!hasPdftotext()) this.skip(); // poppler-utils absent (apt-get install -y poppler-utils)
    await ensureWorker();
  });

  describe('Partner API', () => {
    let p: TestPartner;
    let id: string;
    let number: string;
    before(async () => {
      p = await newPartner();
      const body = invoiceBody(p);
      number = body.number;
      const { body: queued } = await postInvoice(p, body);
      id = queued.invoiceId;
      await waitForStatus(p, id, 'acknowledged');
    });

    it('answers the stored XML by default and for Accept: application/xml', async () => {
      for (const accept of [undefined, 'application/xml', '*/*']) {
        const res = await call('GET', `/v1/partner/invoices/${id}/document`, { headers: { ...p.headers, ...(accept ? { Accept: accept } : {}) } });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^application\/xml/);
        expect(res.text).to.contain(`<cbc:ID>${number}</cbc:ID>`);
      }
    });

    it('answers the PDF with the number, TRNs, totals and the delivery evidence (SHA-256 of the XML as delivered)', async () => {
      const xml = (await call('GET', `/v1/partner/invoices/${id}/document`, { headers: p.headers })).text;
      const evidence = (await call('GET', `/v1/partner/invoices/${id}/evidence`, { headers: p.headers })).body;
      const last = evidence.submissions[evidence.submissions.length - 1];
      expect(last.documentSha256).to.equal(createHash('sha256').update(xml, 'utf8').digest('hex'));
      const byQuery = await getBytes(`/v1/partner/invoices/${id}/document?format=pdf`, p.headers);
      const byAccept = await getBytes(`/v1/partner/invoices/${id}/document`, { ...p.headers, Accept: 'application/pdf' });
      for (const res of [byQuery, byAccept]) {
        expect(res.status).to.equal(200);
        expect(res.type).to.equal('application/pdf');
        const text = pdfWords(res.bytes);
        const payable = /<cbc:PayableAmount[^>]*>([^<]+)</.exec(xml)![1];
        for (const s of [number, p.sme.trn, `AED ${Number(payable).toLocaleString('en-US', { minimumFractionDigits: 2 })}`, last.documentSha256, last.ackRef, last.submissionId]) {
          expect(text, String(s)).to.include(s);
        }
      }
    });

    it('answers the HTML rendition for Accept: text/html (preferred by quality)', async () => {
      const res = await call('GET', `/v1/partner/invoices/${id}/document`, { headers: { ...p.headers, Accept: 'application/xml;q=0.5, text/html' } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      expect(res.headers.get('vary')).to.match(/Accept/i);
      expect(res.text).to.include(number);
      expect(res.text).to.include('فاتورة ضريبية');
    });

    it('refuses another type with 406 naming the three it has', async () => {
      for (const opts of [{ accept: 'image/png' }, { query: '?format=docx' }]) {
        const res = await call('GET', `/v1/partner/invoices/${id}/document${opts.query ?? ''}`, { headers: { ...p.headers, ...(opts.accept ? { Accept: opts.accept } : {}) } });
        expect(res.status, res.text).to.equal(406);
        expect(res.body.code).to.equal('not_acceptable');
        expect(res.text).to.include('application/pdf');
        expect(res.text).to.include(opts.accept ? 'Accept' : 'query.format');
      }
    });

    it('POST /v1/partner/documents/validate answers the findings beside the document as HTML when asked', async () => {
      const xml = fs.readFileSync(path.join(EXAMPLES, 'billing/inv/Standard tax invoice.xml'), 'utf8');
      const bad = xml.replace('<cbc:CompanyID>198765432102003</cbc:CompanyID>', '<cbc:CompanyID>19876543210200</cbc:CompanyID>');
      const html = await call('POST', '/v1/partner/documents/validate', { headers: { ...p.headers, 'Content-Type': 'application/xml', Accept: 'text/html' }, raw: bad });
      expect(html.status).to.equal(200);
      expect(html.headers.get('content-type')).to.match(/^text\/html/);
      expect(html.text).to.include('ibr-132-ae');
      expect(html.text).to.include('Tax invoice');
      const json = await call('POST', '/v1/partner/documents/validate', { headers: { ...p.headers, 'Content-Type': 'application/xml' }, raw: bad });
      expect(json.body.fatal.map((f: { id: string }) => f.id)).to.include('ibr-132-ae');
    });
  });

  describe('Tenant API', () => {
    let t: TestTenant;
    let id: string;
    before(async () => {
      t = await newTenant();
      const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
      expect(created.status, created.text).to.equal(201);
      id = created.body.id;
      const submit = await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [id] } });
      expect(submit.body.submitted, submit.text).to.equal(1);
      await waitForTenantStatus(t, id, ['acknowledged']);
    });

    it('GET /v1/invoices/{id}/document: the XML, and the HTML and PDF with the Arabic legal name of the record', async () => {
      const xml = await call('GET', `/v1/invoices/${id}/document`, { headers: t.headers });
      expect(xml.status).to.equal(200);
      expect(xml.headers.get('content-type')).to.match(/^application\/xml/);
      const html = await call('GET', `/v1/invoices/${id}/document?format=html`, { headers: t.headers });
      expect(html.status).to.equal(200);
      expect(html.text).to.include(`dir="rtl" lang="ar">${TENANT_ARABIC_NAME}</span>`);
      const pdf = await getBytes(`/v1/invoices/${id}/document`, { ...t.headers, Accept: 'application/pdf' });
      expect(pdf.status).to.equal(200);
      const text = pdfWords(pdf.bytes);
      expect(text).to.include(t.trn);
      // The name's words in logical order (its ASCII dots are drawn with the Latin font: see notes).
      expect(text).to.include(TENANT_ARABIC_NAME.split(' ').slice(0, 2).join(' '));
    });

    it('406 in the Tenant shape for a type the document does not have; 404 for another tenant', async () => {
      expectTenantError(await call('GET', `/v1/invoices/${id}/document`, { headers: { ...t.headers, Accept: 'text/csv' } }), 406, 'not_acceptable');
      const other = await newTenant();
      expect((await call('GET', `/v1/invoices/${id}/document?format=pdf`, { headers: other.headers })).status).to.equal(404);
    });
  });
});
