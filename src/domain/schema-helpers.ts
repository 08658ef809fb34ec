// The joi building blocks both API surfaces (and the CSV readers and the CLI through them) share: trimmed
// strings, calendar dates, country codes, TRNs, and the JSON path a finding is reported at. Pure.
import Joi from 'joi';

/**
 * The options every body and query is checked with: every finding at once (an integrator fixes a body in one
 * round trip), unknown keys refused and values converted (joi's defaults), labels unquoted.
 */
export const JOI_OPTIONS: Joi.ValidationOptions = { abortEarly: false, errors: { wrap: { label: false } } };

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date written YYYY-MM-DD (what PINT-AE's ibr-073 accepts). */
export function isIsoDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[mo - 1];
}

/** `lines[0].vatRate` from ['lines', 0, 'vatRate']. */
export function jsonPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}

/** A string, trimmed. */
export const str = (): Joi.StringSchema => Joi.string().trim();

/** A calendar date YYYY-MM-DD; anything else is the joi error `date.iso` (invalid_format, joi-errors.ts). */
export const isoDate = (): Joi.StringSchema =>
  str().custom((value: string, helpers) => (isIsoDate(value) ? value : helpers.error('date.iso')), 'YYYY-MM-DD date');

/** ISO 3166-1 alpha-2, upper-cased ("ae" reads as "AE"). */
export const countryCode = (): Joi.StringSchema => str().length(2).pattern(/^[A-Za-z]*$/).uppercase();

/** SPEC "15 digits"; PINT-AE's stricter form (1...03) is a pre-submit check. */
export const trnString = (): Joi.StringSchema => str().pattern(/^\d{15}$/);
