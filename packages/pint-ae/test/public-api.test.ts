// The one entry, as a user imports it: render the sample invoice, check it natively and officially, refuse what
// preSubmitCheck holds, and the code lists. Run against dist/ too (scripts/test-packed.sh), where `../src` is the
// shipped index.
import { expect } from 'chai';
import {
  computeTotals,
  EMIRATE_CODES,
  InvoiceNotRenderableError,
  ISO4217,
  preSubmitCheck,
  renderInvoice,
  runOfficialSchematron,
  sampleInvoice,
  UNECE_REC20,
  validateDocument,
  validatePintAeNative,
  XmlParseError,
} from '../src';
import { OFFICIAL_VALIDATOR, SCHEMATRON_DIR } from './official';

type Official = (xml: string) => { fatal: { id: string }[] };

describe('@einvoice/pint-ae public API', () => {
  it('renders the sample invoice, which the native rules and the official Schematron both pass', async () => {
    const body = sampleInvoice(12);
    expect(preSubmitCheck(body)).to.equal(null);
    const xml = renderInvoice(body);
    expect(xml).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?>\s*<Invoice /);
    expect(xml).to.include(`<cbc:PayableAmount currencyID="AED">${computeTotals(body).payable}</cbc:PayableAmount>`);
    expect(validateDocument(xml).fatal).to.deep.equal([]);
    expect(validatePintAeNative(xml).fatal).to.deep.equal([]);
    const official = ((await import(OFFICIAL_VALIDATOR)) as { validatePintAe: Official }).validatePintAe;
    expect(official(xml).fatal).to.deep.equal([]);
  });

  it('gives the same fatal rule ids as the official Schematron on a broken total', async () => {
    const xml = renderInvoice(sampleInvoice(3)).replace(/<cbc:PayableAmount currencyID="AED">[^<]*</, '<cbc:PayableAmount currencyID="AED">1.00<');
    const official = ((await import(OFFICIAL_VALIDATOR)) as { validatePintAe: Official }).validatePintAe;
    const ids = (fatal: { id: string }[]) => [...new Set(fatal.map((f) => f.id))].sort();
    const native = ids(validateDocument(xml).fatal);
    expect(native).to.not.be.empty;
    expect(native).to.deep.equal(ids(official(xml).fatal));
  });

  it('refuses a body preSubmitCheck holds, naming the reason, unless told to skip the checks', () => {
    const body = sampleInvoice(1);
    body.lines[0].vatRate = 5;
    expect(() => renderInvoice(body)).to.throw(InvoiceNotRenderableError).with.property('heldReason', 'vat_rate_percent');
    expect(() => renderInvoice(body, { skipChecks: true })).not.to.throw();
  });

  it('refuses what is not well-formed XML with XmlParseError', () => {
    expect(() => validateDocument('<Invoice>')).to.throw(XmlParseError);
  });

  it('exports the code lists', () => {
    expect(ISO4217.has('AED')).to.equal(true);
    expect(UNECE_REC20.has('H87')).to.equal(true);
    expect(EMIRATE_CODES).to.include('DXB');
  });

  it('runs the official Schematron in a thread with a budget, and says when the budget is spent', async function () {
    this.timeout(120_000);
    const xml = renderInvoice(sampleInvoice(2));
    const checked = await runOfficialSchematron(xml, { dir: SCHEMATRON_DIR, budgetMs: 60_000 });
    expect(checked.kind, JSON.stringify(checked)).to.equal('checked');
    if (checked.kind === 'checked') expect(checked.fatal).to.deep.equal([]);
    const over = await runOfficialSchematron(xml, { dir: SCHEMATRON_DIR, budgetMs: 1 });
    expect(over).to.deep.equal({ kind: 'over_budget', budgetMs: 1 });
  });
});
