/**
 * An exact fn:sum of xs:decimal element values. The document-wide sums add every line's amount
 * several times (all lines, per category, per category and rate), and each decimal.js addition
 * allocated a new number: amounts with a few fraction digits are added instead as integers in
 * their smallest unit, which a double holds exactly below 2^53. A term outside that range moves
 * the sum to decimal.js for the rest, so the result is the same value either way.
 */
import type { El } from './xml';
import type { Dec as DecT } from './xpath';
import * as xpathModule from './xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { Dec, cmpDec, decimalOf } = xpathModule;

/** Fraction digits handled as integers (amounts have 2, rates and quantities a few more). */
const MAX_SCALE = 9;
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

export class DecSum {
  /** The sum times 10^scale, an exact integer, while `big` is undefined. */
  private units = 0;
  private scale = 0;
  private big: DecT | undefined = undefined;

  /** Adds xs:decimal(el) (the cast error, if any, is thrown as by decimalOf). */
  add(el: El): void {
    this.addSigned(el, false);
  }

  /** Subtracts xs:decimal(el). */
  sub(el: El): void {
    this.addSigned(el, true);
  }

  value(): DecT {
    return this.big ?? this.unitsValue();
  }

  /** Does the sum equal xs:decimal(el) (the cast error, if any, is thrown as by decimalOf)? */
  equals(el: El): boolean {
    // a value readUnits accepts is a valid xs:decimal: the cast (decimalOf) cannot fail, and is
    // needed only on the decimal.js path (it hashed each fresh value string in the decimal cache)
    if (this.big === undefined && readUnits(el.value) && this.align()) return this.units === termUnits;
    return cmpDec(this.value(), decimalOf(el)) === 0;
  }

  private addSigned(el: El, negate: boolean): void {
    if (this.big === undefined && readUnits(el.value) && this.align()) {
      const sum = negate ? this.units - termUnits : this.units + termUnits;
      // a sum beyond 2^53 - 1 (where doubles stop being exact) is never a safe integer
      if (Number.isSafeInteger(sum)) {
        this.units = sum;
        return;
      }
    }
    const d = decimalOf(el);
    const big = this.big ?? this.unitsValue();
    this.big = negate ? big.minus(d) : big.plus(d);
  }

  /** Brings the sum and the term read last to one scale; false when that leaves the exact range. */
  private align(): boolean {
    if (termScale > this.scale) {
      const units = this.units * POW10[termScale - this.scale];
      if (!Number.isSafeInteger(units)) return false;
      this.units = units;
      this.scale = termScale;
    } else if (termScale < this.scale) {
      termUnits *= POW10[this.scale - termScale];
      termScale = this.scale;
      if (!Number.isSafeInteger(termUnits)) return false;
    }
    return true;
  }

  private unitsValue(): DecT {
    const negative = this.units < 0;
    let digits = String(negative ? -this.units : this.units);
    if (this.scale > 0) {
      digits = digits.padStart(this.scale + 1, '0');
      digits = `${digits.slice(0, digits.length - this.scale)}.${digits.slice(digits.length - this.scale)}`;
    }
    return new Dec(negative ? `-${digits}` : digits);
  }
}

/** The value read by readUnits, times 10^termScale. */
let termUnits = 0;
let termScale = 0;

/**
 * Reads an xs:decimal lexical form into termUnits and termScale; false when it is not one (the
 * forms it reads are a subset of what xpath.ts casts), has more than 15 digits (beyond a double's
 * exact integers) or more than MAX_SCALE fraction digits.
 */
function readUnits(s: string): boolean {
  let i = 0;
  let n = s.length;
  while (i < n && isWs(s.charCodeAt(i))) i++;
  while (n > i && isWs(s.charCodeAt(n - 1))) n--;
  let neg = false;
  let c = s.charCodeAt(i);
  if (c === 43 /* + */) i++;
  else if (c === 45 /* - */) {
    neg = true;
    i++;
  }
  let v = 0;
  let digits = 0;
  let frac = -1;
  for (; i < n; i++) {
    c = s.charCodeAt(i);
    if (c === 46 /* . */) {
      if (frac >= 0) return false;
      frac = 0;
      continue;
    }
    if (c < 48 || c > 57) return false;
    v = v * 10 + (c - 48);
    digits++;
    if (frac >= 0) frac++;
  }
  if (digits === 0 || digits > 15 || frac > MAX_SCALE) return false;
  termUnits = neg ? -v : v;
  termScale = frac < 0 ? 0 : frac;
  return true;
}

const isWs = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
