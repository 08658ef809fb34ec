/**
 * XPath 2.0 value semantics the official rules rely on, reproduced the way the official engine
 * (SaxonJS 2, running the compiled .sef.json) evaluates them:
 *
 * - dynamic errors (a value that does not cast, a sequence of two where one is allowed) abort the
 *   official run; here they throw XPathError, which the engine reports as `eval-error`;
 * - casts follow SaxonJS: whitespace [ \t\r\n] trimmed, xs:decimal / xs:double / xs:boolean /
 *   xs:date / xs:time lexical forms and ranges as SaxonJS checks them;
 * - xs:decimal arithmetic is exact (decimal.js, never floats); division keeps 20 decimals
 *   (half-up), like SaxonJS' Big.js; `round()` is half towards positive infinity;
 * - xs:double arithmetic (untyped operands, `number()`) is plain IEEE doubles, as in SaxonJS.
 */
import Decimal from 'decimal.js';
import type { El } from './xml';

/** Decimal arithmetic for xs:decimal: wide enough that +, -, * are exact for any realistic amount. */
export const Dec = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -1000, toExpPos: 1000 });
export type Dec = Decimal;

export const ZERO = new Dec(0);
export const FIVE = new Dec(5);
export const HUNDRED = new Dec(100);
const HUNDREDTH = new Dec('0.01');

/** A dynamic error the official engine would raise (it stops the whole validation run). */
export class XPathError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'XPathError';
  }
}

export function cardinalityError(what: string, n: number): XPathError {
  return new XPathError('XPTY0004', `a sequence of ${n} items is not allowed for ${what}`);
}

function castError(value: string, type: string): XPathError {
  return new XPathError('FORG0001', `"${value}" is not a valid ${type}`);
}

// ---------------------------------------------------------------------------------------------
// strings

/**
 * fn:upper-case. A string with no character the builtin could change (ASCII without a-z) is
 * returned as it is: the builtin leaves V8's generated code for each call (once per tax category
 * of every line for its VAT test).
 */
export function upperCase(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 97 && c <= 122) || c > 127) return s.toUpperCase();
  }
  return s;
}

/** fn:normalize-space (XML whitespace only). */
export function normalizeSpace(s: string): string {
  const n = s.length;
  if (n === 0) return s;
  let clean = s.charCodeAt(0) !== 32 && s.charCodeAt(n - 1) !== 32;
  for (let i = 0; clean && i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 9 || c === 10 || c === 13 || (c === 32 && s.charCodeAt(i + 1) === 32)) clean = false;
  }
  return clean ? s : s.replace(/[ \n\r\t]+/g, ' ').replace(/^ | $/g, '');
}

