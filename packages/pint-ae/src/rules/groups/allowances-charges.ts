/**
 * Allowances and charges: document level, line level and price level (both official files).
 * The tax-category rules on allowances/charges are in tax-category-rules.ts.
 */
import * as decSumModule from '../dec-sum';
import * as dslModule from '../dsl';
import type { Ctx, Rule } from '../engine';
import * as sharedModule from '../shared';
import type { El } from '../xml';
import * as xpathModule from '../xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { DecSum } = decSumModule;
const { CAC, CBC, CREDIT_NOTE, INVOICE, cac, contextIs, count, has, inLine, p, path } = dslModule;
const { isVat } = sharedModule;
const { castableDecimalNodes, childText, normalizeSpace, numberOpt, someBoolInPattern, someEq } = xpathModule;

/** Paths read on every line's allowances and charges, parsed once. */
const P = {
  amount: path('cbc:Amount'),
  baseAmount: path('cbc:BaseAmount'),
  factor: path('cbc:MultiplierFactorNumeric'),
  reason: path('cbc:AllowanceChargeReason'),
  reasonCode: path('cbc:AllowanceChargeReasonCode'),
  priceAmount: path('../cbc:PriceAmount'),
  categoryId: path('cac:TaxCategory/cbc:ID'),
};

const chargeIndicators = (el: El) => el.children(CBC, 'ChargeIndicator');

/** normalize-space(cbc:ChargeIndicator/text()): all text nodes of all indicators, at most one. */
const indicatorText = (el: El): string => normalizeSpace(childText(el, CBC, 'ChargeIndicator', 'cbc:ChargeIndicator/text()'));

const hasReason = (el: El) => has(el, P.reason) || has(el, P.reasonCode);

/** `not(parent::ubl:Invoice|parent::cn:CreditNote) or exists(cac:TaxCategory[VAT]/cbc:ID)` */
function hasVatCategoryIfDocumentLevel(el: El, ctx: Ctx): boolean {
  const parent = el.parent;
  const documentLevel = parent !== null && (parent.is(INVOICE, 'Invoice') || parent.is(CREDIT_NOTE, 'CreditNote'));
  if (!documentLevel) return true;
  for (const tc of el.children(CAC, 'TaxCategory')) if (isVat(ctx, tc) && tc.hasChild(CBC, 'ID')) return true;
  return false;
}

/** ibr-131-ae / ibr-146-ae: Amount = Base * Percentage / 100, as doubles (number()), exact or rounded to 2. */
function amountMatchesPercentage(el: El): boolean {
  if (!(has(el, P.baseAmount) && has(el, P.factor))) return true;
  const amount = numberOpt(el.children(CBC, 'Amount'), 'cbc:Amount');
  const base = numberOpt(el.children(CBC, 'BaseAmount'), 'cbc:BaseAmount');
  const factor = numberOpt(el.children(CBC, 'MultiplierFactorNumeric'), 'cbc:MultiplierFactorNumeric');
  const exact = (base * factor) / 100;
  if (amount === exact) return true; // NaN never equals
  return amount === Math.round(exact * 100) / 100;
}

const baseAndFactorTogether = (el: El) => {
  const m = has(el, P.factor);
  const b = has(el, P.baseAmount);
  return !(m || b) || (m && b);
};

