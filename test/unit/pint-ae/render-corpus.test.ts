// The rendered corpus against the official PINT-AE Schematron and the native validator:
// every request body in test/fixtures/bodies renders to a document with no fatal finding.
import { expect } from 'chai';
import { validateInvoiceBody, type InvoiceCreateBody } from '../../../src/domain/invoice-schema';
import { preSubmitCheck, TAX_CATEGORIES, DOCUMENT_TYPES, PAYMENT_MEANS_CODES, CREDIT_NOTE_REASON_CODES, renderInvoice, validatePintAeNative } from '@einvoice/pint-ae';
import { corpus, describeFatal, officialValidator } from './render-helpers';

const bodies = corpus();

function prepared(name: string, raw: unknown): InvoiceCreateBody {
  const { value, errors } = validateInvoiceBody(raw);
  expect(errors, `${name}: shape errors`).to.deep.equal([]);
  const held = preSubmitCheck(value!);
  expect(held, `${name}: held ${JSON.stringify(held)}`).to.equal(null);
  return value!;
}

describe('PINT-AE render corpus', () => {
  it('has at least 30 request bodies covering every documentType, taxCategory, credit reason and payment means', () => {
    expect(bodies.length).to.be.at.least(30);
    const valid = bodies.map((b) => validateInvoiceBody(b.body).value!);
    const docTypes = new Set(valid.map((b) => b.documentType));
    for (const t of DOCUMENT_TYPES) expect(docTypes, `documentType ${t}`).to.include(t);
    const cats = new Set(valid.flatMap((b) => b.lines.map((l) => l.taxCategory)));
    for (const c of TAX_CATEGORIES) expect(cats, `taxCategory ${c}`).to.include(c);
    const reasons = new Set(valid.map((b) => b.creditNoteReasonCode).filter(Boolean));
    for (const r of CREDIT_NOTE_REASON_CODES) expect(reasons, `creditNoteReasonCode ${r}`).to.include(r);
    const means = new Set(valid.map((b) => b.paymentMeansCode).filter(Boolean));
    for (const m of PAYMENT_MEANS_CODES) expect(means, `paymentMeansCode ${m}`).to.include(m);
    expect(valid.some((b) => b.buyer.country !== 'AE'), 'an export').to.equal(true);
    expect(valid.some((b) => b.buyer.legalRegistrationType === 'PAS'), 'a PAS buyer').to.equal(true);
    expect(valid.some((b) => b.seller.legalRegistrationType === 'PAS'), 'a PAS seller').to.equal(true);
    expect(valid.some((b) => b.lines.some((l) => l.discountAmount)), 'a line discount').to.equal(true);
    expect(valid.some((b) => b.lines.some((l) => l.chargeAmount)), 'a line charge').to.equal(true);
    expect(valid.some((b) => b.invoiceType === 'purchase'), 'a purchase').to.equal(true);
  });

  describe('official Schematron (../shared/pint-ae/validate.mjs): no fatal finding', () => {
    let validate: Awaited<ReturnType<typeof officialValidator>>;
    before(async () => {
      validate = await officialValidator();
    });
    for (const { name, body } of bodies) {
      it(name, () => {
        const xml = renderInvoice(prepared(name, body));
        const report = validate(xml);
        expect(report.fatal, describeFatal(report)).to.deep.equal([]);
      });
    }
  });

  describe('native validator (@einvoice/pint-ae): no fatal finding', () => {
    const native = validatePintAeNative;
    for (const { name, body } of bodies) {
      it(name, () => {
        const report = native(renderInvoice(prepared(name, body)));
        expect(report.fatal, describeFatal(report)).to.deep.equal([]);
      });
    }
  });

  describe('xmlbuilder2 reference serializer', () => {
    for (const { name, body } of bodies) {
      it(`${name}: identical output`, () => {
        const value = prepared(name, body);
        expect(renderInvoice(value)).to.equal(renderInvoice(value, { engine: 'xmlbuilder2' }));
      });
    }
  });
});
