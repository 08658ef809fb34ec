/**
 * Document level: the Invoice / CreditNote element itself (both files), document references,
 * periods, payment, delivery, dates, times, attachments and empty elements.
 */
import * as dslModule from '../dsl';
import type { Ctx, Rule } from '../engine';
import * as engineModule from '../engine';
import type { LineFacts } from '../line-facts';
import * as lineFactsModule from '../line-facts';
import * as sharedModule from '../shared';
import type { El } from '../xml';
import type { Dec } from '../xpath';
import * as xpathModule from '../xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { CAC, CBC, CREDIT_NOTE, INVOICE, cac, cbc, count, has, contextIs, matchesContext, ns1, p, str1, typeCodes } = dslModule;
const { memoKey } = engineModule;
const { allCategoryFacts, codeAt, vatAt } = lineFactsModule;
const { categoryCode, isVat, isVatNoNormalize, union } = sharedModule;
const { cardinalityError, childText, castableDate, castableDecimal, castableTime, FIVE, decOpt, matches, normalizeSpace, round2, someBool, someEq, someEqNodes, someNe, someNeNodes, someNum, stringLength, textOpt, toDecimal, toDouble } = xpathModule;

/**
 * (cac:InvoiceLine | cac:CreditNoteLine)/cac:Item/cac:ClassifiedTaxCategory[normalize-space(cbc:ID) != 'E' and
 * != 'O'] exists: categories in document order, stopping at the first one (no list of all lines' categories).
 */
function someLineCategoryNotExemptOrOutOfScope(root: El): boolean {
  for (const line of root.kids) {
    if (line.ns !== CAC || (line.local !== 'InvoiceLine' && line.local !== 'CreditNoteLine')) continue;
    for (const item of line.kids) {
      if (!item.is(CAC, 'Item')) continue;
      for (const ctc of item.kids) if (ctc.is(CAC, 'ClassifiedTaxCategory') && categoryCode(ctc) !== 'E' && categoryCode(ctc) !== 'O') return true;
    }
  }
  return false;
}

/** `matches(cbc:ProfileExecutionID, re)` (BTAE-02 transaction type flags; several IDs = error). */
const flags = (el: El, re: string) => matches(str1(el, 'cbc:ProfileExecutionID'), re);

/** The value of the document's (Invoice|CreditNote)TypeCode equals one of `codes` (string compare). */
const typeIs = (el: El, ...codes: string[]) => someEq(typeCodes(el), ...codes);

/**
 * exists(//cac:TaxCategory[VAT]/cbc:ID[normalize-space(.) = code]) (or ClassifiedTaxCategory),
 * evaluated lazily in document order (a tax scheme with two IDs met first is a dynamic error).
 */
function existsVatCategory(ctx: Ctx, local: 'TaxCategory' | 'ClassifiedTaxCategory', code: string): boolean {
  const index = vatCategoryIndex(ctx, local);
  if (index.codes.has(code)) return true; // found before the first error, if any
  if (index.error !== undefined) throw index.error.cause;
  return false;
}

interface VatCategoryIndex {
  /** The codes of VAT categories met before the first dynamic error (or in all of them). */
  codes: Set<string>;
  /** The dynamic error of the first category whose VAT test fails, where the scan stopped. */
  error: { cause: unknown } | undefined;
}

/**
 * One scan of every `local` element in document order for all codes, instead of one scan per code:
 * each lazy per-code scan finds its code (true) if it comes before the first category whose VAT
 * test raises an error, raises that error if it does not, and is false without error otherwise.
 */
function vatCategoryIndex(ctx: Ctx, local: 'TaxCategory' | 'ClassifiedTaxCategory'): VatCategoryIndex {
  return ctx.memo(memoKey('vatCategoryIndex', local), () => {
    const facts = local === 'ClassifiedTaxCategory' ? allCategoryFacts(ctx) : undefined;
    if (facts !== undefined) return vatCodesOfLines(facts);
    const codes = new Set<string>();
    for (const tc of ctx.all(CAC, local)) {
      let vat: boolean;
      try {
        vat = isVat(ctx, tc);
      } catch (cause) {
        return { codes, error: { cause } };
      }
      if (vat) addIds(codes, tc);
    }
    return { codes, error: undefined };
  });
}

