// Issue 35, Tenant API cases 1-6 over real HTTP: every body SPEC 2.2 allows goes through to acknowledged (test
// mode on the simulated ASP, and sandbox mode over the ASP simulator, which validates what it receives), or is
// refused naming the official rule, the JSON path or CSV column, and what to send instead.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { InvoiceDocument } from '../../src/db/models';
import type { AspSimulator } from '../../src/provider/simulator';
import { startAspSimulator, stopAspSimulator } from '../helpers/asp-simulator';
import { apiBase, call } from '../helpers/http';
import { randomTrn } from '../helpers/partners';
import { csvInvoiceNumber, tenantCsv, type BadRow } from '../helpers/tenant-csv';
import { type TestTenant, expectTenantError, mutation, newTenant, tenantInvoice, waitForTenantStatus } from '../helpers/tenants';
import { ensureWorker } from '../helpers/worker';
import { describeFatal, officialValidator } from '../unit/pint-ae/render-helpers';

type Body = Record<string, any>;

const BUYER_TL = 'AUH-CN-12345';
const b2cBuyer = () => ({ name: 'Aisha Rahman', address: { line1: 'Villa 7, Street 12, Al Barsha', city: 'Dubai' } });
const rcLine = (extra: Body = {}) => ({ description: 'Mobile phones', quantity: 2, unit: 'H87', unitPrice: 1000, vatRate: 0.05, taxCategory: 'reverse_charge_designated_zone', ...extra });

async function create(t: TestTenant, body: Body) {
  return call('POST', '/v1/invoices', { headers: mutation(t), json: body });
}

/** Creates, submits and waits: the final invoice view and the XML that was handed to the ASP. */
async function acknowledged(t: TestTenant, body: Body): Promise<{ view: any; xml: string }> {
  const created = await create(t, body);
  expect(created.status, created.text).to.equal(201);
  return submitted(t, created.body.id);
}

let validate: Awaited<ReturnType<typeof officialValidator>>;

async function submitted(t: TestTenant, id: string): Promise<{ view: any; xml: string }> {
  const submit = await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [id] } });
  expect(submit.body.submitted, submit.text).to.equal(1);
  const view = await waitForTenantStatus(t, id, ['acknowledged', 'rejected']);
  expect(view.status, JSON.stringify(view.errors ?? view.reason)).to.equal('acknowledged');
  const doc = await InvoiceDocument.findById(id).lean();
  const report = validate(doc!.xml);
  expect(report.fatal, describeFatal(report)).to.deep.equal([]);
  return { view, xml: doc!.xml };
}

/** A refusal's errors as "code path", and the first one's message. */
function findings(res: { body: any }): string[] {
  return (res.body.errors ?? []).map((e: any) => `${e.code} ${e.path}`);
}

async function upload(t: TestTenant, csv: string): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('options', JSON.stringify({ skipErrors: true }));
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'invoices.csv');
  const res = await fetch(`${await apiBase()}/v1/invoices/bulk`, { method: 'POST', headers: mutation(t), body: form });
  return { status: res.status, body: await res.json() };
}

