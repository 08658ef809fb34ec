/**
 * Invoice / credit note lines: line fields, periods, items, prices, BTAE-08/BTAE-10 (both files).
 * The per-line tax category rules are in tax-category-rules.ts.
 */
import type { PathArg } from '../dsl';
import * as dslModule from '../dsl';
import type { Rule } from '../engine';
import * as sharedModule from '../shared';
import type { El } from '../xml';
import type { NumOp } from '../xpath';
import * as xpathModule from '../xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { CAC, CBC, attrAt, cac, cbc, contextIs, count, has, matchesContext, ns1, one, p, path, typeCodes } = dslModule;
const { categoryCode } = sharedModule;
const { cardinalityError, compareNumbers, dateOpt, decOpt, someEq, someNum, toDate, toDouble, isPositiveDec } = xpathModule;

/** The match `cac:InvoiceLine/X | cac:CreditNoteLine/X` (both paths parsed once, not per element). */
const underLine = (rest: string) => contextIs(`cac:InvoiceLine/${rest}`, `cac:CreditNoteLine/${rest}`);

/** Paths these rules read on every line, parsed once (a path given as a string is a Map lookup per call). */
const P = {
  id: path('cbc:ID'),
  note: path('cbc:Note'),
  description: path('cbc:Description'),
  startDate: path('cbc:StartDate'),
  endDate: path('cbc:EndDate'),
  descriptionCode: path('cbc:DescriptionCode'),
  invoicePeriod: path('cac:InvoicePeriod'),
  invoicedQuantity: path('cbc:InvoicedQuantity'),
  creditedQuantity: path('cbc:CreditedQuantity'),
  lineExtensionAmount: path('cbc:LineExtensionAmount'),
  orderLineId: path('cac:OrderLineReference/cbc:LineID'),
  priceAmount: path('cac:Price/cbc:PriceAmount'),
  baseQuantity: path('cac:Price/cbc:BaseQuantity'),
  priceBaseAmount: path('cac:Price/cac:AllowanceCharge/cbc:BaseAmount'),
  priceChargeAmount: path('cac:Price/cac:AllowanceCharge/cbc:Amount'),
  itemName: path('cac:Item/cbc:Name'),
  ownBaseQuantity: path('cbc:BaseQuantity'), // on cac:Price
  ownChargeBaseAmount: path('cac:AllowanceCharge/cbc:BaseAmount'), // on cac:Price
  itemDescription: path('cac:Item/cbc:Description'),
  lineCategory: path('cac:Item/cac:ClassifiedTaxCategory'),
  lineCategoryId: path('cac:Item/cac:ClassifiedTaxCategory/cbc:ID'),
  lineCategoryPercent: path('cac:Item/cac:ClassifiedTaxCategory/cbc:Percent'),
  lineExemptionReason: path('cac:Item/cac:ClassifiedTaxCategory/cbc:TaxExemptionReason'),
  lineExemptionCode: path('cac:Item/cac:ClassifiedTaxCategory/cbc:TaxExemptionReasonCode'),
  invoiceLineCategory: path('cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory'),
  extensionTaxAmount: path('cac:ItemPriceExtension/cac:TaxTotal/cbc:TaxAmount'),
  extensionAmount: path('cac:ItemPriceExtension/cbc:Amount'),
  lineInvoicedQuantity: path('../../cbc:InvoicedQuantity'),
  lineCreditedQuantity: path('../../cbc:CreditedQuantity'),
  categoryId: path('cac:ClassifiedTaxCategory/cbc:ID'),
  natureCode: path('cac:CommodityClassification/cbc:NatureCode'),
  commodityCode: path('cac:CommodityClassification/cbc:CommodityCode'),
  classificationCode: path('cac:CommodityClassification/cbc:ItemClassificationCode'),
  additionalItemId: path('cac:AdditionalItemIdentification/cbc:ID'),
};

/**
 * ibr-085 / ibr-086: the line period's date `local` compared with the document period's: the document
 * date is cast first (error if two or not a date), then each line date is cast while comparing.
 */
function linePeriodWithinDocument(el: El, local: 'StartDate' | 'EndDate', op: NumOp): boolean {
  const docDates = p(el, `../../cac:InvoicePeriod/cbc:${local}`);
  const docDate = dateOpt(docDates, `cac:InvoicePeriod/cbc:${local}`);
  if (docDate !== undefined) {
    for (const d of el.children(CBC, local)) if (compareNumbers(toDate(d.value), op, docDate)) return true;
  }
  return !has(el, `cbc:${local}`) || docDates.length === 0;
}

