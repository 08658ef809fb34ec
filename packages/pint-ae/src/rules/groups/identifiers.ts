/**
 * Identifier format rules by scheme (PINT-UBL-validation, pattern UBL-model, rules 1-9): GLN,
 * Swedish, Norwegian, Danish, Belgian, Italian and Australian identifiers used as endpoint, party
 * identifier or legal registration identifier.
 */
import * as checkDigitsModule from '../check-digits';
import * as dslModule from '../dsl';
import type { Rule } from '../engine';
import type { El } from '../xml';
import * as xpathModule from '../xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { abn, checkCF, checkCodiceIPA, checkPIVAseIT, gln, mod11, mod97be } = checkDigitsModule;
const { CAC, cbc } = dslModule;
const { matches, normalizeSpace, stringLength, substring, textOpt, translate, numberOf } = xpathModule;

const NAMES = [cbc('EndpointID'), cbc('ID'), cbc('CompanyID')] as const;

/** `cbc:EndpointID[@schemeID = X] | cac:PartyIdentification/cbc:ID[@schemeID = X] | cbc:CompanyID[@schemeID = X]` */
function schemeContext(...schemes: string[]) {
  return {
    names: NAMES,
    match: (el: El) => {
      const s = el.attr('schemeID');
      if (s === undefined || !schemes.includes(s)) return false;
      return el.local !== 'ID' || (el.parent !== null && el.parent.is(CAC, 'PartyIdentification'));
    },
  };
}

function contextFor(...schemes: string[]): string {
  return schemes
    .map((s) => `cbc:EndpointID[@schemeID = '${s}'] | cac:PartyIdentification/cbc:ID[@schemeID = '${s}'] | cbc:CompanyID[@schemeID = '${s}']`)
    .join(' | ');
}

const ns = (el: El) => normalizeSpace(el.value);

export const identifierRules: Rule[] = [
  {
    pattern: 'UBL-model',
    seq: 1,
    context: contextFor('0088'),
    ...schemeContext('0088'),
    asserts: [{ id: 'ibr-068', test: (el) => matches(ns(el), '^[0-9]+$') && gln(ns(el)) }],
  },
  {
    pattern: 'UBL-model',
    seq: 2,
    context: contextFor('0007'),
    ...schemeContext('0007'),
    asserts: [{ id: 'ibr-127', test: (el) => stringLength(ns(el)) === 10 && !Number.isNaN(numberOf(ns(el))) }],
  },
  {
    pattern: 'UBL-model',
    seq: 3,
    context: contextFor('0192'),
    ...schemeContext('0192'),
    asserts: [{ id: 'ibr-069', test: (el) => matches(ns(el), '^[0-9]{9}$') && mod11(ns(el)) }],
  },
  {
    pattern: 'UBL-model',
    seq: 4,
    context: contextFor('0184'),
    ...schemeContext('0184'),
    asserts: [
      {
        id: 'ibr-070',
        // uses text(), not normalize-space(): several text nodes are a dynamic error
        test: (el) =>
          stringLength(textOpt(el)) === 10 &&
          substring(textOpt(el), 1, 2) === 'DK' &&
          stringLength(translate(substring(textOpt(el), 3, 8), '1234567890', '')) === 0,
      },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 5,
    context: contextFor('0208'),
    ...schemeContext('0208'),
    asserts: [{ id: 'ibr-113', test: (el) => matches(ns(el), '^[0-9]{10}$') && mod97be(ns(el)) }],
  },
  {
    pattern: 'UBL-model',
    seq: 6,
    context: contextFor('0201'),
    ...schemeContext('0201'),
    asserts: [{ id: 'ibr-114', test: (el) => checkCodiceIPA(ns(el)) }],
  },
  {
    pattern: 'UBL-model',
    seq: 7,
    context: contextFor('0210', '9907'),
    ...schemeContext('0210', '9907'),
    asserts: [{ id: 'ibr-115', test: (el) => checkCF(ns(el)) }],
  },
  {
    pattern: 'UBL-model',
    seq: 8,
    context: contextFor('0211', '9906'),
    ...schemeContext('0211', '9906'),
    asserts: [{ id: 'ibr-116', test: (el) => checkPIVAseIT(ns(el)) }],
  },
  {
    pattern: 'UBL-model',
    seq: 9,
    context: contextFor('0151'),
    ...schemeContext('0151'),
    asserts: [{ id: 'ibr-120', test: (el) => matches(ns(el), '^[0-9]{11}$') && abn(ns(el)) }],
  },
];