describe('Tenant API spec edges (issue 35, cases 1-6) over HTTP', function () {
  this.timeout(180_000);

  before(async () => {
    await ensureWorker();
    validate = await officialValidator();
  });

  describe('test mode', () => {
    it('1. credit and debit notes with only referencedInvoiceNumber and reasonCode: the original\'s date is looked up; acknowledged', async () => {
      const t = await newTenant();
      const original = tenantInvoice(t, (b) => (b.issueDate = '2025-01-20'));
      await acknowledged(t, original);
      for (const invoiceType of ['credit_note', 'debit_note']) {
        const { view, xml } = await acknowledged(
          t,
          tenantInvoice(t, (b) => {
            Object.assign(b, { invoiceType, referencedInvoiceNumber: original.number, reasonCode: 'ReturnOfGoods', issueDate: '2025-02-20' });
            b.lines[0].quantity = 2;
          }),
        );
        expect(view).to.include({ invoiceType, documentType: invoiceType });
        expect(xml).to.match(new RegExp(`<cac:InvoiceDocumentReference><cbc:ID>${original.number}</cbc:ID><cbc:IssueDate>2025-01-20</cbc:IssueDate>`));
      }
    });

    it('1. an unknown original is refused naming referencedInvoiceNumber; referencedInvoiceIssueDate still overrides; over-crediting is refused', async () => {
      const t = await newTenant();
      const note = (change: (b: Body) => void) =>
        tenantInvoice(t, (b) => {
          Object.assign(b, { invoiceType: 'credit_note', reasonCode: 'PriceCorrection' });
          change(b);
        });
      const unknown = await create(t, note((b) => (b.referencedInvoiceNumber = 'NOT-OURS-1')));
      expectTenantError(unknown, 422, 'original_invoice_not_found');
      expect(findings(unknown)).to.deep.equal(['original_invoice_not_found referencedInvoiceNumber']);
      expect(unknown.body.errors[0].message).to.contain('ibr-055-ae').and.contain('referencedInvoiceIssueDate');
      // An invoice issued before the service: the date is sent.
      await acknowledged(t, note((b) => Object.assign(b, { referencedInvoiceNumber: 'NOT-OURS-1', referencedInvoiceIssueDate: '2024-12-30' })));

      const original = tenantInvoice(t);
      expect((await create(t, original)).status).to.equal(201);
      const over = await create(t, note((b) => Object.assign(b, { referencedInvoiceNumber: original.number, lines: [{ ...b.lines[0], quantity: 11 }] })));
      expectTenantError(over, 422, 'credit_exceeds_original');
      expect(findings(over)).to.deep.equal(['credit_exceeds_original lines']);
      expect(over.body.errors[0].message).to.contain('at most 1575.00 AED');
    });

    it('2 and 3. CSV notes: the reasonCode column (plain and Arabic headers, empty -> OtherAdjustment), the old headers too; notes reach the XML', async () => {
      const trn = randomTrn();
      const t = await newTenant({ trn });
      const prefix = `E${randomUUID().slice(0, 6)}-`;
      // invoice 0: a sale with a notes cell; 1: a credit note against it (empty reason); 2: a debit note with a reason
      const noteRows = (reason: string | null): BadRow[] => [
        { invoice: 0, column: 'notes', value: 'Paid by card, ref 7781' },
        { invoice: 1, column: 'invoiceType', value: 'credit_note' },
        { invoice: 1, column: 'referencedInvoiceNumber', value: csvInvoiceNumber(0, prefix) },
        { invoice: 1, column: 'lineUnitPrice', value: '40' },
        { invoice: 2, column: 'invoiceType', value: 'debit_note' },
        { invoice: 2, column: 'referencedInvoiceNumber', value: csvInvoiceNumber(0, prefix) },
        ...(reason === null ? [] : [{ invoice: 2, column: 'reasonCode' as const, value: reason }]),
      ];
      for (const [arabic, reasonColumn] of [[false, true], [true, true], [false, false], [true, false]] as const) {
        const p = `${prefix}${arabic ? 'A' : 'P'}${reasonColumn ? 'R' : ''}`;
        const rows = noteRows(reasonColumn ? 'PriceCorrection' : null).map((r) => (r.column === 'referencedInvoiceNumber' ? { ...r, value: csvInvoiceNumber(0, p) } : r));
        const res = await upload(t, tenantCsv(3, 1, { sellerTrn: trn, numberPrefix: p, arabic, reasonColumn, badRows: rows }));
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.errors, JSON.stringify(res.body.errors)).to.deep.equal([]);
        expect(res.body.invoices).to.include({ created: 3, rejected: 0 });
        const ids: Record<string, string> = Object.fromEntries(res.body.results.map((r: any) => [r.number, r.id]));
        const sale = await submitted(t, ids[csvInvoiceNumber(0, p)]);
        expect(sale.xml).to.contain('<cbc:Note>Tax invoice: Paid by card, ref 7781</cbc:Note>');
        const credit = await submitted(t, ids[csvInvoiceNumber(1, p)]);
        expect(credit.view).to.include({ invoiceType: 'credit_note' });
        expect(credit.xml).to.contain('<cbc:ResponseCode>DL8.61.1.C</cbc:ResponseCode>'); // OtherAdjustment -> 05
        expect(credit.xml).to.contain('<cbc:IssueDate>2025-01-15</cbc:IssueDate></cac:InvoiceDocumentReference>');
        await submitted(t, ids[csvInvoiceNumber(2, p)]);
      }
      // A reason the API does not know: refused in its column.
      const p = `${prefix}X`;
      const bad = await upload(t, tenantCsv(2, 1, { sellerTrn: trn, numberPrefix: p, reasonColumn: true, badRows: [
        { invoice: 1, column: 'invoiceType', value: 'credit_note' },
        { invoice: 1, column: 'referencedInvoiceNumber', value: csvInvoiceNumber(0, p) },
        { invoice: 1, column: 'reasonCode', value: 'Goodwill' },
      ] }));
      expect(bad.body.errors.map((e: any) => `${e.invoiceNumber} ${e.column} ${e.code}`)).to.deep.equal([`${csvInvoiceNumber(1, p)} reasonCode invalid_enum`]);
      expect(bad.body.errors[0].message).to.contain('ReturnOfGoods, PriceCorrection, OtherAdjustment');
    });

    it('1 and 2. notes of one CSV against one original share its cap: the one that credits past it is refused in its row', async () => {
      const trn = randomTrn();
      const t = await newTenant({ trn });
      const p = `C${randomUUID().slice(0, 6)}-`;
      const note = (i: number): BadRow[] => [
        { invoice: i, column: 'invoiceType', value: 'credit_note' },
        { invoice: i, column: 'referencedInvoiceNumber', value: csvInvoiceNumber(0, p) },
        { invoice: i, column: 'lineUnitPrice', value: '60' },
      ];
      // invoice 0: 100.00 + 5 % = 105.00 AED; two notes of 63.00 AED each
      const res = await upload(t, tenantCsv(3, 1, { sellerTrn: trn, numberPrefix: p, reasonColumn: true, badRows: [...note(1), ...note(2)] }));
      expect(res.body.invoices).to.include({ created: 2, rejected: 1 });
      expect(res.body.errors.map((e: any) => `${e.invoiceNumber} ${e.code}`)).to.deep.equal([`${csvInvoiceNumber(2, p)} credit_exceeds_original`]);
      expect(res.body.errors[0].message).to.contain('at most 42.00 AED');
    });

    it('3. notes (JSON) are in the document the ASP receives, which the official Schematron accepts', async () => {
      const t = await newTenant();
      const { xml } = await acknowledged(t, tenantInvoice(t, (b) => (b.notes = 'Delivery to gate 4 & sign "on receipt"')));
      expect(xml).to.contain('<cbc:Note>Tax invoice: Delivery to gate 4 &amp; sign "on receipt"</cbc:Note>');
    });

    it('4. reverse charge: goodsType and hsCode on the line (both shapes) go through; without them, refused naming each path and rule', async () => {
      const t = await newTenant();
      const { xml } = await acknowledged(t, tenantInvoice(t, (b) => (b.lines = [rcLine({ goodsType: 'DL8.48.8.2', hsCode: '8517.13' })])));
      expect(xml).to.contain('<cbc:NatureCode>DL8.48.8.2</cbc:NatureCode>');
      const alternative = (item: Body) => ({ invoiceNumber: `A-${randomUUID().slice(0, 8)}`, issueDate: '2025-02-07', currency: 'AED', buyer: { legalName: 'Noor Electronics LLC', trn: '100987654300003', address: 'Khalifa Street 12, Abu Dhabi' }, items: [{ name: 'Gold bar', quantity: 1, unitPrice: 5000, tax: 'REVERSE_CHARGE', ...item }] });
      const alt = await acknowledged(t, alternative({ hsCode: '7108.12' }));
      expect(alt.xml).to.contain('<cbc:NatureCode>DL8.48.8.1</cbc:NatureCode>');

      const missing = await create(t, tenantInvoice(t, (b) => (b.lines = [rcLine()])));
      expectTenantError(missing, 422, 'pint_ae_validation_failed');
      expect(findings(missing)).to.deep.equal(['hs_code_required lines[0].hsCode', 'goods_type_required lines[0].goodsType']);
      expect(missing.body.errors[0].message).to.contain('ibr-174-ae');
      expect(missing.body.errors[1].message).to.contain('ibr-006-ae').and.contain('DL8.48.3.1 (Crude or refined oil)');
      const altMissing = await create(t, alternative({}));
      expect(findings(altMissing)).to.deep.equal(['hs_code_required items[0].hsCode', 'goods_type_required items[0].goodsType']);
      const noBuyerTrn = await create(t, tenantInvoice(t, (b) => {
        b.buyer = b2cBuyer();
        b.lines = [rcLine({ goodsType: 'DL8.48.8.2', hsCode: '8517.13' })];
      }));
      expect(findings(noBuyerTrn)).to.deep.equal(['trn_required buyer.trn']);
      expect(noBuyerTrn.body.errors[0].message).to.contain('ibr-103-ae');
    });

    it('5. all exempt or all out of scope: a commercial invoice (480), acknowledged; without the buyer\'s legal registration, ibr-136-ae names buyer.tradeLicenseNumber', async () => {
      const t = await newTenant();
      for (const taxCategory of ['exempt_financial', 'exempt_residential_rent', 'out_of_scope']) {
        const { view, xml } = await acknowledged(t, tenantInvoice(t, (b) => {
          b.buyer.tradeLicenseNumber = BUYER_TL;
          b.lines = [{ description: 'Service fee', quantity: 1, unitPrice: 250, vatRate: 0, taxCategory }, { description: 'Other fee', quantity: 1, unitPrice: 50, vatRate: 0, taxCategory }];
        }));
        expect(view).to.include({ invoiceType: 'sale', documentType: 'commercial_invoice' });
        expect(xml).to.contain('<cbc:InvoiceTypeCode>480</cbc:InvoiceTypeCode>');
      }
      const noLicence = await create(t, tenantInvoice(t, (b) => (b.lines = [{ description: 'Fee', quantity: 1, unitPrice: 250, vatRate: 0, taxCategory: 'out_of_scope' }])));
      expectTenantError(noLicence, 422, 'pint_ae_validation_failed');
      expect(findings(noLicence)).to.deep.equal(['legal_registration_required buyer.tradeLicenseNumber']);
      expect(noLicence.body.errors[0].message).to.contain('ibr-136-ae');
    });

    it('6. B2C: a buyer with a name and an address, no TRN: simplified tax invoice, acknowledged (both shapes)', async () => {
      const t = await newTenant();
      const { view, xml } = await acknowledged(t, tenantInvoice(t, (b) => (b.buyer = b2cBuyer())));
      expect(view).to.include({ documentType: 'simplified_tax_invoice' });
      expect(xml).to.contain('<cbc:Note>Simplified tax invoice</cbc:Note>');
      expect(xml).to.match(/<cbc:EndpointID schemeID="0235">9900000098<\/cbc:EndpointID><cac:PartyIdentification><cbc:ID>CUST-[0-9A-F]{12}<\/cbc:ID>/);
      const alt = await acknowledged(t, { invoiceNumber: `A-${randomUUID().slice(0, 8)}`, issueDate: '2025-02-07', currency: 'AED', buyer: { legalName: 'Aisha Rahman', address: 'Villa 7, Al Barsha, Dubai' }, items: [{ name: 'Phone case', quantity: 1, unitPrice: 80, taxPercent: 5 }] });
      expect(alt.view).to.include({ documentType: 'simplified_tax_invoice' });
      // Without an address the rules have nothing to identify the buyer by: refused naming buyer.address.
      const noAddress = await create(t, tenantInvoice(t, (b) => (b.buyer = { name: 'Aisha Rahman' })));
      expectTenantError(noAddress, 422, 'pint_ae_validation_failed');
      expect(findings(noAddress)).to.include('address_required buyer.address');
    });
  });

  it('the Tenant fixtures of the README (JSON invoice, Arabic CSV with the old header) still go through', async () => {
    const trn = randomTrn();
    const t = await newTenant({ trn });
    const fixtures = path.join(__dirname, '../fixtures/tenant');
    const invoice = JSON.parse(fs.readFileSync(path.join(fixtures, 'invoice.json'), 'utf8'));
    invoice.seller.trn = trn;
    await acknowledged(t, invoice);
    const csv = fs.readFileSync(path.join(fixtures, 'invoices-arabic.csv'), 'utf8').replaceAll('100234567800003', trn);
    const res = await upload(t, csv);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.errors).to.deep.equal([]);
    expect(res.body.invoices.rejected).to.equal(0);
    await submitted(t, res.body.results[0].id);
  });

  describe('sandbox mode (the ASP simulator validates the XML it receives)', () => {
    let sim: AspSimulator;
    before(async () => {
      sim = await startAspSimulator('PROVIDER_SANDBOX_URL');
    });
    after(() => stopAspSimulator(sim));

    it('cases 1, 3, 4, 5 and 6 are acknowledged with the authority reference', async () => {
      const t = await newTenant({ mode: 'sandbox' });
      const original = tenantInvoice(t, (b) => (b.notes = 'Sandbox note'));
      const bodies: Body[] = [
        original,
        tenantInvoice(t, (b) => Object.assign(b, { invoiceType: 'credit_note', referencedInvoiceNumber: original.number, reasonCode: 'OtherAdjustment' })),
        tenantInvoice(t, (b) => (b.lines = [rcLine({ hsCode: '8471.30' })])),
        tenantInvoice(t, (b) => {
          b.buyer.tradeLicenseNumber = BUYER_TL;
          b.lines = [{ description: 'Interest', quantity: 1, unitPrice: 90, vatRate: 0, taxCategory: 'exempt_financial' }];
        }),
        tenantInvoice(t, (b) => (b.buyer = b2cBuyer())),
      ];
      for (const body of bodies) {
        const { view, xml } = await acknowledged(t, body);
        expect(view.ackRef, body.number).to.match(/^FTA-/);
        expect(sim.submissionsFor(`${view.id}-1`)).to.equal(1);
        if (body === original) expect(xml).to.contain('<cbc:Note>Tax invoice: Sandbox note</cbc:Note>');
      }
    });
  });
});