/** ibr-029 / ibr-030: EndDate >= StartDate when both are given. */
function periodOrdered(el: El): boolean {
  const hasEnd = has(el, P.endDate);
  const hasStart = has(el, P.startDate);
  if (hasEnd && hasStart) {
    const end = dateOpt(el.children(CBC, 'EndDate'), 'cbc:EndDate');
    const start = dateOpt(el.children(CBC, 'StartDate'), 'cbc:StartDate');
    if (end !== undefined && start !== undefined && end >= start) return true;
  }
  return !hasStart || !hasEnd;
}

/**
 * fn:sum of the untyped cbc:Amount of the line's cac:AllowanceCharge[cbc:ChargeIndicator = indicator]
 * (string comparison), each cast to xs:double in document order and folded left to right.
 */
function lineChargeSum(line: El, indicator: 'true' | 'false'): number {
  let sum = 0;
  let first = true;
  for (const ac of line.kids) {
    if (!ac.is(CAC, 'AllowanceCharge') || !hasChildValue(ac, 'ChargeIndicator', indicator)) continue;
    for (const amount of ac.kids) {
      if (!amount.is(CBC, 'Amount')) continue;
      const d = toDouble(amount.value);
      sum = first ? d : sum + d;
      first = false;
    }
  }
  return sum;
}

/** `cbc:<local> = value` on untyped children (string comparison, any of them). */
function hasChildValue(el: El, local: string, value: string): boolean {
  for (const k of el.kids) if (k.is(CBC, local) && k.value === value) return true;
  return false;
}

/** xs:double of the optional single node at `el/path` (cardinality error when several). */
function oneDouble(el: El, path: PathArg): number | undefined {
  const n = one(el, path);
  return n === undefined ? undefined : toDouble(n.value);
}

/** The line's cbc:InvoicedQuantity | cbc:CreditedQuantity as xs:double (at most one of them). */
function quantityDouble(line: El): number | undefined {
  let found: El | undefined;
  let n = 0;
  for (const k of line.kids) {
    if (k.ns !== CBC || (k.local !== 'InvoicedQuantity' && k.local !== 'CreditedQuantity')) continue;
    if (n++ === 0) found = k;
  }
  if (n > 1) throw cardinalityError('quantity', n);
  return found === undefined ? undefined : toDouble(found.value);
}

/**
 * ibr-147-ae: round(LineExtensionAmount * 100) div 100 =
 *   round((Quantity * (PriceAmount div BaseQuantity) + Σ line charges - Σ line allowances) * 100) div 100
 * All operands are untyped, so the arithmetic is xs:double (as in the official engine). Read in the
 * official order (a cast or cardinality error in an earlier operand wins), without node lists.
 */
function lineNetAmountConsistent(line: El): boolean {
  const lea = oneDouble(line, P.lineExtensionAmount);
  const left = lea === undefined ? undefined : Math.round(lea * 100) / 100;
  const qty = quantityDouble(line);
  const price = oneDouble(line, P.priceAmount);
  const base = oneDouble(line, P.baseQuantity);
  const charges = lineChargeSum(line, 'true');
  const allowances = lineChargeSum(line, 'false');
  if (left === undefined || qty === undefined || price === undefined || base === undefined) return false;
  const right = Math.round((qty * (price / base) + charges - allowances) * 100) / 100;
  return left === right; // NaN never equals
}

