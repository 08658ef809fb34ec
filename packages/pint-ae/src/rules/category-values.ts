/**
 * What the rules read of one tax category (cac:TaxCategory or cac:ClassifiedTaxCategory): its VAT
 * test, its code and its rate, each with the official engine's errors (a second ID or Percent is a
 * cardinality error, a rate that is not a number a cast error). Used per element by the rules and
 * for every line at once by line-facts.ts.
 */
import * as dslModule from './dsl';
import type { Ctx } from './engine';
import { type El } from './xml';
import type { Dec as DecT } from './xpath';
import * as xpathModule from './xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { CAC, CBC } = dslModule;
const { decimalOf, normalizeSpace, opt, upperCase } = xpathModule;

/**
 * `cac:TaxScheme/normalize-space(upper-case(cbc:ID)) = 'VAT'` on a (Classified)TaxCategory:
 * tax schemes in order, each with at most one ID (else a dynamic error), until one says VAT.
 * Memoised on the element (El.ruleMemo; a thrown error is remembered and rethrown too): each
 * category is tested by its context match and again by the document's category index.
 */
export function isVat(_ctx: Ctx, tc: El): boolean {
  const known = tc.ruleMemo;
  if (known === true || known === false) return known;
  if (known instanceof VatError) throw known.error;
  try {
    const vat = hasVatScheme(tc);
    tc.ruleMemo = vat;
    return vat;
  } catch (e) {
    tc.ruleMemo = new VatError(e);
    throw e;
  }
}

function hasVatScheme(tc: El): boolean {
  for (const scheme of tc.kids) {
    if (!scheme.is(CAC, 'TaxScheme')) continue;
    const id = valueOfOnlyChild(scheme, CBC, 'ID', 'cac:TaxScheme/cbc:ID');
    if (normalizeSpace(upperCase(id)) === 'VAT') return true;
  }
  return false;
}

class VatError {
  constructor(readonly error: unknown) {}
}

/**
 * The only child `ns:local` of `el` (undefined when none; the engine's cardinality error when
 * several), found without building a node list: these helpers run for every line and category.
 */
export function onlyChild(el: El, ns: string, local: string, what: string): El | undefined {
  let found: El | undefined;
  for (const k of el.kids) {
    if (!k.is(ns, local)) continue;
    if (found !== undefined) return opt(el.children(ns, local), what);
    found = k;
  }
  return found;
}

function valueOfOnlyChild(el: El, ns: string, local: string, what: string): string {
  const n = onlyChild(el, ns, local, what);
  return n === undefined ? '' : n.value;
}

/** `normalize-space(cbc:ID)` of a tax category (a dynamic error if it has several IDs). */
export function categoryCode(tc: El): string {
  return normalizeSpace(valueOfOnlyChild(tc, CBC, 'ID', 'cbc:ID'));
}

/** `xs:decimal(cbc:Percent)` of a tax category: undefined without one (errors as above). */
export function categoryRate(tc: El): DecT | undefined {
  const n = onlyChild(tc, CBC, 'Percent', 'cbc:Percent');
  return n === undefined ? undefined : decimalOf(n);
}
