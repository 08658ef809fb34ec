/**
 * Sub-expressions several official rules share, evaluated with the official engine's order and
 * errors, and memoised per document so that no rule rescans all lines for each line or subtotal.
 */
import * as categoryValuesModule from './category-values';
import * as decSumModule from './dec-sum';
import type { Ctx } from './engine';
import * as engineModule from './engine';
import * as dslModule from './dsl';
import type { LineFacts, LineName } from './line-facts';
import * as lineFactsModule from './line-facts';
import { type El } from './xml';
import type { Dec as DecT } from './xpath';
import * as xpathModule from './xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { categoryCode, categoryRate, onlyChild } = categoryValuesModule;
const { DecSum } = decSumModule;
const { memoKey } = engineModule;
const { CAC, CBC, p } = dslModule;
const { Raised, allLineFacts, lineFacts, lineHasCode, lineHasRateAt, netAt } = lineFactsModule;
const { Dec, XPathError, cmpDec, decOpt, opt, optValue, someBool, upperCase } = xpathModule;

export { categoryCode, isVat, onlyChild } from './category-values';
export type { LineName } from './line-facts';

/** The same without normalize-space (aligned-ibrp-sr-12). */
export function isVatNoNormalize(tc: El): boolean {
  for (const scheme of tc.children(CAC, 'TaxScheme')) {
    if (upperCase(optValue(scheme.children(CBC, 'ID'), 'cac:TaxScheme/cbc:ID')) === 'VAT') return true;
  }
  return false;
}

/** `cac:Item/cac:ClassifiedTaxCategory/normalize-space(cbc:ID) = code` on a line (lazy, in order). */
export function lineHasCategory(line: El, code: string): boolean {
  for (const item of line.kids) {
    if (!item.is(CAC, 'Item')) continue;
    for (const ctc of item.kids) if (ctc.is(CAC, 'ClassifiedTaxCategory') && categoryCode(ctc) === code) return true;
  }
  return false;
}

/** `cac:TaxCategory/normalize-space(cbc:ID) = code` on an allowance/charge (lazy, in order). */
export function chargeHasCategory(ac: El, code: string): boolean {
  for (const tc of ac.kids) if (tc.is(CAC, 'TaxCategory') && categoryCode(tc) === code) return true;
  return false;
}

/** xs:decimal(cbc:Percent) = $rate on one tax category (error on several Percents or a bad one). */
function percentIs(tc: El, rate: DecT): boolean {
  const r = categoryRate(tc);
  return r !== undefined && cmpDec(r, rate) === 0;
}

/** `cac:Item/cac:ClassifiedTaxCategory/xs:decimal(cbc:Percent) = $rate` on a line. */
export function lineHasRate(line: El, rate: DecT): boolean {
  for (const item of line.kids) {
    if (!item.is(CAC, 'Item')) continue;
    for (const ctc of item.kids) if (ctc.is(CAC, 'ClassifiedTaxCategory') && percentIs(ctc, rate)) return true;
  }
  return false;
}

/** `cac:TaxCategory/xs:decimal(cbc:Percent) = $rate` on an allowance/charge. */
export function chargeHasRate(ac: El, rate: DecT): boolean {
  for (const tc of ac.kids) if (tc.is(CAC, 'TaxCategory') && percentIs(tc, rate)) return true;
  return false;
}

/** fn:sum of `xs:decimal(name)` over nodes (each with at most one such child). */
export function sumOf(nodes: readonly El[], local: string): DecT {
  const sum = new DecSum();
  const what = `cbc:${local}`;
  for (const n of nodes) {
    const v = onlyChild(n, CBC, local, what);
    if (v !== undefined) sum.add(v);
  }
  return sum.value();
}

const rateKeys = new WeakMap<DecT, string>();
/** A memo key for a rate (equal decimals, equal keys: 5 and 5.00 both give "5"). */
function rateKey(rate: DecT): string {
  let k = rateKeys.get(rate);
  if (k === undefined) rateKeys.set(rate, (k = rate.toString()));
  return k;
}

