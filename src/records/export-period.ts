// The period of an audit export (GET /v1/partner/records, GET /v1/records, `einvoice records export`): both bounds
// required, calendar dates, in order, at most EXPORT_MAX_DAYS days. Pure.
import { isIsoDate } from '../domain/schema-helpers';
import type { FieldError } from '@einvoice/pint-ae';

/**
 * One archive covers at most a year and a day (any VAT tax period, monthly or quarterly, and a calendar year):
 * the export reads the period day by day, and one bounded request keeps the API's time per call bounded. Longer
 * spans are exported as several archives.
 */
export const EXPORT_MAX_DAYS = 366;

export interface ExportPeriod {
  from: string;
  to: string;
}

/** The period or every refusal, each naming the parameter (as the caller spells it: `names`), the rule and what to send. */
export function resolveExportPeriod(raw: { from?: unknown; to?: unknown }, names: { from: string; to: string } = { from: 'from', to: 'to' }): { value?: ExportPeriod; errors: FieldError[] } {
  const errors: FieldError[] = [];
  for (const key of ['from', 'to'] as const) {
    const v = raw[key];
    if (v === undefined || v === '') errors.push({ code: 'required', path: names[key], message: `${names[key]} is required: send the ${key === 'from' ? 'first' : 'last'} issue date of the period, YYYY-MM-DD` });
    else if (typeof v !== 'string' || !isIsoDate(v)) errors.push({ code: 'invalid_date', path: names[key], message: `${names[key]} must be one calendar date written YYYY-MM-DD (e.g. 2026-07-01)` });
  }
  if (errors.length) return { errors };
  const from = raw.from as string;
  const to = raw.to as string;
  if (to < from) return { errors: [{ code: 'invalid_range', path: names.to, message: `${names.to} (${to}) must not be before ${names.from} (${from})` }] };
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > EXPORT_MAX_DAYS) {
    return { errors: [{ code: 'range_too_large', path: names.to, message: `the period ${from}..${to} spans ${days} days, more than ${EXPORT_MAX_DAYS}: send a ${names.to} at most ${EXPORT_MAX_DAYS - 1} days after ${names.from} and export longer spans as several archives` }] };
  }
  return { value: { from, to }, errors };
}

/** The query of GET /v1/partner/records and GET /v1/records: from and to, nothing else. */
export function resolveExportQuery(query: Record<string, unknown>): { value?: ExportPeriod; errors: FieldError[] } {
  const unknown = Object.keys(query).filter((k) => k !== 'from' && k !== 'to');
  const repeated = (['from', 'to'] as const).filter((k) => Array.isArray(query[k]));
  const errors: FieldError[] = [
    ...unknown.map((k) => ({ code: 'unknown_parameter', path: k.slice(0, 64), message: `${k.slice(0, 64)} is not a parameter of this endpoint: send only from and to (YYYY-MM-DD)` })),
    ...repeated.map((k) => ({ code: 'repeated_parameter', path: k, message: `${k} is given more than once: send it once, YYYY-MM-DD` })),
  ];
  if (errors.length) return { errors };
  return resolveExportPeriod(query);
}

/** The archive's download name. */
export const exportFileName = (trn: string, p: ExportPeriod): string => `records-${trn}-${p.from}-${p.to}.tar`;