function addIds(codes: Set<string>, tc: El): void {
  for (const id of tc.kids) if (id.is(CBC, 'ID')) codes.add(normalizeSpace(id.value));
}

/** The same scan over the line facts, when they hold every ClassifiedTaxCategory of the document. */
function vatCodesOfLines(facts: LineFacts): VatCategoryIndex {
  const codes = new Set<string>();
  for (let j = 0; j < facts.cats.length; j++) {
    let vat: boolean;
    try {
      vat = vatAt(facts, j);
    } catch (cause) {
      return { codes, error: { cause } };
    }
    if (!vat || !facts.hasId[j]) continue;
    const code = facts.codes[j];
    if (typeof code === 'string') codes.add(code); // its only ID
    else addIds(codes, facts.cats[j]); // several IDs: each is a code here
  }
  return { codes, error: undefined };
}

/**
 * count(//cac:AllowanceCharge/cac:TaxCategory[normalize-space(cbc:ID) = 'S']) +
 * count(//cac:ClassifiedTaxCategory[normalize-space(cbc:ID) = 'S']) (aligned-ibrp-s-01), in order.
 */
function standardUsed(ctx: Ctx): number {
  let n = 0;
  for (const ac of ctx.all(CAC, 'AllowanceCharge')) for (const tc of ac.children(CAC, 'TaxCategory')) if (categoryCode(tc) === 'S') n++;
  const facts = allCategoryFacts(ctx);
  if (facts !== undefined) {
    for (let j = 0; j < facts.cats.length; j++) if (codeAt(facts, j) === 'S') n++;
  } else {
    for (const ctc of ctx.all(CAC, 'ClassifiedTaxCategory')) if (categoryCode(ctc) === 'S') n++;
  }
  return n;
}

/** count(cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory[VAT]/cbc:ID[normalize-space(.) = code]) on the root. */
function breakdownCount(ctx: Ctx, root: El, code: string): number {
  let n = 0;
  for (const tc of p(root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory')) {
    if (isVat(ctx, tc)) n += tc.children(CBC, 'ID').filter((id) => normalizeSpace(id.value) === code).length;
  }
  return n;
}

/** aligned-ibrp-{e,o,z}-01 / ae-01: a category used anywhere needs exactly one (ae: at least one) breakdown. */
function categoryHasBreakdown(ctx: Ctx, root: El, code: string, atLeast: boolean): boolean {
  if (existsVatCategory(ctx, 'TaxCategory', code) || existsVatCategory(ctx, 'ClassifiedTaxCategory', code)) {
    const n = breakdownCount(ctx, root, code);
    if (atLeast ? n >= 1 : n === 1) return true;
  }
  return !existsVatCategory(ctx, 'TaxCategory', code) && !existsVatCategory(ctx, 'ClassifiedTaxCategory', code);
}

/** ibr-084 helper: some TaxTotal/TaxAmount in currency normalize-space(../../cbc:<currencyElement>) compares `op` 0. */
function taxAmountSign(root: El, currencyElement: string, op: '<=' | '>='): boolean {
  for (const tt of root.children(CAC, 'TaxTotal')) {
    for (const ta of tt.children(CBC, 'TaxAmount')) {
      const currency = normalizeSpace(str1(ta, `../../cbc:${currencyElement}`));
      if (ta.attr('currencyID') !== currency) continue;
      const v = toDouble(ta.value);
      if (op === '<=' ? v <= 0 : v >= 0) return true;
    }
  }
  return false;
}

/** ibr-co-15: TaxInclusiveAmount = round(TaxExclusiveAmount + TaxTotal[1]/TaxAmount in document currency, 2). */
function taxInclusiveConsistent(root: El): boolean {
  if (someBool(p(root, 'cac:TaxTotal/cbc:TaxIncludedIndicator'), true)) return true;
  const totals = root.children(CAC, 'LegalMonetaryTotal');
  // left operand: LegalMonetaryTotal/xs:decimal(TaxInclusiveAmount), lazily (the first item is read
  // first, the others while comparing; a loop, not a closure: see the note above `tea` in totals-rules.ts)
  let next = 0;
  let first: Dec | undefined;
  while (first === undefined && next < totals.length) first = inclusiveAmount(totals[next++]);
  // right operand
  const exclusive = totals.map((t) => decOpt(t.children(CBC, 'TaxExclusiveAmount'), 'cbc:TaxExclusiveAmount')).filter((x): x is Dec => x !== undefined);
  if (exclusive.length > 1) throw cardinalityError('LegalMonetaryTotal/xs:decimal(cbc:TaxExclusiveAmount)', exclusive.length);
  const firstTotal = root.child(CAC, 'TaxTotal');
  let tax: Dec | undefined;
  if (firstTotal) {
    const currencies = root.children(CBC, 'DocumentCurrencyCode').map((d) => d.value);
    const amounts = firstTotal.children(CBC, 'TaxAmount').filter((ta) => {
      const c = ta.attr('currencyID');
      return c !== undefined && currencies.includes(c);
    });
    tax = decOpt(amounts, 'cac:TaxTotal[1]/cbc:TaxAmount');
  }
  const right = exclusive.length === 1 && tax !== undefined ? round2(exclusive[0].plus(tax)) : undefined;
  // compare each left item (pulling the rest lazily) with the right operand
  for (let v: Dec | undefined = first; v !== undefined; ) {
    if (right !== undefined && v.eq(right)) return true;
    v = undefined;
    while (v === undefined && next < totals.length) v = inclusiveAmount(totals[next++]);
  }
  return false;
}

const inclusiveAmount = (total: El) => decOpt(total.children(CBC, 'TaxInclusiveAmount'), 'cbc:TaxInclusiveAmount');

/** Codepoint comparison, as the engine's default collation does it. */
function codepointLess(a: string, b: string): boolean {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i];
  return x.length < y.length;
}

