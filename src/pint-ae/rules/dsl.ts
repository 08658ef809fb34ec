/**
 * Small helpers so rule code reads like the official XPath: `p(el, 'cac:Party/cac:PartyName/cbc:Name')`,
 * `matchesContext(el, 'cac:AccountingCustomerParty/cac:Party')`.
 */
import type { El } from './xml';
import * as xmlModule from './xml';
import type { Dec } from './xpath';
import * as xpathModule from './xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { NS, intern } = xmlModule;
const { decimalOf, normalizeSpace, opt } = xpathModule;

export const CBC = NS.CBC;
export const CAC = NS.CAC;
export const INVOICE = NS.INVOICE;
export const CREDIT_NOTE = NS.CREDIT_NOTE;

const PREFIXES: Record<string, string> = { cbc: NS.CBC, cac: NS.CAC, ext: NS.EXT, ubl: NS.INVOICE, cn: NS.CREDIT_NOTE };

interface ChildStep {
  ns: string;
  local: string;
}
type Step = ChildStep | '..';
/**
 * A parsed path. `up` leading `..` steps, then child steps only (`simple`), or any mix (then
 * `simple` is false and the general, de-duplicating evaluation is used).
 */
interface Parsed extends Array<Step> {
  up: number;
  simple: boolean;
  /** The path as written (for error messages). */
  text: string;
}
const parsed = new Map<string, Parsed>();

/**
 * A path parsed once, for call sites that run on every line: the helpers below also take the
 * path as a string, which costs a Map lookup per call (~50 per line before these were parsed once).
 */
export type Path = Parsed;
export const path = (text: string): Path => steps(text);

/** A path argument: its text, or the same parsed once with `path()`. */
export type PathArg = string | Path;

function stepsOf(path: PathArg): Parsed {
  if (typeof path !== 'string') return path;
  // most paths given as text are literals (internalised strings): a hit is one pointer comparison
  const n = path.length;
  const slot = (n * 31 + path.charCodeAt(n - 1) * 7 + path.charCodeAt(n >> 1)) & (RECENT_SIZE - 1);
  if (RECENT_TEXT[slot] === path) return RECENT_PARSED[slot]!;
  const s = steps(path);
  RECENT_TEXT[slot] = path;
  RECENT_PARSED[slot] = s;
  return s;
}

/**
 * Paths last given as text, by a hash of their length and two characters: the Map lookup in
 * steps() for each of the ~150 text paths a 1-line validation reads was a measurable share of its time.
 */
const RECENT_SIZE = 256;
const RECENT_TEXT: (string | undefined)[] = new Array<string | undefined>(RECENT_SIZE).fill(undefined);
const RECENT_PARSED: (Parsed | undefined)[] = new Array<Parsed | undefined>(RECENT_SIZE).fill(undefined);

function steps(path: string): Parsed {
  let s = parsed.get(path);
  if (!s) {
    s = path.split('/').map((part): Step => {
      if (part === '..') return '..';
      const [prefix, local] = part.split(':');
      const ns = PREFIXES[prefix];
      if (!ns || !local) throw new Error(`bad path step ${part} in ${path}`);
      return { ns, local: intern(local) };
    }) as Parsed;
    let up = 0;
    while (s[up] === '..') up++;
    s.up = up;
    s.simple = !s.slice(up).includes('..');
    s.text = path;
    parsed.set(path, s);
  }
  return s;
}

/** The node `up` parents above `el` (null past the root). */
function ancestorAt(el: El, up: number): El | null {
  let cur: El | null = el;
  for (let i = 0; i < up && cur; i++) cur = cur.parent;
  return cur;
}

const NONE: El[] = [];

/**
 * Nodes at `el/path[from..]` appended to `out` (allocated on the first match): depth-first over
 * child steps, which is document order. One array per call, none when nothing matches.
 */
