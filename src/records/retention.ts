// Retention of tax records (pure). UAE VAT law keeps them at least five years after the end of the tax period
// they belong to (Federal Decree-Law No. 8 of 2017 Art. 78, Executive Regulation Art. 60), longer for real
// estate (15 years) and while an audit or dispute is open (a legal hold). The period is counted here from the end
// of the calendar year of the issue date: every tax period ends on or before it, so this is never shorter.

export const DEFAULT_RETENTION_YEARS = 5;
export const MAX_RETENTION_YEARS = 100;

export interface RetentionPolicy {
  /** Years after the end of the issue date's calendar year (the owner's override, else the configured default). */
  years: number;
  /** Legal hold (SME/tenant or invoice): expiry suspended, whatever the years. */
  hold: boolean;
}

/** The first instant after the retention period of a record issued on issueDate (YYYY-MM-DD). */
export function retentionEnd(issueDate: string, years: number): Date {
  const year = Number(/^(\d{4})-\d{2}-\d{2}/.exec(issueDate)?.[1]);
  if (!Number.isInteger(year)) throw new Error(`retentionEnd: not a date "${issueDate}"`);
  return new Date(Date.UTC(year + years + 1, 0, 1));
}

export type RetentionVerdict = { removable: true; endedAt: Date } | { removable: false; why: 'legal_hold' | 'within_retention'; until: Date | null };

/**
 * May the record be removed at `now` by a purge of records whose retention ended before `before`? Only when its
 * period is over at both (a purge never reaches into the future) and nothing holds it.
 */
export function retentionVerdict(issueDate: string, policy: RetentionPolicy, now: Date, before: Date = now): RetentionVerdict {
  const end = retentionEnd(issueDate, policy.years);
  if (policy.hold) return { removable: false, why: 'legal_hold', until: null };
  if (end.getTime() > now.getTime() || end.getTime() > before.getTime()) return { removable: false, why: 'within_retention', until: end };
  return { removable: true, endedAt: end };
}

/** RECORDS_RETENTION_YEARS and the admin overrides: whole years, at least the legal five. */
export function parseRetentionYears(raw: string | number, what: string): number {
  const n = typeof raw === 'number' ? raw : Number(raw);
  if (!(typeof raw === 'number' || /^\d+$/.test(raw.trim())) || !Number.isInteger(n) || n < DEFAULT_RETENTION_YEARS || n > MAX_RETENTION_YEARS) {
    throw new Error(`${what} must be a whole number of years from ${DEFAULT_RETENTION_YEARS} (the legal minimum) to ${MAX_RETENTION_YEARS}, got "${raw}"`);
  }
  return n;
}
