// How the rendition prints amounts, quantities and codes: the XML's decimal exactly (at least two
// decimals for money, thousands separated), never rounded or recomputed. Pure code.
import Decimal from 'decimal.js';
import { EMIRATES, REGISTRATION_TYPES, TAX_CATEGORIES, UNITS, type Bilingual } from './labels';
import type { AddressView } from './document-view';

function group(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "1234.5" -> "1,234.50"; extra decimals kept ("0.125" -> "0.125"); text that is no number is printed as sent. */
export function money(value: string | undefined): string {
  if (value === undefined) return '';
  let d: Decimal;
  try {
    d = new Decimal(value.trim());
  } catch {
    return value;
  }
  const dp = Math.max(2, d.decimalPlaces());
  const [i, f] = d.abs().toFixed(dp).split('.');
  return (d.isNegative() && !d.isZero() ? '-' : '') + group(i) + (f ? '.' + f : '');
}

/** Quantities and percentages: the XML's digits, thousands separated, no padding. */
export function plain(value: string | undefined): string {
  if (value === undefined) return '';
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(value.trim());
  return m ? m[1] + group(m[2]) + (m[3] ?? '') : value;
}

export function unitName(code: string | undefined): string {
  if (!code) return '';
  const name = UNITS[code];
  return name ? `${name} (${code})` : code;
}

export function categoryName(code: string | undefined): Bilingual | undefined {
  return code ? TAX_CATEGORIES[code] : undefined;
}

export function registrationName(type: string | undefined): Bilingual | undefined {
  return type ? REGISTRATION_TYPES[type] : undefined;
}

/** Address lines, city and emirate (named in both languages), country. */
export function addressLines(a: AddressView | undefined): { lines: string[]; emirate?: Bilingual } {
  if (!a) return { lines: [] };
  const emirate = a.subentity ? EMIRATES[a.subentity] : undefined;
  const cityLine = [a.postalZone, a.city, emirate ? undefined : a.subentity].filter(Boolean).join(' ');
  const lines = [...a.lines, cityLine, emirate ? `${emirate.en} (${a.subentity})` : '', a.country ?? ''].filter((s) => !!s);
  return { lines, emirate };
}