function collect(el: El, st: Step[], from: number, out: El[] | undefined): El[] | undefined {
  if (from === st.length) {
    if (out === undefined) return [el];
    out.push(el);
    return out;
  }
  const s = st[from] as ChildStep;
  // a wide element (the root of a long invoice) has an index by name: only matches come back
  const kids = el.kids.length > 24 ? el.children(s.ns, s.local) : el.kids;
  for (let k = 0; k < kids.length; k++) {
    const kid = kids[k];
    if (kid.local === s.local && kid.ns === s.ns) out = collect(kid, st, from + 1, out);
  }
  return out;
}

/** `el/path` as a node sequence in document order (child steps and `..`); do not mutate it. */
export function p(el: El, path: PathArg): El[] {
  const st = stepsOf(path);
  if (st.simple) {
    // from one node, `..` steps lead to one node: no de-duplication needed
    const from = st.up === 0 ? el : ancestorAt(el, st.up);
    if (from === null) return NONE;
    if (st.length === st.up) return [from];
    if (st.length === st.up + 1) return from.children((st[st.up] as ChildStep).ns, (st[st.up] as ChildStep).local);
    return collect(from, st, st.up, undefined) ?? NONE;
  }
  let cur: El[] = [el];
  for (let i = 0; i < st.length; i++) {
    const s = st[i];
    if (s === '..') {
      const next: El[] = [];
      for (const n of cur) if (n.parent && !next.includes(n.parent)) next.push(n.parent);
      cur = next;
    } else if (cur.length === 1) cur = cur[0].children(s.ns, s.local);
    else {
      const next: El[] = [];
      for (let j = 0; j < cur.length; j++) {
        const kids = cur[j].kids;
        for (let k = 0; k < kids.length; k++) if (kids[k].local === s.local && kids[k].ns === s.ns) next.push(kids[k]);
      }
      cur = next;
    }
    if (cur.length === 0) break;
  }
  return cur;
}

/** Is there a node at `el/path[from..]` (depth-first, no intermediate arrays)? */
function exists(el: El, st: Step[], from: number): boolean {
  if (from === st.length) return true;
  const s = st[from];
  if (s === '..') return el.parent !== null && exists(el.parent, st, from + 1);
  const kids = el.kids;
  if (kids.length > 24) {
    const named = el.children(s.ns, s.local); // indexed, shared array
    for (let k = 0; k < named.length; k++) if (exists(named[k], st, from + 1)) return true;
    return false;
  }
  for (let k = 0; k < kids.length; k++) if (kids[k].local === s.local && kids[k].ns === s.ns && exists(kids[k], st, from + 1)) return true;
  return false;
}

function countAt(el: El, st: Step[], from: number): number {
  if (from === st.length) return 1;
  const s = st[from];
  if (s === '..') return el.parent !== null ? countAt(el.parent, st, from + 1) : 0;
  const kids = el.kids;
  let n = 0;
  if (kids.length > 24) {
    const named = el.children(s.ns, s.local); // indexed, shared array
    if (from + 1 === st.length) return named.length;
    for (let k = 0; k < named.length; k++) n += countAt(named[k], st, from + 1);
    return n;
  }
  for (let k = 0; k < kids.length; k++) if (kids[k].local === s.local && kids[k].ns === s.ns) n += countAt(kids[k], st, from + 1);
  return n;
}

/** `exists(el/path)`. */
export function has(el: El, path: PathArg): boolean {
  return exists(el, stepsOf(path), 0);
}

/** `count(el/path)` (child steps only; `..` paths are counted without de-duplication, so avoid them). */
export function count(el: El, path: PathArg): number {
  return countAt(el, stepsOf(path), 0);
}

/** First node at `el/path[from..]` in document order, and whether there is a second one. */
let secondFound = false;
function firstAt(el: El, st: Step[], from: number, found: El | undefined): El | undefined {
  if (from === st.length) {
    if (found !== undefined) secondFound = true;
    return found ?? el;
  }
  const s = st[from] as ChildStep;
  const kids = el.kids;
  for (let k = 0; k < kids.length && !secondFound; k++) {
    if (kids[k].local === s.local && kids[k].ns === s.ns) found = firstAt(kids[k], st, from + 1, found);
  }
  return found;
}