/**
 * Σ line net amounts of root lines in category `code`, plus root charges, minus root allowances in
 * that category (the -08 rules of E, Z, O, AE), each part memoised per document.
 */
export function categoryBase(ctx: Ctx, lineName: LineName, code: string): DecT {
  const linesSum = ctx.memo(memoKey('sumLines', lineName, code), () => sumNets(lineFacts(ctx, lineName), rootLinesInCategory(ctx, lineName, code, undefined)));
  const charges = ctx.memo(memoKey('sumCharges', 'true', code), () => sumOf(rootCharges(ctx, true).filter((ac) => chargeHasCategory(ac, code)), 'Amount'));
  const allowances = ctx.memo(memoKey('sumCharges', 'false', code), () =>
    sumOf(rootCharges(ctx, false).filter((ac) => chargeHasCategory(ac, code)), 'Amount'),
  );
  return linesSum.plus(charges).minus(allowances);
}

/** Σ xs:decimal(cbc:LineExtensionAmount) of the lines at these indexes of `facts`, in order. */
function sumNets(facts: LineFacts, lines: readonly number[]): DecT {
  const sum = new DecSum();
  for (const i of lines) {
    const net = netAt(facts, i);
    if (net !== undefined) sum.add(net);
  }
  return sum.value();
}

/**
 * The root's lines by category: for each line (its index in the line facts), the codes of its
 * categories in order up to the first one whose code cannot be read (a dynamic error). Made once
 * per document: the category sums (one per category and rate asked) each scanned every line again.
 */
interface LineCategories {
  byCode: Map<string, number[]>;
  /** Lines where reading a category failed, in document order: the codes read before, and the error. */
  failures: { line: number; codes: string[]; error: unknown }[];
}

function lineCategories(ctx: Ctx, lineName: LineName): LineCategories {
  return ctx.memo(memoKey('lineCategories', lineName), () => {
    const facts = lineFacts(ctx, lineName);
    const index: LineCategories = { byCode: new Map(), failures: [] };
    for (let i = 0; i < facts.lines.length; i++) addLineCategories(index, facts, i);
    return index;
  });
}

function addLineCategories(index: LineCategories, facts: LineFacts, i: number): void {
  const codes: string[] = [];
  for (let j = facts.first[i]; j < facts.first[i + 1]; j++) {
    const code = facts.codes[j];
    if (code instanceof Raised) {
      index.failures.push({ line: i, codes, error: code.error });
      return;
    }
    if (codes.includes(code)) continue;
    codes.push(code);
    const list = index.byCode.get(code);
    if (list === undefined) index.byCode.set(code, [i]);
    else list.push(i);
  }
}

/**
 * `root/cac:<lineName>[cac:Item/cac:ClassifiedTaxCategory/normalize-space(cbc:ID) = code]` (as
 * indexes in the line facts), further filtered by `cac:Item/cac:ClassifiedTaxCategory/
 * xs:decimal(cbc:Percent) = $rate` when a rate is given, with the errors of the filter evaluated
 * line by line in order: the first line whose category test fails before it finds `code`, or whose
 * rate test fails, raises its error.
 */
function rootLinesInCategory(ctx: Ctx, lineName: LineName, code: string, rate: DecT | undefined): number[] {
  const facts = lineFacts(ctx, lineName);
  const index = lineCategories(ctx, lineName);
  const failure = index.failures.find((f) => !f.codes.includes(code));
  const lines = index.byCode.get(code) ?? [];
  const out: number[] = [];
  for (const i of lines) {
    if (failure !== undefined && i > failure.line) break;
    if (rate === undefined || lineHasRateAt(facts, i, rate)) out.push(i);
  }
  if (failure !== undefined) throw failure.error;
  return out;
}

/** Root-level `cac:AllowanceCharge[cbc:ChargeIndicator = true()/false()]` (a bad indicator is an error). */
export function rootCharges(ctx: Ctx, charge: boolean): El[] {
  return ctx.memo(memoKey('rootCharges', charge ? 'true' : 'false'), () => ctx.root.children(CAC, 'AllowanceCharge').filter((ac) => someBool(ac.children(CBC, 'ChargeIndicator'), charge)));
}

