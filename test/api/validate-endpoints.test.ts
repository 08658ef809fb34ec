// Validation without submission (issue 12 item 2): POST /v1/partner/invoices/validate and
// POST /v1/partner/documents/validate over real HTTP, compared with POST /v1/partner/invoices and `einvoice validate`.
import { expect } from 'chai';
import { uaeToday } from '../../src/domain/submission-rules';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { validateCommand } from '../../src/cli/validate-command';
import { IdempotencyRecord, Invoice, InvoiceDocument, Partner } from '../../src/db/models';
import { call, type ApiResponse } from '../helpers/http';
import { invoiceBody, postInvoice } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';

const EXAMPLES = path.resolve(__dirname, '../../../shared/pint-ae/examples');
const STANDARD = fs.readFileSync(path.join(EXAMPLES, 'billing/inv/Standard tax invoice.xml'), 'utf8');
/** The seller's TRN cut to 14 digits: the official rule ibr-132-ae refuses it. */
const FATAL = STANDARD.replace('<cbc:CompanyID>198765432102003</cbc:CompanyID>', '<cbc:CompanyID>19876543210200</cbc:CompanyID>');

const validateInvoice = (p: TestPartner, body: unknown, headers: Record<string, string> = p.headers) =>
  call('POST', '/v1/partner/invoices/validate', { headers, json: body });

const validateXml = (headers: Record<string, string>, xml: string, contentType = 'application/xml') =>
  call('POST', '/v1/partner/documents/validate', { headers: { ...headers, 'Content-Type': contentType }, raw: xml });

/** `einvoice validate` on `xml`, in-process: its exit code and what it printed. */
async function cli(xml: string): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const sink = (write: (s: string) => void) => new Writable({ write: (chunk, _e, cb) => (write(String(chunk)), cb()) });
  const code = await validateCommand(['doc.xml'], { stdout: sink((s) => (stdout += s)), stderr: sink(() => undefined), readFile: async () => xml });
  return { code, stdout };
}

/** What a call could have stored: the SME's invoices, their documents, idempotency records. */
async function stored(p: TestPartner): Promise<number[]> {
  return [await Invoice.countDocuments({ smeId: p.sme.smeId }), await InvoiceDocument.estimatedDocumentCount(), await IdempotencyRecord.estimatedDocumentCount()];
}