/**
 * The optional single node at `el/path` (cardinality error when several). Paths of child steps are
 * walked without building node lists: rules read single values from every line, and the arrays were
 * a large share of what a validation allocated.
 */
export function one(el: El, path: PathArg): El | undefined {
  const st = stepsOf(path);
  const from = st.simple ? ancestorAt(el, st.up) : null;
  if (from === null || from.kids.length > 24) return opt(p(el, st), st.text);
  secondFound = false;
  const found = firstAt(from, st, st.up, undefined);
  if (secondFound) return opt(p(el, st), st.text); // the engine's error, with the real count
  return found;
}

/** String value of the optional single node at `el/path` ('' when absent). */
export function str1(el: El, path: PathArg): string {
  const n = one(el, path);
  return n ? n.value : '';
}

/** `normalize-space(el/path)` with the engine's cardinality check. */
export function ns1(el: El, path: PathArg): string {
  return normalizeSpace(str1(el, path));
}

/** `xs:decimal(el/path)`: undefined when absent. */
export function dec1(el: El, path: PathArg): Dec | undefined {
  const n = one(el, path);
  return n === undefined ? undefined : decimalOf(n);
}

const NO_VALUES: string[] = [];

/** Values of attribute `name` on the nodes at `el/path` (do not mutate). */
export function attrAt(el: El, path: PathArg, name: string): string[] {
  let out: string[] | undefined;
  for (const n of p(el, path)) {
    const v = n.attr(name);
    if (v !== undefined) (out ??= []).push(v);
  }
  return out ?? NO_VALUES;
}

/**
 * Does `el` match the (relative) match pattern `path`, e.g. 'cac:InvoiceLine/cac:Item/cac:ClassifiedTaxCategory'?
 * A leading '/' anchors the first step at the document root.
 */
export function matchesContext(el: El, path: PathArg): boolean {
  const anchored = typeof path === 'string' && path.charCodeAt(0) === 47; /* / */
  const st = typeof path !== 'string' ? path : steps(anchored ? path.slice(1) : path);
  let cur: El | null = el;
  for (let i = st.length - 1; i >= 0; i--) {
    const s = st[i];
    if (!cur || s === '..') return false;
    if (cur.local !== s.local || cur.ns !== s.ns) return false;
    cur = cur.parent;
  }
  return anchored ? cur === null : true;
}

/**
 * The match function of one or more relative patterns (`A | B`), e.g. contextIs('cac:Price/cac:AllowanceCharge'):
 * the paths are parsed once, not looked up by their text on every element.
 */
export function contextIs(...texts: string[]): (el: El) => boolean {
  const [a, b, ...rest] = texts.map(path);
  if (rest.length > 0) throw new Error('contextIs takes one or two patterns');
  return b === undefined ? (el) => matchesContext(el, a) : (el) => matchesContext(el, a) || matchesContext(el, b);
}

export function inLine(el: El): boolean {
  return el.ancestor(CAC, 'InvoiceLine') !== undefined || el.ancestor(CAC, 'CreditNoteLine') !== undefined;
}

/** `(cbc:InvoiceTypeCode | cbc:CreditNoteTypeCode)` children of `el`, in document order. */
export function typeCodes(el: El): El[] {
  const inv = el.children(CBC, 'InvoiceTypeCode');
  const cn = el.children(CBC, 'CreditNoteTypeCode');
  if (cn.length === 0) return inv;
  if (inv.length === 0) return cn;
  return [...inv, ...cn].sort((a, b) => a.order - b.order);
}

export const name = (ns: string, local: string) => [ns, local] as const;
export const cbc = (local: string) => [CBC, local] as const;
export const cac = (local: string) => [CAC, local] as const;
