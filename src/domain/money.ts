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
