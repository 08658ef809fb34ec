/**
 * Document totals (LegalMonetaryTotal), the document tax total, and the amount/currency rule
 * (PINT-UBL-validation, pattern UBL-model). Decimal arithmetic with the official rounding:
 * `round(x * 10 * 10) div 100`, half towards positive infinity.
 */
import * as dslModule from '../dsl';
import type { Ctx, Rule } from '../engine';
import * as sharedModule from '../shared';
import type { El } from '../xml';
import type { Dec } from '../xpath';
import * as xpathModule from '../xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { CAC, CBC, CREDIT_NOTE, INVOICE, cac, cbc, dec1, has, p, str1 } = dslModule;
const { allLinesNet, sumOf } = sharedModule;
const { round2, someBool, stringLength, substringAfter } = xpathModule;

/** At most two decimals: string-length(substring-after(amount, '.')) <= 2 (raw text, no trimming). */
const twoDecimals = (el: El, local: string) => stringLength(substringAfter(str1(el, `cbc:${local}`), '.')) <= 2;

/** EBV of an xs:decimal: absent or zero is false (the engine tests the value as a double). */
const truthy = (d: Dec | undefined) => d !== undefined && d.toNumber() !== 0;

const eq = (a: Dec | undefined, b: Dec | undefined) => a !== undefined && b !== undefined && a.eq(b);

/** The document level cac:AllowanceCharge beside `el` (its parent's). */
const chargesBeside = (el: El) => (el.parent ? el.parent.children(CAC, 'AllowanceCharge') : []);

/** ibr-co-11 / ibr-co-12: document level allowances (charge = false) or charges (charge = true). */
function documentChargesTotal(el: El, local: 'AllowanceTotalAmount' | 'ChargeTotalAmount', charge: boolean): boolean {
  const total = dec1(el, `cbc:${local}`);
  const sum = round2(sumOf(chargesBeside(el).filter((ac) => someBool(ac.children(CBC, 'ChargeIndicator'), charge)), 'Amount'));
  if (eq(total, sum)) return true;
  if (has(el, `cbc:${local}`)) return false;
  return !chargesBeside(el).some((ac) => someBool(ac.children(CBC, 'ChargeIndicator'), charge));
}

// The amounts of a LegalMonetaryTotal the two checks below read, each read where the official
// expression reads it (a second one, or one that is not a number, raises the error there). They
// are functions of the module, not closures made per call: under tsx (esbuild's keepNames) every
// named closure made at run time costs an Object.defineProperty call to name it.
const tea = (el: El) => dec1(el, 'cbc:TaxExclusiveAmount');
const lea = (el: El) => dec1(el, 'cbc:LineExtensionAmount');
const cta = (el: El) => dec1(el, 'cbc:ChargeTotalAmount');
const ata = (el: El) => dec1(el, 'cbc:AllowanceTotalAmount');
const pa = (el: El) => dec1(el, 'cbc:PrepaidAmount');
const pra = (el: El) => dec1(el, 'cbc:PayableRoundingAmount');
const payable = (el: El) => dec1(el, 'cbc:PayableAmount');
const tia = (el: El) => dec1(el, 'cbc:TaxInclusiveAmount');
const minus = (a: Dec | undefined, b: Dec | undefined) => (a && b ? round2(a.minus(b)) : undefined);

/** ibr-co-13: TaxExclusiveAmount = LineExtensionAmount + charges - allowances (rounded to 2). */
function taxExclusiveConsistent(el: El): boolean {
  if (someBool(p(el, '../cac:TaxTotal/cbc:TaxIncludedIndicator'), true)) return true;
  const hasCharges = has(el, 'cbc:ChargeTotalAmount');
  const hasAllowances = has(el, 'cbc:AllowanceTotalAmount');
  if (hasCharges && hasAllowances) {
    const left = tea(el);
    const [l, c, a] = [lea(el), cta(el), ata(el)];
    return eq(left, l && c && a ? round2(l.plus(c).minus(a)) : undefined);
  }
  if (!hasCharges && hasAllowances) {
    const left = tea(el);
    const [l, a] = [lea(el), ata(el)];
    return eq(left, l && a ? round2(l.minus(a)) : undefined);
  }
  if (hasCharges && !hasAllowances) {
    const left = tea(el);
    const [l, c] = [lea(el), cta(el)];
    return eq(left, l && c ? round2(l.plus(c)) : undefined);
  }
  const left = tea(el);
  return eq(left, lea(el));
}

