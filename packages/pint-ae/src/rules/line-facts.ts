/**
 * What the document-wide tax rules read of every root line, gathered in one pass over the lines.
 *
 * The breakdown checks sum the lines per category, per category and rate, and in all; the
 * category index and the count of standard-rated categories read every line's categories again.
 * On a long invoice each of those passes walked the whole tree anew, and past a few hundred lines
 * the tree no longer fits in the core's cache: the passes were a quarter of a 5,000-line
 * validation. Each line's categories, codes, rates, VAT tests and net amount are now read once,
 * into flat arrays, and the passes run over those.
 *
 * Nothing here decides a rule: an error a value raises (a second ID, a rate that is not a number)
 * is kept in its place as a `Raised` and thrown by the query that reaches it, at the point where
 * the official expression, evaluated lazily in document order, would raise it.
 */
import * as categoryValuesModule from './category-values';
import type { Ctx } from './engine';
import * as engineModule from './engine';
import * as dslModule from './dsl';
import { type El } from './xml';
import type { Dec as DecT } from './xpath';
import * as xpathModule from './xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { categoryCode, isVat, onlyChild } = categoryValuesModule;
const { memoKey } = engineModule;
const { CAC, CBC } = dslModule;
const { XPathError, cmpDec, decimalOf } = xpathModule;

export type LineName = 'InvoiceLine' | 'CreditNoteLine';

/** An error a value raised when it was read, thrown again by whichever query reaches that value. */
export class Raised {
  constructor(readonly error: unknown) {}
}

export interface LineFacts {
  /** `root/cac:<lineName>`, in document order. */
  readonly lines: readonly El[];
  /** The line's `cbc:LineExtensionAmount` (at most one, else the cardinality error). */
  readonly nets: readonly (El | undefined | Raised)[];
  /** Line i's categories are cats[first[i]] to cats[first[i + 1] - 1]; first has lines.length + 1 entries. */
  readonly first: readonly number[];
  /** `cac:Item/cac:ClassifiedTaxCategory` of each line in turn: document order. */
  readonly cats: readonly El[];
  /** categoryCode() of each category (the same string object for the same code). */
  readonly codes: readonly (string | Raised)[];
  /** Whether the category has a cbc:ID (categoryCode() reads '' for one without). */
  readonly hasId: readonly boolean[];
  /** categoryRate() of each category (the same Dec object for the same text). */
  readonly rates: readonly (DecT | undefined | Raised)[];
  /** isVat() of each category. */
  readonly vat: readonly (boolean | Raised)[];
}

/**
 * What `read` returns for `a`, or the XPath error it raises as a Raised (any other error is a bug,
 * thrown). `read` is always one of the module's functions, never a closure made per call.
 */
function attempt<A, T>(read: (a: A) => T, a: A): T | Raised {
  try {
    return read(a);
  } catch (error) {
    if (error instanceof XPathError) return new Raised(error);
    throw error;
  }
}

const lineNet = (line: El) => onlyChild(line, CBC, 'LineExtensionAmount', 'cbc:LineExtensionAmount');
/** What categoryRate() reads: the category's only cbc:Percent. */
const ratePercent = (tc: El) => onlyChild(tc, CBC, 'Percent', 'cbc:Percent');

/** The facts of the root's `lineName` lines (memoised per document). */
export function lineFacts(ctx: Ctx, lineName: LineName): LineFacts {
  return ctx.memo(memoKey('lineFacts', lineName), () => gather(ctx, ctx.root.children(CAC, lineName)));
}

function gather(ctx: Ctx, lines: El[]): LineFacts {
  const nets: (El | undefined | Raised)[] = [];
  const first: number[] = [];
  const cats: El[] = [];
  const codes: (string | Raised)[] = [];
  const hasId: boolean[] = [];
  const rates: (DecT | undefined | Raised)[] = [];
  const vat: (boolean | Raised)[] = [];
  // one string per code and one Dec per rate text, so that the queries compare the same few objects
  const sameCode = new Map<string, string>();
  const sameRate = new Map<string, DecT>();
  for (const line of lines) {
    first.push(cats.length);
    nets.push(attempt(lineNet, line));
    for (const item of line.kids) {
      if (!item.is(CAC, 'Item')) continue;
      for (const tc of item.kids) {
        if (!tc.is(CAC, 'ClassifiedTaxCategory')) continue;
        cats.push(tc);
        const code = attempt(categoryCode, tc);
        codes.push(typeof code === 'string' ? (sameCode.get(code) ?? (sameCode.set(code, code), code)) : code);
        hasId.push(tc.hasChild(CBC, 'ID'));
        rates.push(sharedRate(sameRate, tc));
        vat.push(vatOf(ctx, tc));
      }
    }
  }
  first.push(cats.length);
  return { lines, nets, first, cats, codes, hasId, rates, vat };
}