/** aligned-ibrp-s-01: count(cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory[normalize-space(cbc:ID) = 'S']) on the root. */
const standardBreakdowns = (root: El) => p(root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory').filter((tc) => categoryCode(tc) === 'S').length;

const taxCategoryIds = (ctx: Ctx) =>
  ctx.memo('allCategoryIds', () => union(p0(ctx.all(CAC, 'TaxCategory'), 'ID'), p0(ctx.all(CAC, 'ClassifiedTaxCategory'), 'ID')));

/** `nodes/cbc:local` (or another namespace). */
function p0(nodes: readonly El[], local: string, ns: string = CBC): El[] {
  const out: El[] = [];
  for (const n of nodes) for (const k of n.kids) if (k.local === local && k.ns === ns) out.push(k);
  return out;
}

function rootRules(): Rule[] {
  const root: Pick<Rule, 'names' | 'match'> = {
    names: [
      [INVOICE, 'Invoice'],
      [CREDIT_NOTE, 'CreditNote'],
    ],
    match: (el) => el.parent === null,
  };
  return [
    {
      pattern: 'UBL-model',
      seq: 21,
      context: '/ubl:Invoice | /cn:CreditNote',
      ...root,
      asserts: [
        { id: 'ibr-001', test: (el) => ns1(el, 'cbc:CustomizationID') !== '' },
        { id: 'ibr-sr-63', test: (el) => !ns1(el, 'cbc:CustomizationID').includes('*') },
        { id: 'ibr-002', test: (el) => ns1(el, 'cbc:ID') !== '' },
        { id: 'ibr-003', test: (el) => ns1(el, 'cbc:IssueDate') !== '' },
        { id: 'ibr-004', test: (el) => ns1(el, 'cbc:InvoiceTypeCode') !== '' || ns1(el, 'cbc:CreditNoteTypeCode') !== '' },
        { id: 'ibr-005', test: (el) => ns1(el, 'cbc:DocumentCurrencyCode') !== '' },
        { id: 'ibr-006', test: (el) => ns1(el, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName') !== '' },
        { id: 'ibr-007', test: (el) => ns1(el, 'cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName') !== '' },
        { id: 'ibr-008', test: (el) => has(el, 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress') },
        { id: 'ibr-010', test: (el) => has(el, 'cac:AccountingCustomerParty/cac:Party/cac:PostalAddress') },
        { id: 'ibr-016', test: (el) => has(el, 'cac:InvoiceLine') || has(el, 'cac:CreditNoteLine') },
        {
          id: 'ibr-053',
          test: (el, ctx) => {
            const currencies = ctx.memo('taxTotalCurrencies', () => new Set(p0(ctx.all(CAC, 'TaxTotal'), 'TaxAmount').map((t) => t.attr('currencyID'))));
            return el.children(CBC, 'TaxCurrencyCode').every((tcc) => currencies.has(tcc.value));
          },
        },
        { id: 'ibr-066', test: (el) => count(el, 'cac:PaymentMeans/cac:CardAccount') <= 1 },
        { id: 'ibr-067', test: (el) => count(el, 'cac:PaymentMeans/cac:PaymentMandate') <= 1 },
        {
          id: 'ibr-071',
          test: (_el, ctx) => !ctx.all(CAC, 'AdditionalDocumentReference').some((r) => someEq(r.children(CBC, 'DocumentTypeCode'), '130') && r.hasChild(CAC, 'Attachment')),
        },
        {
          id: 'ibr-072',
          test: (_el, ctx) =>
            !ctx.all(CAC, 'AdditionalDocumentReference').some((r) => someEq(r.children(CBC, 'DocumentTypeCode'), '130') && r.hasChild(CBC, 'DocumentDescription')),
        },
        { id: 'ibr-076', test: (el) => has(el, 'cbc:ProfileID') },
        {
          id: 'ibr-078',
          test: (el) => el.children(CAC, 'AdditionalDocumentReference').filter((r) => someEq(r.children(CBC, 'DocumentTypeCode'), '130')).length <= 1,
        },
        {
          id: 'ibr-084',
          test: (el) =>
            !has(el, 'cbc:TaxCurrencyCode') ||
            (taxAmountSign(el, 'TaxCurrencyCode', '<=') && taxAmountSign(el, 'DocumentCurrencyCode', '<=')) ||
            (taxAmountSign(el, 'TaxCurrencyCode', '>=') && taxAmountSign(el, 'DocumentCurrencyCode', '>=')),
        },
        {
          id: 'ibr-090',
          test: (el) =>
            count(el, 'cac:ProjectReference') <= 1 &&
            el.children(CAC, 'AdditionalDocumentReference').filter((r) => someEq(r.children(CBC, 'DocumentTypeCode'), '50')).length <= 1,
        },
        { id: 'ibr-094', test: (el) => count(el, 'cac:ContractDocumentReference/cbc:ID') <= 1 },
        { id: 'ibr-095', test: (el) => count(el, 'cac:ReceiptDocumentReference/cbc:ID') <= 1 },
        { id: 'ibr-096', test: (el) => count(el, 'cac:DespatchDocumentReference/cbc:ID') <= 1 },
        { id: 'ibr-097', test: (el) => count(el, 'cac:InvoicePeriod') <= 1 },
        { id: 'ibr-098', test: (el) => count(el, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName') <= 1 },
        { id: 'ibr-099', test: (el) => count(el, 'cac:AccountingSupplierParty/cac:Party/cac:PartyName/cbc:Name') <= 1 },
        { id: 'ibr-100', test: (el) => count(el, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID') <= 1 },
        { id: 'ibr-101', test: (el) => count(el, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyLegalForm') <= 1 },
        { id: 'ibr-102', test: (el) => count(el, 'cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName') <= 1 },
        { id: 'ibr-103', test: (el) => count(el, 'cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID') <= 1 },
        { id: 'ibr-104', test: (el) => count(el, 'cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID') <= 1 },
        { id: 'ibr-107', test: (el) => count(el, 'cac:Delivery') <= 1 },
        { id: 'ibr-112', test: (el) => count(el, 'cac:AccountingCustomerParty/cac:Party/cac:PartyName/cbc:Name') <= 1 },
        { id: 'ibr-co-15', test: taxInclusiveConsistent },
        { id: 'ibr-sr-16', test: (el) => count(el, 'cac:AccountingCustomerParty/cac:Party/cac:PartyIdentification/cbc:ID') <= 1 },
        { id: 'ibr-sr-39', test: (el) => count(el, 'cac:ProjectReference/cbc:ID') <= 1 },
        { id: 'ibr-sr-49', test: (el) => count(el, 'cac:InvoicePeriod/cbc:DescriptionCode') <= 1 },
        { id: 'ibr-sr-51', test: (el) => count(el, 'cbc:Note') <= 1 },
        { id: 'ibr-sr-52', test: (el) => count(el, 'cac:OriginatorDocumentReference/cbc:ID') <= 1 },
      ],
    },
    {
      pattern: 'UBL-modelaligned',
      seq: 14,
      context: '/ubl:Invoice | /cn:CreditNote',
      ...root,
      asserts: [
        {
          id: 'aligned-ibrp-001-ae',
          test: (el) => {
            const v = normalizeSpace(childText(el, CBC, 'CustomizationID', 'cbc:CustomizationID/text()'));
            return v.startsWith('urn:peppol:pint:billing-1@ae-1') || v.startsWith('urn:peppol:pint:selfbilling-1@ae-1');
          },
        },
        {
          id: 'aligned-ibrp-002-ae',
          test: (el) =>
            has(el, 'cbc:ProfileID') &&
            (matches(ns1(el, 'cbc:ProfileID'), '^urn:peppol:bis:billing') || matches(ns1(el, 'cbc:ProfileID'), '^urn:peppol:bis:selfbilling')),
        },
        { id: 'aligned-ibrp-e-01', test: (el, ctx) => categoryHasBreakdown(ctx, el, 'E', false) },
        { id: 'aligned-ibrp-o-01', test: (el, ctx) => categoryHasBreakdown(ctx, el, 'O', false) },
        {
          id: 'aligned-ibrp-s-01',
          test: (el, ctx) => {
            const used = ctx.memo('standardUsed', () => standardUsed(ctx));
            return (used > 0 && standardBreakdowns(el) > 0) || (used === 0 && standardBreakdowns(el) === 0);
          },
        },
        { id: 'aligned-ibrp-z-01', test: (el, ctx) => categoryHasBreakdown(ctx, el, 'Z', false) },
        { id: 'aligned-ibrp-ae-01-ae', test: (el, ctx) => categoryHasBreakdown(ctx, el, 'AE', true) },
        {
          id: 'aligned-ibrp-sr-12',
          test: (el) => {
            // count(...PartyTaxScheme[VAT]/cbc:CompanyID) <= 1, the schemes tested in order (a loop: filter
            // and flatMap cost more per call in V8)
            let n = 0;
            for (const s of p(el, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme')) if (isVatNoNormalize(s)) n += s.children(CBC, 'CompanyID').length;
            return n <= 1;
          },
        },
        {
          id: 'ibr-007-ae',
          test: (el) => !flags(el, '^1[01]{7}$') || has(el, 'cac:BuyerCustomerParty/cac:Party/cac:PartyIdentification/cbc:ID'),
        },
        {
          id: 'ibr-134-ae',
          test: (el) => {
            const outOfScope = typeIs(el, '480') || typeIs(el, '81');
            const sellerVat = p(el, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme').some(
              (s) => someEq(p(s, 'cac:TaxScheme/cbc:ID'), 'VAT') && s.hasChild(CBC, 'CompanyID'),
            );
            return (!outOfScope && sellerVat) || outOfScope;
          },
        },
        {
          id: 'ibr-136-ae',
          test: (el) =>
            !(someEq(el.children(CBC, 'InvoiceTypeCode'), '480') || someEq(el.children(CBC, 'CreditNoteTypeCode'), '81')) ||
            has(el, 'cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID'),
        },
        {
          id: 'ibr-137-ae',
          test: (el) =>
            (flags(el, '^[01]{5}1[01]{2}$') && has(el, 'cac:SellerSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID')) || !flags(el, '^[01]{5}1[01]{2}$'),
        },
        { id: 'ibr-138-ae', test: (el) => (flags(el, '^[01]{3}1[01]{4}$') && has(el, 'cac:InvoicePeriod')) || !flags(el, '^[01]{3}1[01]{4}$') },
        {
          id: 'ibr-141-ae',
          test: (el) => {
            const tpd = el.children(CBC, 'TaxPointDate');
            if (tpd.length === 0) return true;
            const issue = el.children(CBC, 'IssueDate');
            // untyped vs untyped: compared as strings (codepoints), not as dates
            return tpd.some((t) => issue.some((i) => codepointLess(t.value, i.value)));
          },
        },
        {
          id: 'ibr-055-ae',
          test: (el) => {
            const creditNote = typeIs(el, '381') || typeIs(el, '81');
            const reasons = p(el, 'cac:DiscrepancyResponse/cbc:ResponseCode');
            const billingRef = has(el, 'cac:BillingReference');
            return (creditNote && ((billingRef && someNe(reasons, 'VD')) || (!billingRef && someEq(reasons, 'VD')))) || !creditNote;
          },
        },
        {
          id: 'ibr-142-ae',
          test: (el) =>
            !flags(el, '^[01]{6}1[01]$') ||
            (has(el, 'cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:StreetName') &&
              has(el, 'cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:CityName') &&
              has(el, 'cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:CountrySubentity')),
        },
        {
          id: 'ibr-105-ae',
          test: (el, ctx) => {
            if (existsVatCategory(ctx, 'TaxCategory', 'N')) {
              const n = p0(ctx.all(CAC, 'TaxTotal'), 'TaxSubtotal', CAC).filter((st) => someEq(p(st, 'cac:TaxCategory/cbc:ID'), 'N')).length;
              if (n === 1) return true;
            }
            return !existsVatCategory(ctx, 'TaxCategory', 'N');
          },
        },
        {
          id: 'ibr-122-ae',
          test: (el, ctx) =>
            !(typeIs(el, '81') || typeIs(el, '480')) || taxCategoryIds(ctx).every((id) => ['E', 'O', 'Z'].includes(normalizeSpace(id.value))),
        },
        { id: 'ibr-124-ae', test: (el) => !(typeIs(el, '381') || typeIs(el, '81')) || !has(el, 'cbc:TaxPointDate') },
        {
          id: 'ibr-127-ae',
          test: (el) =>
            typeIs(el, '381') ||
            typeIs(el, '81') ||
            someEq(el.children(CBC, 'CreditNoteTypeCode'), '261') ||
            flags(el, '^[01]1[01]{6}$') ||
            !someNum(p(el, 'cac:LegalMonetaryTotal/cbc:PayableAmount'), '>', 0) ||
            has(el, 'cbc:DueDate'),
        },
        {
          id: 'ibr-116-ae',
          test: (el, ctx) => !flags(el, '^[01]{2}1[01]{5}$') || !taxCategoryIds(ctx).some((id) => normalizeSpace(id.value) !== 'N'),
        },
        {
          id: 'ibr-151-ae',
          test: (el) => !(typeIs(el, '380') || typeIs(el, '381')) || someLineCategoryNotExemptOrOutOfScope(el),
        },
        {
          id: 'ibr-152-ae',
          test: (el) =>
            !flags(el, '^[01]{7}1$') ||
            someEq(p(el, 'cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode'), 'AE') ||
            (has(el, 'cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:StreetName') &&
              has(el, 'cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:CityName') &&
              has(el, 'cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:CountrySubentity')),
        },
        {
          id: 'ibr-153-ae',
          test: (el) => {
            const tcc = el.children(CBC, 'TaxCurrencyCode');
            const dcc = el.children(CBC, 'DocumentCurrencyCode');
            return !(
              someEq(tcc, 'AED') &&
              someNe(dcc, 'AED') &&
              (!someEqNodes(p(el, 'cac:TaxExchangeRate/cbc:SourceCurrencyCode'), dcc) ||
                !someEqNodes(p(el, 'cac:TaxExchangeRate/cbc:TargetCurrencyCode'), tcc) ||
                !has(el, 'cac:TaxExchangeRate/cbc:CalculationRate'))
            );
          },
        },
        {
          id: 'ibr-157-ae',
          test: (el) => !((typeIs(el, '480') || typeIs(el, '81')) && flags(el, '^[01]{2}1[01]{5}$|^[01]1[01]{6}$|^[01]{3}1[01]{4}$')),
        },
        { id: 'ibr-158-ae', test: (el) => !(typeIs(el, '381') && !has(el, 'cac:DiscrepancyResponse/cbc:ResponseCode')) },
        {
          id: 'ibr-159-ae',
          test: (el, ctx) => {
            const dcc = el.children(CBC, 'DocumentCurrencyCode');
            return (someNe(dcc, 'AED') && p0(ctx.all(CAC, 'TaxExchangeRate'), 'CalculationRate').length > 0) || someEq(dcc, 'AED');
          },
        },
        { id: 'ibr-160-ae', test: (el) => !(someEq(p(el, 'cac:InvoicePeriod/cbc:DescriptionCode'), 'OTH') && !has(el, 'cbc:Note')) },
        {
          id: 'ibr-175-ae',
          test: (el) => {
            const dcc = el.children(CBC, 'DocumentCurrencyCode');
            return (
              someEq(dcc, 'AED') ||
              (someNe(dcc, 'AED') &&
                someEq(el.children(CBC, 'TaxCurrencyCode'), 'AED') &&
                p(el, 'cac:TaxTotal/cbc:TaxAmount').some((ta) => ta.attr('currencyID') === 'AED') &&
                el
                  .children(CAC, 'AdditionalDocumentReference')
                  .some((r) => someEq(r.children(CBC, 'DocumentTypeCode'), 'aedtotal-incl-vat') && r.hasChild(CBC, 'DocumentDescription')))
            );
          },
        },
        {
          id: 'ibr-176-ae',
          test: (el) =>
            (flags(el, '^[01]{5}1[01]{2}$') &&
              someNeNodes(
                p(el, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID'),
                p(el, 'cac:SellerSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID'),
              )) ||
            !flags(el, '^[01]{5}1[01]{2}$'),
        },
        {
          id: 'ibr-190-ae',
          test: (_el, ctx) => {
            const categories = ctx.all(CAC, 'TaxCategory');
            if (!someEq(p0(categories, 'ID'), 'S')) return true;
            const percents = p0(
              categories.filter((tc) => someEq(tc.children(CBC, 'ID'), 'S')),
              'Percent',
            );
            return percents.every((pc) => castableDecimal(pc.value) && toDecimal(pc.value).eq(FIVE));
          },
        },
        {
          id: 'ibr-191-ae',
          test: (el) =>
            typeIs(el, '81') ||
            typeIs(el, '381') ||
            typeIs(el, '261') ||
            flags(el, '^[01]1[01]{6}$') ||
            has(el, 'cac:PaymentMeans/cbc:PaymentMeansCode'),
        },
        { id: 'ibr-154-ae', test: (el) => flags(el, '^[01]{8}$') },
        { id: 'ibr-140-ae', test: (el) => !has(el, 'cbc:TaxCurrencyCode') || someEq(el.children(CBC, 'TaxCurrencyCode'), 'AED') },
        { id: 'ibr-193-ae', test: (el) => has(el, 'cbc:UUID') },
      ],
    },
  ];
}

export const documentRules: Rule[] = [
  ...rootRules(),
  // ---- PINT-UBL-validation, UBL-model
  {
    pattern: 'UBL-model',
    seq: 15,
    context: 'cac:AdditionalDocumentReference',
    names: [cac('AdditionalDocumentReference')],
    asserts: [
      { id: 'ibr-052', test: (el) => ns1(el, 'cbc:ID') !== '' },
      { id: 'ibr-sr-33', test: (el) => count(el, 'cbc:DocumentDescription') <= 1 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 30,
    context: 'cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cac:Address',
    names: [cac('Address')],
    match: contextIs('cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cac:Address'),
    asserts: [{ id: 'ibr-sr-59', test: (el) => count(el, 'cac:AddressLine/cbc:Line') <= 1 }],
  },
  {
    pattern: 'UBL-model',
    seq: 31,
    context: 'cac:PaymentMeans',
    names: [cac('PaymentMeans')],
    asserts: [
      { id: 'ibr-049', test: (el) => has(el, 'cbc:PaymentMeansCode') },
      { id: 'ibr-sr-27', test: (el) => count(el, 'cbc:PaymentMeansCode') <= 1 },
      { id: 'ibr-sr-28', test: (el) => count(el, 'cac:PaymentMandate/cbc:ID') <= 1 },
      { id: 'ibr-sr-46', test: (el) => el.children(CBC, 'PaymentMeansCode').filter((c) => c.attr('name') !== undefined).length <= 1 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 33,
    context: 'cac:PaymentTerms',
    names: [cac('PaymentTerms')],
    asserts: [
      { id: 'ibr-sr-05', test: (el) => count(el, 'cbc:Note') <= 1 },
      { id: 'ibr-sr-60', test: (el) => count(el, 'cbc:PaymentMeansID') <= 1 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 34,
    context: 'cac:BillingReference',
    names: [cac('BillingReference')],
    asserts: [
      { id: 'ibr-055', test: (el) => has(el, 'cac:InvoiceDocumentReference/cbc:ID') },
      { id: 'ibr-sr-07', test: (el) => has(el, 'cac:InvoiceDocumentReference/cbc:ID') },
      { id: 'ibr-sr-06', test: (el) => count(el, 'cac:InvoiceDocumentReference') <= 1 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 43,
    context: 'cbc:IssueDate | cbc:DueDate | cbc:TaxPointDate | cbc:StartDate | cbc:EndDate | cbc:ActualDeliveryDate',
    names: ['IssueDate', 'DueDate', 'TaxPointDate', 'StartDate', 'EndDate', 'ActualDeliveryDate'].map(cbc),
    asserts: [{ id: 'ibr-073', test: (el) => stringLength(textOpt(el)) === 10 && castableDate(el.value) }],
  },
  {
    pattern: 'UBL-model',
    seq: 44,
    context: "//*[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2' and ends-with(local-name(), 'Time')]",
    names: '*',
    localFilter: (local) => local.endsWith('Time'),
    match: (el) => el.ns === CBC && el.local.endsWith('Time'),
    asserts: [{ id: 'ibr-119', test: (el) => castableTime(el.value) }],
  },
  {
    pattern: 'UBL-model',
    seq: 45,
    context: "//*[ends-with(name(), 'BinaryObject')]",
    names: '*',
    // name() = prefix:local; a suffix without ':' can only lie within the local name
    localFilter: (local) => local.endsWith('BinaryObject'),
    match: (el) => el.local.endsWith('BinaryObject'),
    asserts: [
      { id: 'ibr-074', test: (el) => el.attr('mimeCode') !== undefined },
      { id: 'ibr-075', test: (el) => el.attr('filename') !== undefined },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 46,
    context: 'cbc:TaxCurrencyCode',
    names: [cbc('TaxCurrencyCode')],
    asserts: [
      {
        id: 'ibr-077',
        test: (el) => {
          const own = normalizeSpace(textOpt(el));
          const docTexts = p(el, '../cbc:DocumentCurrencyCode').flatMap((d) => d.texts);
          if (docTexts.length > 1) throw cardinalityError('../cbc:DocumentCurrencyCode/text()', docTexts.length);
          return own !== normalizeSpace(docTexts[0] ?? '');
        },
      },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 47,
    context: '//*[not(*) and not(normalize-space())]',
    names: '*',
    match: (el) => el.kids.length === 0 && el.isBlank(),
    asserts: [{ id: 'ibr-079', test: () => false }],
  },
  {
    pattern: 'UBL-model',
    seq: 51,
    context: 'cac:PrepaidPayment[1]',
    names: [cac('PrepaidPayment')],
    match: (el) => el.parent !== null && el.parent.child(CAC, 'PrepaidPayment') === el,
    asserts: [{ id: 'ibr-093', test: (el) => has(el, '../cac:LegalMonetaryTotal/cbc:PrepaidAmount') }],
  },
  {
    pattern: 'UBL-model',
    seq: 52,
    context: 'cac:Delivery',
    names: [cac('Delivery')],
    asserts: [{ id: 'ibr-108', test: (el) => count(el, 'cac:DeliveryParty/cac:PartyName/cbc:Name') <= 1 }],
  },

  // ---- PINT-jurisdiction-aligned-rules, UBL-modelaligned
  {
    pattern: 'UBL-modelaligned',
    seq: 2,
    context: 'cac:DeliveryTerms',
    names: [cac('DeliveryTerms')],
    asserts: [{ id: 'ibr-196-ae', test: (el) => has(el, 'cbc:ID') }],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 8,
    context: 'cac:PaymentMeans',
    names: [cac('PaymentMeans')],
    asserts: [{ id: 'ibr-192-ae', test: (el) => !someEq(el.children(CBC, 'PaymentMeansCode'), '30') || has(el, 'cac:PayeeFinancialAccount/cbc:ID') }],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 12,
    context: 'cbc:CalculationRate',
    names: [cbc('CalculationRate')],
    asserts: [{ id: 'ibr-002-ae', test: (el) => matches(el.value, '^[0-9]+(\\.[0-9]{1,6})?$') }],
  },
];

