/**
 * Tax breakdown (TaxSubtotal) and tax categories: standard (S), zero rated (Z), exempt (E), out of
 * scope (O), reverse charge (AE) and standard rate additional VAT (N), on lines, on document level
 * allowances/charges and in the breakdown (PINT-jurisdiction-aligned-rules, plus ibr-sr-32).
 *
 * Breakdown sums are memoised per document (and per category/rate), so a document with many lines
 * and many subtotals is still evaluated in linear time.
 */
import * as dslModule from '../dsl';
import type { Ctx, Rule } from '../engine';
import type { LineName } from '../shared';
import * as sharedModule from '../shared';
import type { El } from '../xml';
import * as xpathModule from '../xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { CAC, CBC, cac, contextIs, count, has, p, path } = dslModule;
const { SLACK, categoryBase, categoryCode, existsChargeWithRate, existsLineWithRate, exactlyOneDecimal, isVat, sumChargesWithRate, sumLinesWithRate } = sharedModule;
const { castableDecimal, castableDecimalNodes, decOpt, decimalOf, divDec, normalizeSpace, optValue, round2, slack, someBoolInPattern, someEq, someNe, someNum, toDecimal, HUNDRED, isPositiveDec } = xpathModule;

type Code = 'S' | 'Z' | 'E' | 'O' | 'AE' | 'N';

const VAT_PRED = "[cac:TaxScheme/normalize-space(upper-case(cbc:ID))='VAT']";

/** Paths read on every line's tax category, parsed once. */
const P = {
  percent: path('cbc:Percent'),
  categoryId: path('cac:TaxCategory/cbc:ID'),
  lineTaxAmount: path('../../cac:ItemPriceExtension/cac:TaxTotal/cbc:TaxAmount'),
};

const inLineItem = contextIs('cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory', 'cac:CreditNoteLine/cac:Item/cac:ClassifiedTaxCategory');

/** `cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'X'][VAT] | cac:CreditNoteLine/...` */
function lineCategory(code: Code): Pick<Rule, 'context' | 'names' | 'match'> {
  const one = (line: string) => `cac:${line}/cac:Item/cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = '${code}']${VAT_PRED}`;
  return {
    context: `${one('InvoiceLine')} | ${one('CreditNoteLine')}`,
    names: [cac('ClassifiedTaxCategory')],
    match: (el, ctx) => inLineItem(el) && categoryCode(el) === code && isVat(ctx, el),
  };
}

/** `cac:AllowanceCharge[cbc:ChargeIndicator=false()]/cac:TaxCategory[normalize-space(cbc:ID)='X'][VAT]` (or true()). */
function chargeCategory(code: Code, charge: boolean): Pick<Rule, 'context' | 'names' | 'match'> {
  return {
    context: `cac:AllowanceCharge[cbc:ChargeIndicator=${charge}()]/cac:TaxCategory[normalize-space(cbc:ID)='${code}']${VAT_PRED}`,
    names: [cac('TaxCategory')],
    match: (el, ctx) => {
      const ac = el.parent;
      if (!ac || !ac.is(CAC, 'AllowanceCharge') || !someBoolInPattern(ac.children(CBC, 'ChargeIndicator'), charge)) return false;
      return categoryCode(el) === code && isVat(ctx, el);
    },
  };
}

/** `/*\/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory[normalize-space(cbc:ID) = 'X'][VAT]` */
function breakdownCategory(code: Code): Pick<Rule, 'context' | 'names' | 'match'> {
  return {
    context: `/*/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory[normalize-space(cbc:ID) = '${code}']${VAT_PRED}`,
    names: [cac('TaxCategory')],
    match: (el, ctx) => {
      const sub = el.parent;
      const total = sub?.parent;
      if (!sub || !total || !sub.is(CAC, 'TaxSubtotal') || !total.is(CAC, 'TaxTotal') || !total.parent || total.parent.parent !== null) return false;
      return categoryCode(el) === code && isVat(ctx, el);
    },
  };
}