describe('Validation without submission (Partner API)', function () {
  this.timeout(60_000);
  let p: TestPartner;
  before(async () => {
    p = await newPartner();
  });

  describe('POST /v1/partner/invoices/validate', () => {
    it('a valid body: 200 valid with the rendered PINT-AE XML and no fatal finding; the XML passes /documents/validate too', async () => {
      const body = invoiceBody(p, (b) => (b.issueDate = uaeToday())); // today: no late_issuance warning
      const res = await validateInvoice(p, body);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.have.all.keys('valid', 'xml', 'fatal', 'warning');
      expect(res.body.valid).to.equal(true);
      expect(res.body.fatal).to.deep.equal([]);
      expect(res.body.xml).to.match(/^<\?xml/).and.contain(`<cbc:ID>${body.number}</cbc:ID>`).and.contain(p.sme.trn);
      const again = await validateXml(p.keyHeaders, res.body.xml);
      expect(again.body).to.deep.equal({ fatal: [], warning: res.body.warning });
    });

    it('a held body: 200 valid false with heldReason and heldErrors [{code, path, message}], as POST would hold it', async () => {
      const body = invoiceBody(p, (b) => ((b.issueDate = uaeToday()), delete b.buyer.address));
      const res = await validateInvoice(p, body);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.have.all.keys('valid', 'heldReason', 'heldErrors');
      expect(res.body).to.include({ valid: false, heldReason: 'address_required' });
      expect(res.body.heldErrors).to.have.length(1);
      expect(res.body.heldErrors[0]).to.have.all.keys('code', 'path', 'message');
      expect(res.body.heldErrors[0]).to.include({ code: 'address_required', path: 'buyer.address' });
      const posted = await postInvoice(p, body);
      expect(posted.body).to.include({ status: 'held', heldReason: res.body.heldReason });
      expect(posted.body.heldErrors).to.deep.equal(res.body.heldErrors);
    });

    it('a malformed body: 400 validation_failed with the same errors as POST /v1/partner/invoices', async () => {
      const body = invoiceBody(p, (b) => {
        delete b.number;
        b.lines[0].quantity = 'many';
        b.currency = 'USD';
      });
      const res = await validateInvoice(p, body);
      const posted = await postInvoice(p, body);
      expect(res.status).to.equal(400);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(res.body.code).to.equal('validation_failed');
      expect(res.body.meta.errors.map((e: any) => e.path).sort()).to.deep.equal(['currency', 'lines[0].quantity', 'number']);
      expect([posted.status, posted.body.meta]).to.deep.equal([400, res.body.meta]);
    });

    it("403 trn_mismatch for a seller that is not the connected SME, as POST", async () => {
      const res = await validateInvoice(p, invoiceBody(p, (b) => (b.trn = b.seller.trn = '100999999900003')));
      expect([res.status, res.body.code]).to.deep.equal([403, 'trn_mismatch']);
    });

    it('stores nothing: no invoice, no document, no idempotency record, and the number stays free', async () => {
      const before = await stored(p);
      const body = invoiceBody(p);
      for (const b of [body, invoiceBody(p, (x) => delete x.seller.address)]) expect((await validateInvoice(p, b)).status).to.equal(200);
      expect(await stored(p)).to.deep.equal(before);
      expect(await Invoice.countDocuments({ smeId: p.sme.smeId, number: body.number })).to.equal(0);
      const posted = await postInvoice(p, body);
      expect([posted.status, posted.body.status]).to.deep.equal([201, 'queued']);
    });

    it('401 without credentials, 401 without the SME connection secret', async () => {
      const none = await call('POST', '/v1/partner/invoices/validate', { json: invoiceBody(p) });
      expect(none.status).to.equal(401);
      const keyOnly = await validateInvoice(p, invoiceBody(p), p.keyHeaders);
      expect(keyOnly.status).to.equal(401);
    });
  });

  describe('POST /v1/partner/documents/validate', () => {
    async function sameAsCli(res: ApiResponse, xml: string): Promise<void> {
      const printed = await cli(xml);
      expect(res.status, res.text).to.equal(200);
      expect(res.text).to.equal(printed.stdout.trimEnd());
    }

    it('an official example: 200 {fatal: [], warning: []}, exactly what `einvoice validate` prints, with partner credentials only', async () => {
      const res = await validateXml(p.keyHeaders, STANDARD);
      expect(res.body).to.deep.equal({ fatal: [], warning: [] });
      await sameAsCli(res, STANDARD);
      const selfBilled = fs.readdirSync(path.join(EXAMPLES, 'selfbilling/inv')).find((f) => f.endsWith('.xml'))!;
      const sb = fs.readFileSync(path.join(EXAMPLES, 'selfbilling/inv', selfBilled), 'utf8');
      await sameAsCli(await validateXml(p.keyHeaders, sb, 'text/xml; charset=utf-8'), sb);
    });

    it('a document with a fatal rule: 200 with the rule id, location and text, exactly as `einvoice validate`', async () => {
      const res = await validateXml(p.headers, FATAL);
      expect(res.body.fatal).to.deep.equal([
        {
          id: 'ibr-132-ae',
          location: '/Invoice/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID',
          text: '[ibr-132-ae]-VAT identifier [IBT-031, IBT-048, IBT-063, BTAE-14] should be TRN [VAT registration number] and must be 15 digits, starting with 1, ending with 03.',
        },
      ]);
      await sameAsCli(res, FATAL);
      expect((await cli(FATAL)).code).to.equal(1);
    });

    it('broken XML: 400 not_xml saying where; an empty body 400; JSON 415', async () => {
      const broken = await validateXml(p.keyHeaders, STANDARD.slice(0, 2000));
      expect(broken.status).to.equal(400);
      expect(broken.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(broken.body.code).to.equal('not_xml');
      expect(broken.body.detail).to.match(/^The body is not well-formed XML: .*line \d+, column \d+/);
      const notXml = await validateXml(p.keyHeaders, '{"invoice": 1}');
      expect([notXml.status, notXml.body.code]).to.deep.equal([400, 'not_xml']);
      const empty = await validateXml(p.keyHeaders, '');
      expect([empty.status, empty.body.code]).to.deep.equal([400, 'empty_body']);
      const json = await call('POST', '/v1/partner/documents/validate', { headers: p.keyHeaders, json: { xml: STANDARD } });
      expect([json.status, json.body.code]).to.deep.equal([415, 'unsupported_media_type']);
    });

    it('413 payload_too_large beyond 5 MB, and 5 MB is read', async () => {
      const pad = (size: number) => STANDARD.replace('<cbc:Note>', `<!--${'x'.repeat(size - Buffer.byteLength(STANDARD) - 7)}--><cbc:Note>`);
      const atLimit = pad(5 * 1024 * 1024);
      expect(Buffer.byteLength(atLimit)).to.equal(5 * 1024 * 1024);
      const ok = await validateXml(p.keyHeaders, atLimit);
      expect(ok.status, ok.text.slice(0, 300)).to.equal(200);
      const over = await validateXml(p.keyHeaders, pad(5 * 1024 * 1024 + 1));
      expect([over.status, over.body.code]).to.deep.equal([413, 'payload_too_large']);
      expect(over.body.detail).to.contain('larger than 5 MB');
      expect((await validateXml(p.keyHeaders, STANDARD)).status).to.equal(200);
    });

    it('stores nothing', async () => {
      const before = await stored(p);
      await validateXml(p.keyHeaders, STANDARD);
      await validateXml(p.keyHeaders, FATAL);
      expect(await stored(p)).to.deep.equal(before);
    });

    it('401 without credentials or with a wrong secret', async () => {
      expect((await validateXml({}, STANDARD)).status).to.equal(401);
      expect((await validateXml({ ...p.keyHeaders, 'X-API-Secret': 'sk_wrong' }, STANDARD)).status).to.equal(401);
    });
  });

  it('both are rate limited like the rest of the Partner API (429 once the budget is used)', async () => {
    const q = await newPartner();
    await Partner.updateOne({ _id: q.partnerId }, { $set: { rateLimitPerMinute: 2 } });
    expect((await validateXml(q.keyHeaders, STANDARD)).status).to.equal(200);
    expect((await validateInvoice(q, invoiceBody(q))).status).to.equal(200);
    const limited = [await validateXml(q.keyHeaders, STANDARD), await validateInvoice(q, invoiceBody(q))];
    expect(limited.map((r) => [r.status, r.body.code])).to.deep.equal([
      [429, 'rate_limited'],
      [429, 'rate_limited'],
    ]);
    expect(limited[0].headers.get('retry-after')).to.match(/^\d+$/);
  });
});
