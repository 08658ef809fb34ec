// Emirate names and codes. PINT-AE (ibr-128-ae, and the seller/buyer address rules) wants one of the
// seven three-letter codes in cbc:CountrySubentity of a UAE address; integrators send codes, ISO 3166-2
// codes or everyday names ("Dubai", "Ras Al Khaimah", "umm al-quwain"). Pure code.
import { EMIRATE_CODES, type EmirateCode } from '../codelists';

export { EMIRATE_CODES, type EmirateCode };

/** English names, used in messages and for the trade-licence issuing authority. */
export const EMIRATE_NAMES: Readonly<Record<EmirateCode, string>> = {
  AUH: 'Abu Dhabi',
  DXB: 'Dubai',
  SHJ: 'Sharjah',
  AJM: 'Ajman',
  UAQ: 'Umm Al Quwain',
  RAK: 'Ras Al Khaimah',
  FUJ: 'Fujairah',
};

// Keys are lower-case letters only (spaces, hyphens, dots and apostrophes removed).
const ALIASES: Readonly<Record<string, EmirateCode>> = {
  auh: 'AUH', abudhabi: 'AUH', abudhabhi: 'AUH', abuzabi: 'AUH', aeaz: 'AUH',
  dxb: 'DXB', dubai: 'DXB', dubayy: 'DXB', aedu: 'DXB',
  shj: 'SHJ', sharjah: 'SHJ', sharja: 'SHJ', alsharjah: 'SHJ', ashsharjah: 'SHJ', aesh: 'SHJ',
  ajm: 'AJM', ajman: 'AJM', aeaj: 'AJM',
  uaq: 'UAQ', ummalquwain: 'UAQ', ummalqaiwain: 'UAQ', ummalqiwain: 'UAQ', ummalquwwain: 'UAQ', aeuq: 'UAQ',
  rak: 'RAK', rasalkhaimah: 'RAK', rasalkhaima: 'RAK', raselkhaimah: 'RAK', aerk: 'RAK',
  fuj: 'FUJ', fujairah: 'FUJ', alfujairah: 'FUJ', fujeirah: 'FUJ', aefu: 'FUJ',
};

/**
 * The PINT-AE emirate code for a code or a common name (case-insensitive), or undefined when the
 * value names no emirate.
 */
export function emirateCode(value: string | undefined | null): EmirateCode | undefined {
  if (!value) return undefined;
  const key = value.toLowerCase().replace(/[^a-z]/g, '');
  return ALIASES[key];
}

export const EMIRATE_HINT =
  'send one of AUH, DXB, SHJ, AJM, UAQ, RAK, FUJ or the emirate name (Abu Dhabi, Dubai, Sharjah, Ajman, Umm Al Quwain, Ras Al Khaimah, Fujairah)';
