// Shortcuts the native validator takes for speed give what the plain evaluation gives: the profile
// found by string searches as by the official runner's regex, upper-case
// without the builtin for strings it would not change, and `//name` lists from the index of the
// names rules asked for (including a name asked for the first time once the index exists).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseXml, profileOf } from '../src/rules';
import { CAC, CBC } from '../src/rules/dsl';
import { Ctx } from '../src/rules/engine';
import type { El } from '../src/rules/xml';
import { allCategoryFacts, allLineFacts, codeAt, lineFacts, lineHasCode, lineHasRateAt, netAt, vatAt } from '../src/rules/line-facts';
import { categoryCode, isVatNoNormalize, lineHasCategory, lineHasRate, onlyChild } from '../src/rules/shared';
import { Dec, upperCase } from '../src/rules/xpath';
import { targetedMutants } from './mutations/targeted';
import { EXAMPLES_DIR } from './official';

const EXAMPLES = EXAMPLES_DIR;

describe('native validator shortcuts', () => {
  it('profileOf picks self-billing exactly where the official runner\'s regex matches', () => {
    const official = (xml: string) => (/<cbc:CustomizationID>[^<]*selfbilling/.test(xml) ? 'selfbilling' : 'billing');
    const tag = '<cbc:CustomizationID>';
    const cases = [
      '',
      tag,
      `${tag}urn:selfbilling`,
      `<x>${tag}a</cbc:CustomizationID>${tag} selfbilling</x>`,
      `${tag}self<b/>billing`,
      `zationID>selfbilling`,
      `<cbc:Customi zationID>selfbilling`,
      `<cbc:CustomizationID >selfbilling`,
      `<!-- ${tag}selfbilling -->`,
      `zationID>zationID>${tag}${tag}xselfbilling`,
      `<cbc:CustomizationIDzationID>selfbilling`,
      `${tag}`.repeat(3) + 'selfbillin',
    ];
    for (const xml of cases) expect(profileOf(xml), xml).to.equal(official(xml));
    for (const f of ['billing/inv/Standard tax invoice.xml', 'selfbilling/inv/Self Billing.xml']) {
      const xml = fs.readFileSync(path.join(EXAMPLES, f), 'utf8');
      expect(profileOf(xml), f).to.equal(official(xml));
    }
  });

  it('upperCase is String.prototype.toUpperCase', () => {
    for (const s of ['', 'VAT', 'vat', 'Vat ', ' V A T', 'ß', 'straße', 'ı', 'É', 'VAT\u00e9', '0235', 'a-z_{}', '\u{1f600}x']) {
      expect(upperCase(s)).to.equal(s.toUpperCase());
    }
  });

  it('Ctx.all lists every element of that name in document order, whenever the name is first asked for', () => {
    const xml = fs.readFileSync(path.join(EXAMPLES, 'billing/inv/Standard tax invoice.xml'), 'utf8');
    const names: [string, string][] = [
      [CAC, 'InvoiceLine'],
      [CBC, 'ID'],
      [CAC, 'TaxCategory'],
      [CBC, 'NoSuchElement'],
      [CAC, 'ID'], // a local name asked for in one namespace, then in another
    ];
    for (let round = 0; round < 2; round++) {
      for (let first = 0; first < names.length; first++) {
        const doc = parseXml(xml);
        const ctx = new Ctx(doc, 'billing');
        // each name in turn first, so that the others are asked for after the index was made
        for (const [ns, local] of [...names.slice(first), ...names.slice(0, first)]) {
          const expected = doc.elements.filter((el) => el.ns === ns && el.local === local);
          expect(ctx.all(ns, local)).to.have.ordered.members(expected); // the same element objects
        }
      }
    }
  });

  it('the line facts read what the tree gives, error for error, and cover exactly the documents whose categories are all in root lines', () => {
    const examples = ['billing/inv/Standard.invoice.-.Extensive.xml', 'billing/inv/Summary tax invoice.xml', 'billing/inv/Zero rated supplies.xml'].map((f) => ({
      name: f,
      xml: fs.readFileSync(path.join(EXAMPLES, f), 'utf8'),
    }));
    const documents = [...examples, ...targetedMutants(examples).mutants.filter((m) => /line|categor/.test(m.name))];
    expect(documents.length).to.be.greaterThan(15);
    /** The value, or the message of the error thrown. */
    const outcome = (read: () => unknown) => {
      try {
        return { value: read() };
      } catch (e) {
        return { error: (e as Error).message };
      }
    };
    const rates = ['0', '5', '5.00', '10'].map((r) => new Dec(r));
    let covered = 0;
    for (const { name, xml } of documents) {
      const doc = parseXml(xml);
      const ctx = new Ctx(doc, 'billing');
      for (const lineName of ['InvoiceLine', 'CreditNoteLine'] as const) {
        const facts = lineFacts(ctx, lineName);
        const lines = doc.root.children(CAC, lineName);
        expect(facts.lines, name).to.have.ordered.members(lines);
        lines.forEach((line, i) => {
          const cats = line.children(CAC, 'Item').flatMap((item) => item.children(CAC, 'ClassifiedTaxCategory'));
          expect(facts.cats.slice(facts.first[i], facts.first[i + 1]), name).to.have.ordered.members(cats);
          const where = `${name}, ${lineName} ${i + 1}`;
          expect(outcome(() => netAt(facts, i)), where).to.deep.equal(outcome(() => onlyChild(line, CBC, 'LineExtensionAmount', 'cbc:LineExtensionAmount')));
          for (const code of ['S', 'Z', 'E', 'O', 'AE', '', 'X']) {
            expect(outcome(() => lineHasCode(facts, i, code)), `${where}, code ${code}`).to.deep.equal(outcome(() => lineHasCategory(line, code)));
          }
          for (const rate of rates) {
            expect(outcome(() => lineHasRateAt(facts, i, rate)), `${where}, rate ${rate}`).to.deep.equal(outcome(() => lineHasRate(line, rate)));
          }
        });
        facts.cats.forEach((tc, j) => {
          // the VAT test without normalize-space, on categories whose scheme IDs have no spaces to strip
          expect(outcome(() => vatAt(facts, j)), `${name}, category ${j + 1}`).to.deep.equal(outcome(() => isVatNoNormalize(tc)));
          expect(outcome(() => codeAt(facts, j)), `${name}, category ${j + 1}`).to.deep.equal(outcome(() => categoryCode(tc)));
          expect(facts.hasId[j], `${name}, category ${j + 1}`).to.equal(tc.children(CBC, 'ID').length > 0);
        });
        const all = ctx.all(CAC, lineName);
        expect(allLineFacts(ctx, lineName) !== undefined, name).to.equal(all.length === lines.length && all.every((l, i) => l === lines[i]));
      }
      const categories = ctx.all(CAC, 'ClassifiedTaxCategory');
      const byLines = allCategoryFacts(ctx);
      const lineName = doc.root.children(CAC, 'InvoiceLine').length > 0 ? 'InvoiceLine' : 'CreditNoteLine';
      const inRootLines = (tc: El) => tc.parent?.local === 'Item' && tc.parent.parent?.local === lineName && tc.parent.parent.parent === doc.root;
      expect(byLines !== undefined, name).to.equal(categories.every(inRootLines));
      if (byLines) {
        expect(byLines.cats, name).to.have.ordered.members(categories);
        covered++;
      }
    }
    // all but the four mutants made to fall back: a category in the seller party (two of them), one in a
    // line inside a line, and one in a credit note line among invoice lines
    expect(covered).to.equal(documents.length - 4);
  });
});