function vatOf(ctx: Ctx, tc: El): boolean | Raised {
  try {
    return isVat(ctx, tc);
  } catch (error) {
    if (error instanceof XPathError) return new Raised(error);
    throw error;
  }
}

/** categoryRate(tc), the same Dec for the same text (parsed once per text, not once per line). */
function sharedRate(sameRate: Map<string, DecT>, tc: El): DecT | undefined | Raised {
  const n = attempt(ratePercent, tc);
  if (n === undefined || n instanceof Raised) return n;
  const text = n.value; // sliced anew on each read (El.value)
  const known = sameRate.get(text);
  if (known !== undefined) return known;
  const rate = attempt(decimalOf, n);
  if (!(rate instanceof Raised)) sameRate.set(text, rate);
  return rate;
}

/**
 * The facts of the root's lines (invoice lines when it has any, else credit note lines) when their
 * categories are every `cac:ClassifiedTaxCategory` of the document: then the document-wide scans of
 * categories can read them. Else undefined (categories outside those lines' items, in the other
 * kind of line or anywhere else). Same count means same elements, in the same (document) order:
 * the facts' categories are some of them, in that order.
 */
export function allCategoryFacts(ctx: Ctx): LineFacts | undefined {
  const all = ctx.all(CAC, 'ClassifiedTaxCategory').length;
  for (const lineName of ['InvoiceLine', 'CreditNoteLine'] as const) {
    if (ctx.root.children(CAC, lineName).length === 0) continue;
    const facts = lineFacts(ctx, lineName);
    return facts.cats.length === all ? facts : undefined;
  }
  return all === 0 ? lineFacts(ctx, 'InvoiceLine') : undefined;
}

/** The facts when they hold every `cac:<lineName>` of the document (`//cac:<lineName>`), else undefined. */
export function allLineFacts(ctx: Ctx, lineName: LineName): LineFacts | undefined {
  const facts = lineFacts(ctx, lineName);
  return facts.lines.length === ctx.all(CAC, lineName).length ? facts : undefined;
}

/** `code` of category j as categoryCode() reads it (throws its error). */
export function codeAt(facts: LineFacts, j: number): string {
  const code = facts.codes[j];
  if (code instanceof Raised) throw code.error;
  return code;
}

/** `cac:Item/cac:ClassifiedTaxCategory/normalize-space(cbc:ID) = code` on line i (lazy, in order). */
export function lineHasCode(facts: LineFacts, i: number, code: string): boolean {
  for (let j = facts.first[i]; j < facts.first[i + 1]; j++) if (codeAt(facts, j) === code) return true;
  return false;
}

/** `cac:Item/cac:ClassifiedTaxCategory/xs:decimal(cbc:Percent) = $rate` on line i (lazy, in order). */
export function lineHasRateAt(facts: LineFacts, i: number, rate: DecT): boolean {
  for (let j = facts.first[i]; j < facts.first[i + 1]; j++) {
    const r = facts.rates[j];
    if (r instanceof Raised) throw r.error;
    if (r !== undefined && cmpDec(r, rate) === 0) return true;
  }
  return false;
}

/** isVat() of category j (throws its error). */
export function vatAt(facts: LineFacts, j: number): boolean {
  const v = facts.vat[j];
  if (v instanceof Raised) throw v.error;
  return v;
}

/** Line i's `cbc:LineExtensionAmount` (throws its cardinality error). */
export function netAt(facts: LineFacts, i: number): El | undefined {
  const n = facts.nets[i];
  if (n instanceof Raised) throw n.error;
  return n;
}