const percents = (el: El) => el.children(CBC, 'Percent');
const noPercent = (el: El) => !has(el, P.percent);
/** `cbc:Percent castable as xs:decimal and xs:decimal(cbc:Percent) <op> 0` */
const percentIs = (el: El, positive: boolean) => {
  if (!castableDecimalNodes(percents(el))) return false;
  const v = decOpt(percents(el), 'cbc:Percent')!;
  return positive ? isPositiveDec(v) : v.isZero();
};
/** `xs:decimal(../cbc:TaxAmount) = 0` */
const breakdownTaxIsZero = (el: El) => {
  const v = decOpt(p(el, '../cbc:TaxAmount'), '../cbc:TaxAmount');
  return v !== undefined && v.isZero();
};
/** `../../cac:ItemPriceExtension/cac:TaxTotal/cbc:TaxAmount = 0` (BTAE-08 is zero) */
const lineTaxIsZero = (el: El) => someNum(p(el, P.lineTaxAmount), '=', 0);

/**
 * The -08 rules of E, Z, O and AE: the breakdown's taxable amount equals Σ lines + Σ charges -
 * Σ allowances of that category (exact decimal equality), for invoice lines, else credit note lines.
 */
function breakdownBaseExact(code: Code) {
  return (el: El, ctx: Ctx): boolean => {
    for (const lineName of ['InvoiceLine', 'CreditNoteLine'] as LineName[]) {
      if (ctx.all(CAC, lineName).length === 0) continue;
      const taxable = decOpt(p(el, '../cbc:TaxableAmount'), '../cbc:TaxableAmount');
      const base = categoryBase(ctx, lineName, code);
      if (taxable !== undefined && taxable.eq(base)) return true;
    }
    return false;
  };
}

/**
 * aligned-ibrp-s-08 (S, with allowances/charges) and ibr-102-ae (N, lines only): for the breakdown's
 * rate, some line (or allowance/charge) uses that category and rate, and the taxable amount equals
 * their net sum within u:slack 0.02.
 */
function breakdownBaseWithinSlack(code: 'S' | 'N') {
  const withCharges = code === 'S';
  return (el: El, ctx: Ctx): boolean => {
    if (!castableDecimalNodes(percents(el))) return false;
    const rate = decOpt(percents(el), 'cbc:Percent')!;
    for (const lineName of ['InvoiceLine', 'CreditNoteLine'] as LineName[]) {
      const used = existsLineWithRate(ctx, lineName, code, rate) || (withCharges && existsChargeWithRate(ctx, code, rate));
      if (!used) continue;
      const taxable = exactlyOneDecimal(el, '../cbc:TaxableAmount');
      let base = sumLinesWithRate(ctx, lineName, code, rate);
      if (withCharges) base = base.plus(sumChargesWithRate(ctx, true, code, rate)).minus(sumChargesWithRate(ctx, false, code, rate));
      if (slack(taxable, base, SLACK)) return true;
    }
    return false;
  };
}

