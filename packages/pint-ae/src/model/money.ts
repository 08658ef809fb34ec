// Money arithmetic with decimal.js: no binary floating point in sums, half-up rounding to 2 decimals
// (fils) where PINT-AE rounds. Pure code.
import DecimalJs from 'decimal.js';

/** A Decimal constructor of our own (40 significant digits, ROUND_HALF_UP), isolated from global config. */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 40,
});
export type Decimal = InstanceType<typeof Decimal>;

export const ZERO = new Decimal(0);
const HUNDRED = new Decimal(100);

/**
 * A Decimal from a JSON number or a numeric string. A JSON number is taken at its shortest
 * round-trip decimal form (0.1 is 0.1, not 0.1000000000000000055...).
 */
export function dec(value: number | string | Decimal): Decimal {
  return value instanceof Decimal ? value : new Decimal(value);
}

/** Round half-up (away from zero for negatives, as money usually does) to 2 decimal places. */
export function round2(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** Money as it goes into XML and JSON: always two decimals, no exponent ("1050.00"). */
export function fmt2(value: Decimal): string {
  return value.toFixed(2, Decimal.ROUND_HALF_UP);
}

/** A plain decimal string without exponent and without trailing zeros ("0.5", "12", "3.125"). */
export function fmtPlain(value: number | Decimal): string {
  return dec(value).toFixed();
}

/** Number of decimal places of a JSON number or numeric string as written. */
export function decimalPlaces(value: number | string | Decimal): number {
  if (typeof value === 'number' && Number.isFinite(value)) {
    // numberText is the number's exact plain form without trailing zeros (no Decimal needed)
    const text = numberText(value);
    const dot = text.indexOf('.');
    return dot < 0 ? 0 : text.length - dot - 1;
  }
  return dec(value).decimalPlaces();
}

/** value * percent / 100, rounded half-up to fils. */
export function percentOf(value: Decimal, percent: Decimal): Decimal {
  return round2(value.times(percent).dividedBy(HUNDRED));
}

/** Sum of Decimals (exact). */
export function sum(values: Iterable<Decimal>): Decimal {
  let total = ZERO;
  for (const v of values) total = total.plus(v);
  return total;
}

// ---------------------------------------------------------------------------------------------
// Fixed-point arithmetic on BigInt for the hot path (line amounts, breakdown, totals): exact, and
// several times faster than Decimal objects. Money is held as integer fils (1/100 AED); an exact
// product of a quantity and a price is held as integer units at a decimal scale.

/** An exact decimal: `units` x 10^-`scale`. */
export interface Exact {
  units: bigint;
  scale: number;
}

const POW10: bigint[] = [1n];
function pow10(n: number): bigint {
  while (POW10.length <= n) POW10.push(POW10[POW10.length - 1] * 10n);
  return POW10[n];
}

const PLAIN_NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/**
 * The exact decimal written by a JSON number's shortest round-trip form (12.35 is 12.35) or by a
 * numeric string. Throws on NaN, Infinity and non-numeric strings.
 */
export function exact(value: number | string): Exact {
  const m = PLAIN_NUMBER.exec(typeof value === 'number' ? String(value) : value.trim());
  if (!m) throw new Error(`not a finite decimal number: ${String(value)}`);
  const [, sign, int, frac = '', exp] = m;
  let units = BigInt(int + frac);
  let scale = frac.length - (exp ? Number(exp) : 0);
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return { units: sign ? -units : units, scale };
}

export function mulExact(a: Exact, b: Exact): Exact {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** Divide by 10^digits, rounding half-up (ties away from zero). */
function divRound(units: bigint, divisor: bigint): bigint {
  const q = units / divisor;
  const r = units % divisor;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= divisor) return units < 0n ? q - 1n : q + 1n;
  return q;
}

/** An exact decimal rounded half-up to fils. */
export function toFils(e: Exact): bigint {
  return e.scale <= 2 ? e.units * pow10(2 - e.scale) : divRound(e.units, pow10(e.scale - 2));
}

/** A JSON number of AED rounded half-up to fils. */
export function fils(value: number | string): bigint {
  return toFils(exact(value));
}

/** fils x percent / 100, rounded half-up to fils (percent an integer, e.g. 5n). */
export function percentOfFils(amount: bigint, percent: bigint): bigint {
  return divRound(amount * percent, 100n);
}

/** Fils as an amount with two decimals: 105000n -> "1050.00", -5n -> "-0.05". */
export function filsText(amount: bigint): string {
  const neg = amount < 0n;
  const abs = neg ? -amount : amount;
  const s = abs.toString();
  const padded = s.length < 3 ? '000'.slice(s.length) + s : s;
  return (neg ? '-' : '') + padded.slice(0, -2) + '.' + padded.slice(-2);
}

/** An exact decimal as plain text, without exponent or trailing zeros ("0.5", "12", "0.0000001"). */
export function exactText(e: Exact): string {
  let units = e.units;
  let scale = e.scale;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  const neg = units < 0n;
  const s = (neg ? -units : units).toString();
  if (scale === 0) return (neg ? '-' : '') + s;
  const padded = s.length <= scale ? '0'.repeat(scale - s.length + 1) + s : s;
  return (neg ? '-' : '') + padded.slice(0, padded.length - scale) + '.' + padded.slice(padded.length - scale);
}

/** Plain text of a JSON number without going through BigInt when its own form has no exponent. */
export function numberText(value: number): string {
  const s = String(value);
  return s.includes('e') ? exactText(exact(value)) : s;
}

// ---------------------------------------------------------------------------------------------
// The same arithmetic on doubles, for the common case where every integer stays below 2^53 (all
// ordinary invoices): a BigInt operation is a runtime call and an allocation, and a long render
// spent a large share of its time in them (README, "Why the code looks like this"). Integer +, -, *
// of safe integers are exact whenever the result is a safe integer (a larger true result rounds to a
// value >= 2^53, so the checks below see it); callers fall back to the BigInt functions above when a
// check fails.

/** An exact decimal `units` x 10^-`scale` whose units are a safe integer. */
export interface SmallExact {
  units: number;
  scale: number;
}

/** Plain decimal text as numberText writes it: no exponent, no spaces, no plus sign. */
const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** The exact decimal of a plain decimal text whose digits make a safe integer, else undefined. */
export function smallExact(text: string): SmallExact | undefined {
  if (text.length > 17 || !PLAIN_DECIMAL.test(text)) return undefined;
  const dot = text.indexOf('.');
  const digits = dot < 0 ? text : text.slice(0, dot) + text.slice(dot + 1);
  const units = Number(digits); // exact below 2^53; a larger value parses to >= 2^53, which the check refuses
  return Number.isSafeInteger(units) ? { units: units === 0 ? 0 : units, scale: dot < 0 ? 0 : text.length - dot - 1 } : undefined;
}

/** Safe-integer division by a power of ten, rounded half-up (ties away from zero), as divRound. */
export function divRoundSmall(units: number, divisor: number): number {
  const r = units % divisor; // exact for doubles
  const q = (units - r) / divisor; // exact: an integer quotient of a multiple
  if (Math.abs(r) * 2 >= divisor) return units < 0 ? q - 1 : q + 1;
  return q === 0 ? 0 : q; // no -0
}

/** filsText of a safe integer number of fils. */
export function filsTextSmall(amount: number): string {
  const neg = amount < 0;
  const s = String(neg ? -amount : amount);
  const padded = s.length < 3 ? '000'.slice(s.length) + s : s;
  return (neg ? '-' : '') + padded.slice(0, -2) + '.' + padded.slice(-2);
}

export function sumFils(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const v of values) total += v;
  return total;
}