/** ibr-co-16: PayableAmount = TaxInclusiveAmount - PrepaidAmount + PayableRoundingAmount (four cases, as written). */
function payableConsistent(el: El): boolean {
  // (PrepaidAmount and not(PayableRoundingAmount) and Payable = round(TaxInclusive - Prepaid))
  if (truthy(pa(el)) && !truthy(pra(el))) {
    const left = payable(el);
    const [t, q] = [tia(el), pa(el)];
    if (eq(left, minus(t, q))) return true;
  }
  // (not(PrepaidAmount) and not(PayableRoundingAmount) and Payable = TaxInclusive)
  if (!truthy(pa(el)) && !truthy(pra(el))) {
    const left = payable(el);
    if (eq(left, tia(el))) return true;
  }
  // (PrepaidAmount and PayableRoundingAmount and round(Payable - Rounding) = round(TaxInclusive - Prepaid))
  if (truthy(pa(el)) && truthy(pra(el))) {
    const [x, r] = [payable(el), pra(el)];
    const left = minus(x, r);
    const [t, q] = [tia(el), pa(el)];
    if (eq(left, minus(t, q))) return true;
  }
  // (not(PrepaidAmount) and PayableRoundingAmount and round(Payable - Rounding) = TaxInclusive)
  if (!truthy(pa(el)) && truthy(pra(el))) {
    const [x, r] = [payable(el), pra(el)];
    const left = minus(x, r);
    if (eq(left, tia(el))) return true;
  }
  return false;
}

const AMOUNT_NAMES = [
  'Amount',
  'BaseAmount',
  'PriceAmount',
  'LineExtensionAmount',
  'TaxExclusiveAmount',
  'TaxInclusiveAmount',
  'AllowanceTotalAmount',
  'ChargeTotalAmount',
  'PrepaidAmount',
  'PayableRoundingAmount',
  'PayableAmount',
];

/**
 * `cac:TaxTotal[cbc:TaxAmount/@currencyID = /*\/cbc:DocumentCurrencyCode]`. Asked for every amount
 * in a tax total (one per line): the currency set is made once per document, and the test on the
 * tax total reads its few children directly (a per-element memo cost more than the test).
 */
function taxTotalInDocumentCurrency(ctx: Ctx, tt: El | null): boolean {
  if (!tt || !tt.is(CAC, 'TaxTotal')) return false;
  const currencies = documentCurrencies(ctx);
  const kids = tt.kids;
  for (let i = 0; i < kids.length; i++) {
    const ta = kids[i];
    if (!ta.is(CBC, 'TaxAmount')) continue;
    const c = ta.attr('currencyID');
    if (c !== undefined && currencies.has(c)) return true;
  }
  return false;
}

/** The values of `/*\/cbc:DocumentCurrencyCode`, once per document. */
function documentCurrencies(ctx: Ctx): Set<string> {
  return ctx.memo('documentCurrencies', () => new Set(ctx.root.children(CBC, 'DocumentCurrencyCode').map((d) => d.value)));
}

