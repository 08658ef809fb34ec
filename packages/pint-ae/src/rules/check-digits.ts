/**
 * The custom `u:` functions of PINT-UBL-validation-preprocessed.sch, translated literally
 * (same arithmetic, same substring positions, same castability tests).
 */
import * as xpathModule from './xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { XPathError, castableInteger, numberOf, stringLength, substring, toInteger, translate } = xpathModule;

function codepoints(s: string): number[] {
  return Array.from(s, (c) => c.codePointAt(0)!);
}

/** XPath `mod` on integers (sign of the dividend). */
function mod(a: number, b: number): number {
  return a % b;
}

/** u:gln — GS1 check digit (weights 3,1,3,... from the right, check digit excluded). */
export function gln(val: string): boolean {
  const length = stringLength(val) - 1;
  const digits = codepoints(substring(val, 0, length + 1))
    .map((c) => c - 48)
    .reverse();
  let weighted = 0;
  for (let i = 0; i <= length - 1; i++) weighted += digits[i] * (1 + mod(i + 1, 2) * 2);
  return mod(10 - mod(weighted, 10), 10) === numberOf(substring(val, length + 1, 1));
}

/** u:mod11 — Norwegian organisation number. */
export function mod11(val: string): boolean {
  const length = stringLength(val) - 1;
  const digits = codepoints(substring(val, 0, length + 1))
    .map((c) => c - 48)
    .reverse();
  let weighted = 0;
  for (let i = 0; i <= length - 1; i++) weighted += digits[i] * (mod(i, 6) + 2);
  return numberOf(val) > 0 && mod(11 - mod(weighted, 11), 11) === numberOf(substring(val, length + 1, 1));
}

/** u:mod97-0208 — Belgian enterprise number. */
export function mod97be(val: string): boolean {
  const checkdigits = substring(val, 9, 2);
  const calculated = String(97 - mod(toInteger(substring(val, 1, 8)), 97));
  const a = numberOf(checkdigits);
  const b = numberOf(calculated);
  return a === b;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** u:checkCodiceIPA — 6 alphanumerics. */
export function checkCodiceIPA(arg: string): boolean {
  return stringLength(translate(arg, ALNUM, '')) === 0 && stringLength(arg) === 6;
}

/** u:checkCF — Italian codice fiscale (16 chars) or 11 digits. */
export function checkCF(arg: string): boolean {
  const n = stringLength(arg);
  if (n === 16 || n === 11) {
    if (n === 16) return checkCF16(arg);
    return castableInteger(arg);
  }
  return false;
}

/** u:checkCF16. */
export function checkCF16(arg: string): boolean {
  return (
    stringLength(translate(substring(arg, 1, 6), ALPHA, '')) === 0 &&
    castableInteger(substring(arg, 7, 2)) &&
    stringLength(translate(substring(arg, 9, 1), ALPHA, '')) === 0 &&
    castableInteger(substring(arg, 10, 2)) &&
    // substring($arg,12,3) castable as xsd:string: always true
    castableInteger(substring(arg, 15, 1)) &&
    stringLength(translate(substring(arg, 16, 1), ALPHA, '')) === 0
  );
}

/** u:checkPIVAseIT — Italian VAT number when prefixed IT/it, anything else passes. */
export function checkPIVAseIT(arg: string): boolean {
  const paese = substring(arg, 1, 2);
  const codice = substring(arg, 3);
  if (paese === 'IT' || paese === 'it') return stringLength(codice) === 11 && checkPIVA(codice) === 0;
  return true;
}

/** u:checkPIVA. */
export function checkPIVA(arg: string): number {
  if (!castableInteger(arg)) return 1;
  return mod(addPIVA(arg, 0), 10);
}

/** u:addPIVA (recursive Luhn-like sum). */
export function addPIVA(arg: string, pari: number): number {
  let total = 0;
  let a = arg;
  let even = pari;
  // iterative form of the official recursion: stops when the rest is no longer castable as xs:integer
  for (;;) {
    if (!castableInteger(a)) return total;
    const first = substring(a, 1, 1);
    const d = toInteger(first); // a sign or space here is a dynamic error, as in the official function
    const mapper = even === 1 ? toInteger(substring('0246813579', d + 1, 1)) : d;
    total += mapper;
    a = substring(a, 2);
    even = even === 0 ? 1 : 0;
  }
}

/** u:abn — Australian Business Number (called on 11 digits). */
export function abn(val: string): boolean {
  const w = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  let sum = 0;
  for (let k = 0; k < 11; k++) {
    const ch = substring(val, k + 1, 1);
    if (ch === '') return false; // empty operand: the sum is empty, and () mod 89 = 0 is false
    sum += (ch.codePointAt(0)! - (k === 0 ? 49 : 48)) * w[k];
  }
  return mod(sum, 89) === 0;
}

export { XPathError };
