// Shortcuts the native validator takes for speed give what the plain evaluation gives: the profile
// found by string searches as by the official runner's regex, upper-case
// without the builtin for strings it would not change, and `//name` lists from the index of the
// names rules asked for (including a name asked for the first time once the index exists).
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { parseXml, profileOf } from '../../../src/pint-ae/rules';
import { CAC, CBC } from '../../../src/pint-ae/rules/dsl';
import { Ctx } from '../../../src/pint-ae/rules/engine';
import { upperCase } from '../../../src/pint-ae/rules/xpath';

const EXAMPLES = path.resolve(__dirname, '../../../../shared/pint-ae/examples');

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
});