export const allowanceChargeRules: Rule[] = [
  // ---- PINT-UBL-validation, UBL-model
  {
    pattern: 'UBL-model',
    seq: 10,
    context: 'cac:Price/cac:AllowanceCharge',
    names: [cac('AllowanceCharge')],
    match: contextIs('cac:Price/cac:AllowanceCharge'),
    asserts: [{ id: 'ibr-083', test: (el) => indicatorText(el) === 'false' }],
  },
  {
    pattern: 'UBL-model',
    seq: 11,
    context: 'cac:AllowanceCharge[cbc:ChargeIndicator = false()]',
    names: [cac('AllowanceCharge')],
    match: (el) => someBoolInPattern(chargeIndicators(el), false),
    asserts: [
      { id: 'ibr-sr-30', test: (el) => count(el, P.reason) <= 1 },
      { id: 'ibr-031', test: (el) => inLine(el) || has(el, P.amount) },
      { id: 'ibr-033', test: (el) => inLine(el) || hasReason(el) },
      { id: 'ibr-041', test: (el) => has(el, P.amount) || !inLine(el) },
      { id: 'ibr-042', test: (el) => hasReason(el) || !inLine(el) },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 12,
    context: 'cac:AllowanceCharge[cbc:ChargeIndicator = true()]',
    names: [cac('AllowanceCharge')],
    match: (el) => someBoolInPattern(chargeIndicators(el), true),
    asserts: [
      { id: 'ibr-036', test: (el) => inLine(el) || has(el, P.amount) },
      { id: 'ibr-sr-31', test: (el) => count(el, P.reason) <= 1 },
      { id: 'ibr-038', test: (el) => inLine(el) || hasReason(el) },
      { id: 'ibr-043', test: (el) => has(el, P.amount) || !inLine(el) },
      { id: 'ibr-044', test: (el) => hasReason(el) },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 13,
    context: 'cac:AllowanceCharge',
    names: [cac('AllowanceCharge')],
    asserts: [{ id: 'ibr-082', test: (el) => indicatorText(el) === 'true' || indicatorText(el) === 'false' }],
  },
  {
    pattern: 'UBL-model',
    seq: 14,
    context: 'cac:AllowanceCharge/cac:TaxCategory',
    names: [cac('TaxCategory')],
    match: contextIs('cac:AllowanceCharge/cac:TaxCategory'),
    asserts: [{ id: 'ibr-sr-61', test: (el) => count(el, 'cbc:TaxExemptionReason') <= 1 }],
  },

  // ---- PINT-jurisdiction-aligned-rules, UBL-modelaligned
  {
    pattern: 'UBL-modelaligned',
    seq: 6,
    context: 'cac:Price/cac:AllowanceCharge',
    names: [cac('AllowanceCharge')],
    match: contextIs('cac:Price/cac:AllowanceCharge'),
    asserts: [
      {
        id: 'aligned-ibrp-004',
        test: (el) => {
          if (!has(el, P.baseAmount)) return true;
          const price = p(el, P.priceAmount);
          const base = el.children(CBC, 'BaseAmount');
          const amount = el.children(CBC, 'Amount');
          if (!(castableDecimalNodes(price) && castableDecimalNodes(base) && castableDecimalNodes(amount))) return false;
          // price = base - amount, exactly (each is one castable node here)
          const difference = new DecSum();
          difference.add(base[0]);
          difference.sub(amount[0]);
          return difference.equals(price[0]);
        },
      },
    ],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 10,
    context: 'cac:AllowanceCharge[cbc:ChargeIndicator = false()][not(ancestor::cac:Price)]',
    names: [cac('AllowanceCharge')],
    match: (el) => someBoolInPattern(chargeIndicators(el), false) && el.ancestor(CAC, 'Price') === undefined,
    asserts: [
      { id: 'aligned-ibrp-032', test: (el, ctx) => hasVatCategoryIfDocumentLevel(el, ctx) },
      { id: 'aligned-ibrp-057', test: baseAndFactorTogether },
      { id: 'ibr-131-ae', test: amountMatchesPercentage },
      { id: 'ibr-115-ae', test: (el) => !someEq(p(el, P.categoryId), 'N') },
      { id: 'ibr-168-ae', test: (el) => !(someEq(p(el, P.categoryId), 'E') && !has(el, P.reasonCode)) },
    ],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 11,
    context: 'cac:AllowanceCharge[cbc:ChargeIndicator = true()]',
    names: [cac('AllowanceCharge')],
    match: (el) => someBoolInPattern(chargeIndicators(el), true),
    asserts: [
      { id: 'aligned-ibrp-037', test: (el, ctx) => hasVatCategoryIfDocumentLevel(el, ctx) },
      { id: 'aligned-ibrp-058', test: baseAndFactorTogether },
      { id: 'ibr-146-ae', test: amountMatchesPercentage },
      { id: 'ibr-114-ae', test: (el) => !someEq(p(el, P.categoryId), 'N') },
      { id: 'ibr-169-ae', test: (el) => !(someEq(p(el, P.categoryId), 'E') && !has(el, P.reasonCode)) },
    ],
  },
];