/** exists(//cac:InvoiceLine[category = code][rate = $rate]) etc., memoised per (line name, code, rate). */
export function existsLineWithRate(ctx: Ctx, lineName: LineName, code: string, rate: DecT): boolean {
  return ctx.memo(memoKey('existsLineRate', lineName, code, rateKey(rate)), () => {
    const facts = allLineFacts(ctx, lineName);
    if (facts !== undefined) {
      for (let i = 0; i < facts.lines.length; i++) if (lineHasCode(facts, i, code) && lineHasRateAt(facts, i, rate)) return true;
      return false;
    }
    for (const line of ctx.all(CAC, lineName)) if (lineHasCategory(line, code) && lineHasRate(line, rate)) return true;
    return false;
  });
}

/** exists(//cac:AllowanceCharge[category = code][rate = $rate]). */
export function existsChargeWithRate(ctx: Ctx, code: string, rate: DecT): boolean {
  return ctx.memo(memoKey('existsChargeRate', code, rateKey(rate)), () => {
    for (const ac of ctx.all(CAC, 'AllowanceCharge')) if (chargeHasCategory(ac, code) && chargeHasRate(ac, rate)) return true;
    return false;
  });
}

/** Σ LineExtensionAmount of root lines with category `code` and rate `rate`. */
export function sumLinesWithRate(ctx: Ctx, lineName: LineName, code: string, rate: DecT): DecT {
  return ctx.memo(memoKey('sumLinesRate', lineName, code, rateKey(rate)), () =>
    sumNets(lineFacts(ctx, lineName), rootLinesInCategory(ctx, lineName, code, rate)),
  );
}

/**
 * Σ xs:decimal(LineExtensionAmount) of //(cac:InvoiceLine | cac:CreditNoteLine), memoised; from the
 * line facts when every line of the document is a root line of one kind (an invoice or a credit note).
 */
export function allLinesNet(ctx: Ctx): DecT {
  return ctx.memo('allLinesNet', () => {
    const invoiceLines = ctx.all(CAC, 'InvoiceLine');
    const creditNoteLines = ctx.all(CAC, 'CreditNoteLine');
    const only: LineName | undefined = creditNoteLines.length === 0 ? 'InvoiceLine' : invoiceLines.length === 0 ? 'CreditNoteLine' : undefined;
    const facts = only === undefined ? undefined : allLineFacts(ctx, only);
    if (facts !== undefined) return sumNets(facts, facts.lines.map((_, i) => i));
    return sumOf(union(invoiceLines, creditNoteLines), 'LineExtensionAmount');
  });
}

/** Σ Amount of root charges (or allowances) with category `code` and rate `rate`. */
export function sumChargesWithRate(ctx: Ctx, charge: boolean, code: string, rate: DecT): DecT {
  return ctx.memo(memoKey('sumChargesRate', charge ? 'true' : 'false', code, rateKey(rate)), () =>
    sumOf(
      rootCharges(ctx, charge).filter((ac) => chargeHasCategory(ac, code) && chargeHasRate(ac, rate)),
      'Amount',
    ),
  );
}

/** `../xs:decimal(cbc:TaxableAmount)` passed to u:slack (declared xs:decimal: exactly one required). */
export function exactlyOneDecimal(el: El, path: string): DecT {
  const v = decOpt(p(el, path), path);
  if (v === undefined) throw new XPathError('XPTY0004', `an empty sequence is not allowed for ${path} (exactly one required)`);
  return v;
}

export const SLACK = new Dec('0.02');

/** Document order merge of two element lists (an XPath union). */
export function union(a: readonly El[], b: readonly El[]): El[] {
  if (a.length === 0) return b.slice();
  if (b.length === 0) return a.slice();
  const out: El[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i].order < b[j].order)) out.push(a[i++]);
    else if (i >= a.length || b[j].order < a[i].order) out.push(b[j++]);
    else {
      out.push(a[i++]);
      j++;
    }
  }
  return out;
}

export { opt };