export const lineRules: Rule[] = [
  // ---- PINT-UBL-validation, UBL-model
  {
    pattern: 'UBL-model',
    seq: 22,
    context: 'cac:InvoiceLine | cac:CreditNoteLine',
    names: [cac('InvoiceLine'), cac('CreditNoteLine')],
    asserts: [
      { id: 'ibr-021', test: (el) => ns1(el, P.id) !== '' },
      { id: 'ibr-022', test: (el) => has(el, P.invoicedQuantity) || has(el, P.creditedQuantity) },
      {
        id: 'ibr-023',
        test: (el) => attrAt(el, P.invoicedQuantity, 'unitCode').length > 0 || attrAt(el, P.creditedQuantity, 'unitCode').length > 0,
      },
      { id: 'ibr-024', test: (el) => has(el, P.lineExtensionAmount) },
      { id: 'ibr-025', test: (el) => ns1(el, P.itemName) !== '' },
      { id: 'ibr-026', test: (el) => has(el, P.priceAmount) },
      { id: 'ibr-027', test: (el) => someNum(p(el, P.priceAmount), '>=', 0) },
      {
        id: 'ibr-028',
        test: (el) => {
          const bases = p(el, P.priceBaseAmount);
          return someNum(bases, '>=', 0) || bases.length === 0;
        },
      },
      {
        id: 'ibr-087',
        test: (el) => {
          if (!has(el, P.baseQuantity)) return true;
          const q = decOpt(p(el, P.baseQuantity), 'cac:Price/cbc:BaseQuantity');
          return q !== undefined && isPositiveDec(q);
        },
      },
      {
        id: 'ibr-089',
        test: (el) => el.children(CAC, 'DocumentReference').filter((r) => someNum(r.children(CBC, 'DocumentTypeCode'), '=', 130)).length <= 1,
      },
      { id: 'ibr-109', test: (el) => count(el, P.orderLineId) <= 1 },
      { id: 'ibr-110', test: (el) => count(el, P.invoicePeriod) <= 1 },
      { id: 'ibr-111', test: (el) => count(el, P.priceChargeAmount) <= 1 },
      { id: 'ibr-sr-34', test: (el) => count(el, P.note) <= 1 },
      { id: 'ibr-sr-38', test: (el) => count(el, P.lineExemptionReason) <= 1 },
      { id: 'ibr-sr-50', test: (el) => count(el, P.itemDescription) <= 1 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 23,
    context: 'cac:InvoiceLine/cac:InvoicePeriod | cac:CreditNoteLine/cac:InvoicePeriod',
    names: [cac('InvoicePeriod')],
    match: underLine('cac:InvoicePeriod'),
    asserts: [
      { id: 'ibr-085', test: (el) => linePeriodWithinDocument(el, 'StartDate', '>=') },
      { id: 'ibr-086', test: (el) => linePeriodWithinDocument(el, 'EndDate', '<=') },
      { id: 'ibr-030', test: periodOrdered },
      { id: 'ibr-co-20', test: (el) => has(el, P.startDate) || has(el, P.endDate) },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 24,
    context: 'cac:InvoicePeriod',
    names: [cac('InvoicePeriod')],
    asserts: [
      { id: 'ibr-029', test: periodOrdered },
      {
        id: 'ibr-co-19',
        test: (el) =>
          has(el, P.startDate) ||
          has(el, P.endDate) ||
          (has(el, P.descriptionCode) && !has(el, P.startDate) && !has(el, P.endDate)),
      },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 25,
    context: '//cac:AdditionalItemProperty',
    names: [cac('AdditionalItemProperty')],
    asserts: [{ id: 'ibr-054', test: (el) => has(el, 'cbc:Name') && has(el, 'cbc:Value') }],
  },
  {
    pattern: 'UBL-model',
    seq: 26,
    context:
      'cac:InvoiceLine/cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode | cac:CreditNoteLine/cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode',
    names: [cbc('ItemClassificationCode')],
    match: underLine('cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode'),
    asserts: [{ id: 'ibr-065', test: (el) => el.attr('listID') !== undefined }],
  },
  {
    pattern: 'UBL-model',
    seq: 27,
    context: 'cac:InvoiceLine/cac:Item/cac:StandardItemIdentification/cbc:ID | cac:CreditNoteLine/cac:Item/cac:StandardItemIdentification/cbc:ID',
    names: [cbc('ID')],
    match: underLine('cac:Item/cac:StandardItemIdentification/cbc:ID'),
    asserts: [{ id: 'ibr-064', test: (el) => el.attr('schemeID') !== undefined }],
  },
  {
    pattern: 'UBL-model',
    seq: 28,
    context: 'cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory',
    names: [cac('ClassifiedTaxCategory')],
    match: (el) => matchesContext(el, P.invoiceLineCategory),
    asserts: [{ id: 'ibr-sr-58', test: (el) => has(el, P.id) }],
  },
  {
    pattern: 'UBL-model',
    seq: 48,
    context: 'cac:Price/cbc:BaseQuantity[@unitCode]',
    names: [cbc('BaseQuantity')],
    match: (el) => matchesContext(el, P.baseQuantity) && el.attr('unitCode') !== undefined,
    asserts: [
      {
        id: 'ibr-088',
        test: (el) => {
          const unit = el.attr('unitCode')!;
          return (
            !(has(el, P.lineInvoicedQuantity) || has(el, P.lineCreditedQuantity)) ||
            attrAt(el, P.lineInvoicedQuantity, 'unitCode').includes(unit) ||
            attrAt(el, P.lineCreditedQuantity, 'unitCode').includes(unit)
          );
        },
      },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 49,
    context:
      'cac:InvoiceLine/cac:DespatchLineReference/cac:DocumentReference/cbc:ID | cac:CreditNoteLine/cac:DespatchLineReference/cac:DocumentReference/cbc:ID',
    names: [cbc('ID')],
    match: underLine('cac:DespatchLineReference/cac:DocumentReference/cbc:ID'),
    asserts: [{ id: 'ibr-092', test: (_el, ctx) => ctx.all(CAC, 'DespatchDocumentReference').length === 0 }],
  },
  {
    pattern: 'UBL-model',
    seq: 50,
    context: 'cac:InvoiceLine/cac:DespatchLineReference | cac:CreditNoteLine/cac:DespatchLineReference',
    names: [cac('DespatchLineReference')],
    match: underLine('cac:DespatchLineReference'),
    asserts: [{ id: 'ibr-sr-62', test: (el) => count(el, 'cac:DocumentReference') <= 1 }],
  },

  // ---- PINT-jurisdiction-aligned-rules, UBL-modelaligned
  {
    pattern: 'UBL-modelaligned',
    seq: 7,
    context: 'cac:Price',
    names: [cac('Price')],
    asserts: [{ id: 'ibr-126-ae', test: (el) => has(el, P.ownBaseQuantity) && has(el, P.ownChargeBaseAmount) }],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 13,
    context: 'cac:InvoiceLine | cac:CreditNoteLine',
    names: [cac('InvoiceLine'), cac('CreditNoteLine')],
    asserts: [
      {
        id: 'ibr-104-ae',
        test: (el) => {
          const taxable = p(el, P.lineCategory).some((ctc) => categoryCode(ctc) !== 'E');
          return !taxable || (has(el, P.extensionTaxAmount) && has(el, P.extensionAmount));
        },
      },
      {
        id: 'ibr-111-ae',
        test: (el) => {
          const n = someEq(p(el, P.lineCategoryId), 'N');
          return (n && someNum(p(el, P.lineCategoryPercent), '>', 0)) || !n;
        },
      },
      { id: 'ibr-145-ae', test: (el) => has(el, P.lineCategory) },
      { id: 'ibr-147-ae', test: lineNetAmountConsistent },
      {
        id: 'ibr-167-ae',
        test: (el) =>
          !(someEq(p(el, P.lineCategoryId), 'E') && !has(el, P.lineExemptionCode)),
      },
      {
        id: 'ibr-123-ae',
        test: (el) => {
          const codes = el.parent ? typeCodes(el.parent) : [];
          const outOfScope = someEq(codes, '81') || someEq(codes, '480');
          return (outOfScope && count(el, P.lineCategory) === 1) || !outOfScope;
        },
      },
      { id: 'ibr-194-ae', test: (el) => has(el, P.extensionAmount) },
    ],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 15,
    context: 'cac:Item',
    names: [cac('Item')],
    asserts: [
      { id: 'ibr-125-ae', test: (el) => has(el, P.description) },
      {
        id: 'ibr-166-ae',
        test: (el) => !someEq(p(el, P.categoryId), 'AE') || has(el, P.natureCode),
      },
      {
        id: 'ibr-184-ae',
        test: (el) => !someEq(p(el, P.commodityCode), 'G') || has(el, P.classificationCode),
      },
      {
        id: 'ibr-185-ae',
        test: (el) => !someEq(p(el, P.commodityCode), 'S') || has(el, P.additionalItemId),
      },
      {
        id: 'ibr-186-ae',
        test: (el) =>
          !someEq(p(el, P.commodityCode), 'B') ||
          (has(el, P.classificationCode) && has(el, P.additionalItemId)),
      },
      { id: 'ibr-187-ae', test: () => true },
      {
        id: 'ibr-188-ae',
        test: (el) =>
          !has(el, P.classificationCode) ||
          someEq(attrAt(el, P.classificationCode, 'listID'), 'HS'),
      },
      {
        id: 'ibr-189-ae',
        test: (el) => !has(el, P.additionalItemId) || someEq(attrAt(el, P.additionalItemId, 'schemeID'), 'SAC'),
      },
    ],
  },
];

