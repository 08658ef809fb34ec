/**
 * Small helpers so rule code reads like the official XPath: `p(el, 'cac:Party/cac:PartyName/cbc:Name')`,
 * `matchesContext(el, 'cac:AccountingCustomerParty/cac:Party')`.
 */
import { NS, type El } from './xml';
import { decOpt, normalizeSpace, opt, optValue, type Dec } from './xpath';

export const CBC = NS.CBC;
export const CAC = NS.CAC;
export const INVOICE = NS.INVOICE;
export const CREDIT_NOTE = NS.CREDIT_NOTE;

const PREFIXES: Record<string, string> = { cbc: NS.CBC, cac: NS.CAC, ext: NS.EXT, ubl: NS.INVOICE, cn: NS.CREDIT_NOTE };

type Step = readonly [string, string] | '..';
const parsed = new Map<string, Step[]>();

function steps(path: string): Step[] {
  let s = parsed.get(path);
  if (!s) {
    s = path.split('/').map((part): Step => {
      if (part === '..') return '..';
      const [prefix, local] = part.split(':');
      const ns = PREFIXES[prefix];
      if (!ns || !local) throw new Error(`bad path step ${part} in ${path}`);
      return [ns, local] as const;
    });
    parsed.set(path, s);
  }
  return s;
}

/** `el/path` as a node sequence in document order (child steps and `..`). */
export function p(el: El, path: string): El[] {
  let cur: El[] = [el];
  for (const st of steps(path)) {
    if (st === '..') {
      const next: El[] = [];
      for (const n of cur) if (n.parent && !next.includes(n.parent)) next.push(n.parent);
      cur = next;
    } else {
      const [ns, local] = st;
      if (cur.length === 1) cur = cur[0].children(ns, local);
      else {
        const next: El[] = [];
        for (const n of cur) for (const k of n.kids) if (k.local === local && k.ns === ns) next.push(k);
        cur = next;
      }
    }
    if (cur.length === 0) break;
  }
  return cur;
}

/** `exists(el/path)`. */
export function has(el: El, path: string): boolean {
  return p(el, path).length > 0;
}

/** `count(el/path)`. */
export function count(el: El, path: string): number {
  return p(el, path).length;
}

/** The optional single node at `el/path` (cardinality error when several). */
export function one(el: El, path: string): El | undefined {
  return opt(p(el, path), path);
}

/** String value of the optional single node at `el/path` ('' when absent). */
export function str1(el: El, path: string): string {
  return optValue(p(el, path), path);
}

/** `normalize-space(el/path)` with the engine's cardinality check. */
export function ns1(el: El, path: string): string {
  return normalizeSpace(str1(el, path));
}

/** `xs:decimal(el/path)`: undefined when absent. */
export function dec1(el: El, path: string): Dec | undefined {
  return decOpt(p(el, path), path);
}

/** Values of attribute `name` on the nodes at `el/path`. */
export function attrAt(el: El, path: string, name: string): string[] {
  const out: string[] = [];
  for (const n of p(el, path)) {
    const v = n.attr(name);
    if (v !== undefined) out.push(v);
  }
  return out;
}

/**
 * Does `el` match the (relative) match pattern `path`, e.g. 'cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory'?
 * A leading '/' anchors the first step at the document root.
 */
export function matchesContext(el: El, path: string): boolean {
  const anchored = path.startsWith('/');
  const st = steps(anchored ? path.slice(1) : path);
  let cur: El | null = el;
  for (let i = st.length - 1; i >= 0; i--) {
    const s = st[i];
    if (!cur || s === '..') return false;
    if (cur.local !== s[1] || cur.ns !== s[0]) return false;
    cur = cur.parent;
  }
  return anchored ? cur === null : true;
}

/** Is `el` the document element /ubl:Invoice or /cn:CreditNote? */
export function isDocumentRoot(el: El): boolean {
  return el.parent === null && (el.is(INVOICE, 'Invoice') || el.is(CREDIT_NOTE, 'CreditNote'));
}

export function inLine(el: El): boolean {
  return el.ancestor(CAC, 'InvoiceLine') !== undefined || el.ancestor(CAC, 'CreditNoteLine') !== undefined;
}

/** `(cbc:InvoiceTypeCode | cbc:CreditNoteTypeCode)` children of `el`, in document order. */
export function typeCodes(el: El): El[] {
  return el.kids.filter((k) => k.ns === CBC && (k.local === 'InvoiceTypeCode' || k.local === 'CreditNoteTypeCode'));
}

/** `cac:InvoiceLine | cac:CreditNoteLine` children of `el`. */
export function lines(el: El): El[] {
  return el.kids.filter((k) => k.ns === CAC && (k.local === 'InvoiceLine' || k.local === 'CreditNoteLine'));
}

export const name = (ns: string, local: string) => [ns, local] as const;
export const cbc = (local: string) => [CBC, local] as const;
export const cac = (local: string) => [CAC, local] as const;