export const taxRules: Rule[] = [
  // ---- PINT-UBL-validation, UBL-model
  {
    pattern: 'UBL-model',
    seq: 41,
    context: '//cac:TaxSubtotal',
    names: [cac('TaxSubtotal')],
    asserts: [{ id: 'ibr-sr-32', test: (el) => count(el, 'cac:TaxCategory/cbc:TaxExemptionReason') <= 1 }],
  },

  // ---- PINT-jurisdiction-aligned-rules, UBL-modelaligned
  {
    pattern: 'UBL-modelaligned',
    seq: 16,
    context: 'cac:TaxSubtotal',
    names: [cac('TaxSubtotal')],
    asserts: [
      { id: 'aligned-ibrp-045', test: (el) => has(el, 'cbc:TaxableAmount') },
      { id: 'aligned-ibrp-046', test: (el) => has(el, 'cbc:TaxAmount') },
      { id: 'aligned-ibrp-047', test: (el, ctx) => el.children(CAC, 'TaxCategory').some((tc) => isVat(ctx, tc) && tc.hasChild(CBC, 'ID')) },
      {
        id: 'aligned-ibrp-048',
        test: (el, ctx) => {
          const categories = el.children(CAC, 'TaxCategory');
          if (categories.some((tc) => isVat(ctx, tc) && tc.hasChild(CBC, 'Percent'))) return true;
          return categories.some((tc) => isVat(ctx, tc) && ['O', 'E'].includes(categoryCode(tc)));
        },
      },
      {
        id: 'ibr-119-ae',
        test: (el) => {
          const exemptOrOutOfScope = someEq(p(el, P.categoryId), 'O', 'E');
          const rate = has(el, 'cac:TaxCategory/cbc:Percent');
          return (exemptOrOutOfScope && !rate) || (!exemptOrOutOfScope && rate);
        },
      },
    ],
  },
  // standard rate (S)
  {
    pattern: 'UBL-modelaligned',
    seq: 17,
    ...lineCategory('S'),
    asserts: [{ id: 'aligned-ibrp-s-05', test: (el) => percentIs(el, true) }],
  },
  { pattern: 'UBL-modelaligned', seq: 18, ...chargeCategory('S', false), asserts: [{ id: 'aligned-ibrp-s-06', test: (el) => percentIs(el, true) }] },
  { pattern: 'UBL-modelaligned', seq: 19, ...chargeCategory('S', true), asserts: [{ id: 'aligned-ibrp-s-07', test: (el) => percentIs(el, true) }] },
  {
    pattern: 'UBL-modelaligned',
    seq: 20,
    ...breakdownCategory('S'),
    asserts: [
      { id: 'aligned-ibrp-s-08', test: breakdownBaseWithinSlack('S') },
      {
        id: 'aligned-ibrp-s-09',
        test: (el) => {
          const taxable = p(el, '../cbc:TaxableAmount');
          const tax = p(el, '../cbc:TaxAmount');
          if (!(castableDecimalNodes(percents(el)) && castableDecimalNodes(taxable) && castableDecimalNodes(tax))) return false;
          const rate = decimalOf(percents(el)[0]);
          const expected = round2(decimalOf(taxable[0]).abs().times(divDec(rate, HUNDRED)));
          return slack(decimalOf(tax[0]).abs(), expected, SLACK);
        },
      },
      { id: 'aligned-ibrp-s-10', test: (el) => !has(el, 'cbc:TaxExemptionReason') && !has(el, 'cbc:TaxExemptionReasonCode') },
    ],
  },
  // standard rate additional VAT (N)
  {
    pattern: 'UBL-modelaligned',
    seq: 21,
    ...breakdownCategory('N'),
    asserts: [
      { id: 'ibr-102-ae', test: breakdownBaseWithinSlack('N') },
      { id: 'ibr-108-ae', test: (el) => someNum(p(el, '../cbc:TaxAmount'), '=', 0) },
    ],
  },
  // exempt (E)
  {
    pattern: 'UBL-modelaligned',
    seq: 22,
    ...breakdownCategory('E'),
    asserts: [
      { id: 'aligned-ibrp-e-08', test: breakdownBaseExact('E') },
      { id: 'aligned-ibrp-e-09', test: breakdownTaxIsZero },
      { id: 'ibr-121-ae', test: noPercent },
    ],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 23,
    ...lineCategory('E'),
    asserts: [
      { id: 'aligned-ibrp-e-05', test: noPercent },
      { id: 'ibr-163-ae', test: (el) => !has(el, P.lineTaxAmount) },
    ],
  },
  { pattern: 'UBL-modelaligned', seq: 24, ...chargeCategory('E', false), asserts: [{ id: 'aligned-ibrp-e-06', test: (el) => percentIs(el, false) }] },
  { pattern: 'UBL-modelaligned', seq: 25, ...chargeCategory('E', true), asserts: [{ id: 'aligned-ibrp-e-07', test: (el) => percentIs(el, false) }] },
  // zero rated (Z)
  {
    pattern: 'UBL-modelaligned',
    seq: 26,
    ...lineCategory('Z'),
    asserts: [
      { id: 'aligned-ibrp-z-05', test: (el) => percentIs(el, false) },
      { id: 'ibr-165-ae', test: lineTaxIsZero },
    ],
  },
  { pattern: 'UBL-modelaligned', seq: 27, ...chargeCategory('Z', false), asserts: [{ id: 'aligned-ibrp-z-06', test: (el) => percentIs(el, false) }] },
  { pattern: 'UBL-modelaligned', seq: 28, ...chargeCategory('Z', true), asserts: [{ id: 'aligned-ibrp-z-07', test: (el) => percentIs(el, false) }] },
  {
    pattern: 'UBL-modelaligned',
    seq: 29,
    ...breakdownCategory('Z'),
    asserts: [
      { id: 'aligned-ibrp-z-08', test: breakdownBaseExact('Z') },
      { id: 'aligned-ibrp-z-09', test: breakdownTaxIsZero },
      { id: 'ibr-120-ae', test: (el) => someNum(percents(el), '=', 0) },
    ],
  },
  // out of scope (O)
  { pattern: 'UBL-modelaligned', seq: 30, ...lineCategory('O'), asserts: [{ id: 'aligned-ibrp-o-05', test: noPercent }] },
  { pattern: 'UBL-modelaligned', seq: 31, ...chargeCategory('O', false), asserts: [{ id: 'aligned-ibrp-o-06', test: noPercent }] },
  { pattern: 'UBL-modelaligned', seq: 32, ...chargeCategory('O', true), asserts: [{ id: 'aligned-ibrp-o-07', test: noPercent }] },
  {
    pattern: 'UBL-modelaligned',
    seq: 33,
    ...breakdownCategory('O'),
    asserts: [
      { id: 'aligned-ibrp-o-08', test: breakdownBaseExact('O') },
      { id: 'aligned-ibrp-o-09', test: breakdownTaxIsZero },
      { id: 'aligned-ibrp-o-11-ae', test: noPercent },
    ],
  },
  // reverse charge (AE)
  {
    pattern: 'UBL-modelaligned',
    seq: 34,
    ...lineCategory('AE'),
    asserts: [
      { id: 'aligned-ibrp-ae-05-ae', test: (el) => has(el, P.percent) },
      { id: 'ibr-103-ae', test: (el) => has(el, '../../../cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID') },
      { id: 'ibr-162-ae', test: lineTaxIsZero },
      {
        id: 'ibr-174-ae',
        test: (el) => {
          const ids = p(el, '../cac:StandardItemIdentification/cbc:ID');
          const schemes = ids.map((i) => i.attr('schemeID')).filter((s): s is string => s !== undefined);
          return !(ids.length === 0 || someNe(schemes, '0160'));
        },
      },
    ],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 35,
    ...chargeCategory('AE', false),
    asserts: [{ id: 'aligned-ibrp-ae-06', test: reverseChargeRateZero }],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 36,
    ...chargeCategory('AE', true),
    asserts: [{ id: 'aligned-ibrp-ae-07', test: reverseChargeRateZero }],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 37,
    ...breakdownCategory('AE'),
    asserts: [
      { id: 'aligned-ibrp-ae-08-ae', test: breakdownBaseExact('AE') },
      { id: 'aligned-ibrp-ae-09-ae', test: breakdownTaxIsZero },
    ],
  },
];

/** `exists(cbc:Percent) and normalize-space(cbc:Percent) != '' and cbc:Percent castable as xs:decimal and xs:decimal(normalize-space(cbc:Percent)) = 0` */
function reverseChargeRateZero(el: El): boolean {
  if (!has(el, P.percent)) return false;
  const v = normalizeSpace(optValue(percents(el), 'cbc:Percent'));
  if (v === '') return false;
  if (!castableDecimalNodes(percents(el))) return false;
  return castableDecimal(v) && toDecimal(v).isZero();
}