export const totalRules: Rule[] = [
  {
    pattern: 'UBL-model',
    seq: 20,
    context: 'cac:LegalMonetaryTotal',
    names: [cac('LegalMonetaryTotal')],
    asserts: [
      { id: 'ibr-012', test: (el) => has(el, 'cbc:LineExtensionAmount') },
      { id: 'ibr-013', test: (el) => has(el, 'cbc:TaxExclusiveAmount') },
      { id: 'ibr-014', test: (el) => has(el, 'cbc:TaxInclusiveAmount') },
      { id: 'ibr-015', test: (el) => has(el, 'cbc:PayableAmount') },
      { id: 'ibr-091', test: (el) => twoDecimals(el, 'PayableAmount') },
      { id: 'ibr-121', test: (el) => twoDecimals(el, 'AllowanceTotalAmount') },
      { id: 'ibr-122', test: (el) => twoDecimals(el, 'ChargeTotalAmount') },
      { id: 'ibr-123', test: (el) => twoDecimals(el, 'TaxExclusiveAmount') },
      { id: 'ibr-125', test: (el) => twoDecimals(el, 'TaxInclusiveAmount') },
      {
        id: 'ibr-co-10',
        test: (el, ctx) => {
          const total = dec1(el, 'cbc:LineExtensionAmount');
          return eq(total, round2(allLinesNet(ctx)));
        },
      },
      { id: 'ibr-co-11', test: (el) => documentChargesTotal(el, 'AllowanceTotalAmount', false) },
      { id: 'ibr-co-12', test: (el) => documentChargesTotal(el, 'ChargeTotalAmount', true) },
      { id: 'ibr-co-13', test: taxExclusiveConsistent },
      { id: 'ibr-co-16', test: payableConsistent },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 32,
    context:
      'cbc:Amount | cbc:BaseAmount | cbc:PriceAmount | cbc:LineExtensionAmount | cbc:TaxExclusiveAmount | cbc:TaxInclusiveAmount | cbc:AllowanceTotalAmount | cbc:ChargeTotalAmount | cbc:PrepaidAmount | cbc:PayableRoundingAmount | cbc:PayableAmount | cac:TaxTotal[cbc:TaxAmount/@currencyID=/*/cbc:DocumentCurrencyCode]/cbc:TaxAmount | cac:TaxTotal[cbc:TaxAmount/@currencyID=/*/cbc:DocumentCurrencyCode]/cac:TaxSubtotal/cbc:TaxableAmount | cac:TaxTotal[cbc:TaxAmount/@currencyID=/*/cbc:DocumentCurrencyCode]/cac:TaxSubtotal/cbc:TaxAmount',
    names: [...AMOUNT_NAMES.map(cbc), cbc('TaxAmount'), cbc('TaxableAmount')],
    match: (el, ctx) => {
      if (el.local === 'TaxAmount') {
        if (taxTotalInDocumentCurrency(ctx, el.parent)) return true;
        const sub = el.parent;
        return sub !== null && sub.is(CAC, 'TaxSubtotal') && taxTotalInDocumentCurrency(ctx, sub.parent);
      }
      if (el.local === 'TaxableAmount') {
        const sub = el.parent;
        return sub !== null && sub.is(CAC, 'TaxSubtotal') && taxTotalInDocumentCurrency(ctx, sub.parent);
      }
      return true;
    },
    asserts: [
      {
        id: 'ibr-126',
        test: (el, ctx) => {
          if (el.ancestor(CAC, 'ItemPriceExtension')) return true;
          const currencies = ctx.memo('allDocumentCurrencies', () => new Set(ctx.all(CBC, 'DocumentCurrencyCode').map((d) => d.value)));
          const c = el.attr('currencyID');
          return c !== undefined && currencies.has(c);
        },
      },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 40,
    context: '/ubl:Invoice/cac:TaxTotal | /cn:CreditNote/cac:Taxtotal',
    // the credit-note branch names "cac:Taxtotal" (lower-case t), so it never matches a real TaxTotal
    names: [cac('TaxTotal'), cac('Taxtotal')],
    match: (el) => {
      const root = el.parent;
      if (!root || root.parent !== null) return false;
      return el.local === 'TaxTotal' ? root.is(INVOICE, 'Invoice') : root.is(CREDIT_NOTE, 'CreditNote');
    },
    asserts: [
      { id: 'ibr-124', test: (el) => twoDecimals(el, 'TaxAmount') },
      {
        id: 'ibr-co-14',
        test: (el) => {
          const total = dec1(el, 'cbc:TaxAmount');
          const sum = round2(sumOf(el.children(CAC, 'TaxSubtotal'), 'TaxAmount'));
          return eq(total, sum) || !has(el, 'cac:TaxSubtotal');
        },
      },
    ],
  },
];