const isWs = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/** Trim XML whitespace, as SaxonJS does before casting. */
export function trimXml(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isWs(s.charCodeAt(a))) a++;
  while (b > a && isWs(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** fn:string-length (counts code points). */
export function stringLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

/** fn:substring-after. */
export function substringAfter(s: string, sep: string): string {
  const i = s.indexOf(sep);
  return i < 0 ? '' : s.slice(i + sep.length);
}

/** fn:translate. */
export function translate(s: string, from: string, to: string): string {
  const src = Array.from(from);
  const dst = Array.from(to);
  let out = '';
  for (const ch of s) {
    const i = src.indexOf(ch);
    if (i < 0) out += ch;
    else if (i < dst.length) out += dst[i];
  }
  return out;
}

/** fn:substring with XPath's rounding of start/length. */
export function substring(s: string, start: number, length?: number): string {
  const cps = Array.from(s);
  const from = Math.round(start);
  const to = length === undefined ? Infinity : from + Math.round(length);
  let out = '';
  for (let p = 1; p <= cps.length; p++) if (p >= from && p < to) out += cps[p - 1];
  return out;
}

// ---------------------------------------------------------------------------------------------
// node sequences

/** The single node of `nodes` (0 or 1 allowed), else a cardinality error. */
export function opt(nodes: readonly El[], what: string): El | undefined {
  if (nodes.length > 1) throw cardinalityError(what, nodes.length);
  return nodes[0];
}

/** String value of an optional single node ('' when absent). */
export function optValue(nodes: readonly El[], what: string): string {
  const n = opt(nodes, what);
  return n ? n.value : '';
}

/** The `text()` children of `el` as one optional string (cardinality error if several text nodes). */
export function textOpt(el: El, what = 'text()'): string {
  if (el.texts.length > 1) throw cardinalityError(what, el.texts.length);
  return el.texts.length ? el.texts[0] : '';
}

/**
 * The one text node of `el/ns:local/text()` ('' when none; cardinality error when several), in
 * document order, without building the lists of text nodes for children without markup inside.
 */
export function childText(el: El, ns: string, local: string, what: string): string {
  let n = 0;
  let first = '';
  for (const k of el.kids) {
    if (k.local !== local || k.ns !== ns) continue;
    const plain = k.plainText(); // one text node, or none when '', when there is no markup inside
    if (plain !== undefined) {
      if (plain !== '' && n++ === 0) first = plain;
      continue;
    }
    const texts = k.texts;
    if (n === 0 && texts.length > 0) first = texts[0];
    n += texts.length;
  }
  if (n > 1) throw cardinalityError(what, n);
  return first;
}

// ---------------------------------------------------------------------------------------------
// general comparisons with string operands (untypedAtomic vs xs:string compares as strings)

export function someEq(values: readonly (El | string)[], ...literals: string[]): boolean {
  for (const v of values) {
    const s = typeof v === 'string' ? v : v.value;
    if (literals.includes(s)) return true;
  }
  return false;
}

export function someNe(values: readonly (El | string)[], literal: string): boolean {
  for (const v of values) if ((typeof v === 'string' ? v : v.value) !== literal) return true;
  return false;
}

/** `A = B` with both operands untyped node sequences (string comparison, existential). */
export function someEqNodes(a: readonly (El | string)[], b: readonly (El | string)[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const set = new Set(b.map((x) => (typeof x === 'string' ? x : x.value)));
  for (const x of a) if (set.has(typeof x === 'string' ? x : x.value)) return true;
  return false;
}

/** `A != B` with untyped node sequences: some pair differs. */
export function someNeNodes(a: readonly (El | string)[], b: readonly (El | string)[]): boolean {
  for (const x of a) {
    const xs = typeof x === 'string' ? x : x.value;
    for (const y of b) if (xs !== (typeof y === 'string' ? y : y.value)) return true;
  }
  return false;
}

export type NumOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

export function compareNumbers(a: number, op: NumOp, b: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return op === '!=' ? false : false;
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

/**
 * General comparison of untyped nodes with a numeric literal: each node is cast to xs:double
 * (a dynamic error if it does not cast), in order, until one pair satisfies `op`.
 */
export function someNum(nodes: readonly El[], op: NumOp, literal: number): boolean {
  for (const n of nodes) {
    const d = toDouble(n.value);
    if (compareNumbers(d, op, literal)) return true;
  }
  return false;
}

/** `nodes = true()` / `nodes = false()`: each node cast to xs:boolean (error if it does not cast). */
export function someBool(nodes: readonly El[], literal: boolean): boolean {
  for (const n of nodes) if (toBoolean(n.value) === literal) return true;
  return false;
}

/** The same comparison as a match-pattern predicate: a dynamic error means "no match". */
export function someBoolInPattern(nodes: readonly El[], literal: boolean): boolean {
  try {
    return someBool(nodes, literal);
  } catch (e) {
    if (e instanceof XPathError) return false;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// casts (SaxonJS rules)

// SaxonJS strips one leading '+', tests this, then builds a Big.js number, which rejects a second '+'
const DECIMAL_RE = /^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/;
const DOUBLE_RE = /^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([Ee][-+]?[0-9]+)?$/;

function decimalLexical(s: string): string | null {
  let t = trimXml(s);
  if (t.charCodeAt(0) === 43 /* + */) t = t.slice(1);
  // fast path for plain digits with an optional sign and point; the regex decides anything else
  let digits = 0;
  let points = 0;
  let ok = t.length > 0;
  for (let i = 0; ok && i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46) points++;
    else if (!(c === 45 && i === 0)) ok = false;
  }
  if (ok) return digits > 0 && points <= 1 ? t : null;
  return DECIMAL_RE.test(t) ? t : null;
}

/** xs:decimal(s): a dynamic error if `s` is not a decimal. */
export function toDecimal(s: string): Dec {
  const t = decimalLexical(s);
  if (t === null) throw castError(s, 'xs:decimal');
  return decimalFromLexical(t);
}

/**
 * Decimals by lexical form. decimal.js values are immutable, so equal texts can share one: lines
 * repeat rates, quantities and many amounts, and parsing each again allocated a good part of a
 * validation's garbage. Bounded: cleared when full.
 */
const DECIMALS = new Map<string, Dec>();
const DECIMALS_MAX = 50_000;

function decimalFromLexical(t: string): Dec {
  let d = DECIMALS.get(t);
  if (d === undefined) {
    // decimal.js wants a digit before and after the point: "5." -> "5", ".5" -> "0.5"
    let x = t.endsWith('.') ? t.slice(0, -1) : t;
    if (x.startsWith('.') || x.startsWith('-.')) x = x.replace('.', '0.');
    d = new Dec(x);
    if (DECIMALS.size >= DECIMALS_MAX) DECIMALS.clear();
    DECIMALS.set(t, d);
  }
  return d;
}

export function castableDecimal(s: string): boolean {
  return decimalLexical(s) !== null;
}

/**
 * `nodes castable as xs:decimal` (false for an empty or multi-item sequence). Decides on the
 * lexical form alone: building the decimal (decimal.js, a cache keyed by the fresh value string)
 * is left to a caller that needs its value, and aligned-ibrp-004 compares its three amounts as
 * integers (dec-sum.ts) without one.
 */
export function castableDecimalNodes(nodes: readonly El[]): boolean {
  if (nodes.length !== 1) return false;
  const cached = nodes[0].decimal;
  if (cached instanceof Decimal) return true;
  if (cached instanceof XPathError) return false;
  return decimalLexical(nodes[0].value) !== null;
}

/** xs:decimal(.) of an element, or null when it is not castable (memoised, no exception). */
export function tryDecimalOf(el: El): Dec | null {
  const cached = el.decimal;
  if (cached instanceof Decimal) return cached;
  if (cached instanceof XPathError) return null;
  const t = decimalLexical(el.value);
  if (t === null) {
    el.decimal = castError(el.value, 'xs:decimal');
    return null;
  }
  const d = decimalFromLexical(t);
  el.decimal = d;
  return d;
}

/** xs:decimal(.) of an element, parsed once per element (a cast error is remembered and rethrown). */
export function decimalOf(el: El): Dec {
  const d = tryDecimalOf(el);
  if (d === null) throw el.decimal as XPathError;
  return d;
}

/** xs:decimal() of an optional node: undefined when empty; errors on >1 node or a bad value. */
export function decOpt(nodes: readonly El[], what: string): Dec | undefined {
  const n = opt(nodes, what);
  return n === undefined ? undefined : decimalOf(n);
}

/** xs:double cast (untyped operand in arithmetic or compared with a number). */
export function toDouble(s: string): number {
  const d = parseDouble(s);
  if (d === undefined) throw castError(s, 'xs:double');
  return d;
}

function parseDouble(s: string): number | undefined {
  const plain = plainDecimalDouble(s);
  if (plain !== undefined) return plain; // what the regex below would accept and parse, without it
  let t = trimXml(s);
  if (/.\.$/.test(t)) t += '0';
  if (DOUBLE_RE.test(t)) return parseFloat(t);
  if (t === 'NaN') return NaN;
  if (t === '-INF') return -Infinity;
  if (t === 'INF' || t === '+INF') return Infinity;
  return undefined;
}

/** Exact powers of ten as doubles (all up to 1e22 are). */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * xs:double of `-?[0-9]+(\.[0-9]+)?` between XML whitespace (the form amounts and quantities almost
 * always have), or undefined for any other form. With at most 15 digits, the digits make an exact
 * integer and the power of ten is exact, so one division is correctly rounded, i.e. parseFloat's
 * result, at a fraction of its cost (lines are read as doubles by several rules).
 */
function plainDecimalDouble(s: string): number | undefined {
  let i = 0;
  let n = s.length;
  while (i < n && isWs(s.charCodeAt(i))) i++;
  while (n > i && isWs(s.charCodeAt(n - 1))) n--;
  const start = i;
  if (i < n && s.charCodeAt(i) === 45 /* - */) i++;
  const first = i;
  let v = 0;
  let c = 0;
  while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) {
    v = v * 10 + (c - 48);
    i++;
  }
  if (i === first) return undefined;
  let fractionDigits = 0;
  if (i < n) {
    if (s.charCodeAt(i) !== 46 /* . */) return undefined;
    const point = ++i;
    while (i < n && (c = s.charCodeAt(i)) >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      i++;
    }
    if (i !== n || i === point) return undefined;
    fractionDigits = n - point;
  }
  const digits = n - first - (fractionDigits > 0 ? 1 : 0);
  if (digits > 15) return parseFloat(s.slice(start, n));
  const x = fractionDigits === 0 ? v : v / POW10[fractionDigits];
  return first > start ? -x : x;
}

/** fn:number(): NaN instead of an error. */
export function numberOf(s: string | undefined): number {
  if (s === undefined) return NaN;
  const d = parseDouble(s);
  return d === undefined ? NaN : d;
}

/** fn:number() of an optional node (cardinality error on more than one). */
export function numberOpt(nodes: readonly El[], what: string): number {
  const n = opt(nodes, what);
  return numberOf(n?.value);
}

export function toBoolean(s: string): boolean {
  switch (trimXml(s)) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw castError(s, 'xs:boolean');
  }
}

/**
 * xs:integer castability as SaxonJS implements it: a \s-tolerant regex, then, for strings longer
 * than 9 characters, a Big.js number, which rejects a leading '+' and surrounding whitespace.
 */
export function castableInteger(s: string): boolean {
  if (!/^\s*[-+]?[0-9]+\s*$/.test(s)) return false;
  return s.length <= 9 || /^-?[0-9]+$/.test(s);
}

export function toInteger(s: string): number {
  if (!castableInteger(s)) throw castError(s, 'xs:integer');
  return parseInt(s.trim(), 10);
}

const DATE_RE = /^\s*(-?(?:[1-9][0-9]{4,}|[0-9]{4})-[0-9]{2}-[0-9]{2})(Z|([+-])[0-9]{2}:[0-9]{2})?\s*$/;
const TIME_RE = /^\s*([0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?)(Z|([+-])[0-9]{2}:[0-9]{2})?\s*$/;

/** Timezone offset in minutes, or null for none; a dynamic error when out of range. */
function tzMinutes(tz: string, value: string): number | null {
  if (tz === '') return null;
  if (tz === 'Z') return 0;
  const [h, m] = tz.split(':');
  const neg = h.startsWith('-');
  const hh = Math.abs(parseInt(h, 10));
  const mm = parseInt(m, 10);
  if (hh > 14 || mm > 59) throw castError(value, 'timezone');
  return (neg ? -1 : 1) * (60 * hh + mm);
}

function validDateTimeParts(parts: number[]): boolean {
  const [y, mo, d, h, mi, s] = parts;
  const leap = !(y % 4 !== 0 || (y % 100 === 0 && y % 400 !== 0));
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return !(mo < 1 || mo > 12 || d < 1 || d > days[mo - 1] || h >= 24 || mi >= 60 || s >= 60);
}

/**
 * xs:date cast, as an instant (ms) at the start of the day in its timezone; a date without a
 * timezone uses the implicit (local) timezone, as the official engine does.
 */
export function toDate(s: string): number {
  const m = DATE_RE.exec(s);
  if (!m) throw castError(s, 'xs:date');
  const neg = m[1].startsWith('-');
  const parts = (neg ? m[1].slice(1) : m[1]).split('-').map((p) => parseFloat(p));
  const year = neg ? -parts[0] : parts[0];
  if (year < -9999 || year > 9999) throw new XPathError('FODT0001', `year ${year} is out of range`);
  if (!validDateTimeParts([parts[0], parts[1], parts[2], 0, 0, 0])) throw castError(s, 'xs:date');
  const d = new Date(Date.UTC(year, parts[1] - 1, parts[2]));
  if (parts[0] < 100) d.setUTCFullYear(year);
  const tz = tzMinutes(m[2] ?? '', s);
  return tz === null ? d.getTime() + 60000 * new Date().getTimezoneOffset() : d.getTime() - 60000 * tz;
}

export function castableDate(s: string): boolean {
  // fast path: exactly YYYY-MM-DD
  if (s.length === 10 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45) {
    let digits = true;
    for (const i of [0, 1, 2, 3, 5, 6, 8, 9]) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) digits = false;
    }
    if (digits) {
      const y = +s.slice(0, 4);
      return validDateTimeParts([y, +s.slice(5, 7), +s.slice(8, 10), 0, 0, 0]);
    }
  }
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const neg = m[1].startsWith('-');
  const parts = (neg ? m[1].slice(1) : m[1]).split('-').map((p) => parseFloat(p));
  if (parts[0] > 9999) return false;
  if (!validDateTimeParts([parts[0], parts[1], parts[2], 0, 0, 0])) return false;
  try {
    tzMinutes(m[2] ?? '', s);
    return true;
  } catch {
    return false;
  }
}

export function castableTime(s: string): boolean {
  const m = TIME_RE.exec(s);
  if (!m) return false;
  try {
    tzMinutes(m[2] ?? '', s);
  } catch {
    return false;
  }
  const t = m[1];
  if (/^24:00:00(\.0+)?$/.test(t)) return true;
  const [hh, mm, ss] = t.split(':').map((p) => parseFloat(p));
  return validDateTimeParts([1972, 1, 1, hh, mm, ss]);
}

/** xs:date() of an optional node. */
export function dateOpt(nodes: readonly El[], what: string): number | undefined {
  const n = opt(nodes, what);
  return n === undefined ? undefined : toDate(n.value);
}

// ---------------------------------------------------------------------------------------------
// decimal arithmetic

/** fn:round on xs:decimal: half towards positive infinity. */
export function roundDec(d: Dec): Dec {
  return d.toDecimalPlaces(0, Decimal.ROUND_HALF_CEIL);
}

/** `round(x * 10 * 10) div 100` (also `round(x * 100) div 100`) on xs:decimal (the division is exact). */
export function round2(d: Dec): Dec {
  // at most two fraction digits: d is its own rounding (exactly, as its digits are far below the
  // 200 of the precision), without the three decimal.js operations (a share of a short validation)
  if (d.d && d.d.length <= 20 && d.decimalPlaces() <= 2) return d;
  return roundDec(d.times(HUNDRED)).times(HUNDREDTH);
}

/**
 * x.comparedTo(y) (-1, 0, 1) for finite decimals, by decimal.js's own algorithm on its fields
 * (sign s, exponent e, base-1e7 digits d) but without the copy of y it makes on every comparison:
 * rates and prices are compared several times per line.
 */
export function cmpDec(x: Dec, y: Dec): number {
  const xd = x.d;
  const yd = y.d;
  if (!xd || !yd) return x.cmp(y); // NaN or infinite: decimal.js decides
  const xs = x.s;
  const ys = y.s;
  if (!xd[0] || !yd[0]) return xd[0] ? xs : yd[0] ? -ys : 0; // a zero
  if (xs !== ys) return xs;
  if (x.e !== y.e) return (x.e > y.e) !== xs < 0 ? 1 : -1;
  const n = Math.min(xd.length, yd.length);
  for (let i = 0; i < n; i++) if (xd[i] !== yd[i]) return (xd[i] > yd[i]) !== xs < 0 ? 1 : -1;
  return xd.length === yd.length ? 0 : (xd.length > yd.length) !== xs < 0 ? 1 : -1;
}

/** x > 0 for a decimal, without a comparison. */
export function isPositiveDec(x: Dec): boolean {
  return !x.isZero() && x.isPositive();
}

/** xs:decimal division as the engine does it: 20 decimals, half-up; division by zero is an error. */
export function divDec(a: Dec, b: Dec): Dec {
  if (b.isZero()) throw new XPathError('FOAR0001', 'division by zero');
  // dividing by 100 (the only divisor the rules use) is an exact multiplication by 0.01
  const q = b.eq(HUNDRED) ? a.times(HUNDREDTH) : a.div(b);
  return q.toDecimalPlaces(20, Decimal.ROUND_HALF_UP);
}

/** u:slack($exp, $val, $slack): $exp - $slack <= $val <= $exp + $slack. */
export function slack(exp: Dec, val: Dec, tolerance: Dec): boolean {
  return exp.plus(tolerance).gte(val) && exp.minus(tolerance).lte(val);
}

// ---------------------------------------------------------------------------------------------
// regular expressions (XPath flavour: \d is any Unicode decimal digit)

const regexCache = new Map<string, RegExp>();

export function matches(s: string, xpathRegex: string): boolean {
  let re = regexCache.get(xpathRegex);
  if (!re) {
    re = new RegExp(xpathRegex.replace(/\\d/g, '\\p{Nd}'), 'u');
    regexCache.set(xpathRegex, re);
  }
  return re.test(s);
}

/** Memoised lazy value that also remembers a dynamic error. */
export class Lazy<T> {
  private state: 0 | 1 | 2 = 0;
  private value: T | undefined;
  private error: unknown;
  constructor(private readonly compute: () => T) {}
  get(): T {
    if (this.state === 1) return this.value as T;
    if (this.state === 2) throw this.error;
    try {
      this.value = this.compute();
      this.state = 1;
      return this.value;
    } catch (e) {
      this.error = e;
      this.state = 2;
      throw e;
    }
  }
}
