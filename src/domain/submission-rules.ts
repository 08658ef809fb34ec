// Who may submit what (SPEC 3.1, 5.1 rule 3, 7.1). Pure: the create service asks these before storing anything.
import { ServiceError } from './errors';
import { smeRole, type FieldError, type InvoiceCreateBody, type PartyAddress } from '@einvoice/pint-ae';
import { TEST_TRN_ACCEPT, TEST_TRN_REJECT } from './trn';

export type ReservedTrnOutcome = 'deliver' | 'reject';

/**
 * SPEC names seller.trn; integrators also put the reserved value in the body trn (the supplier TRN), so either
 * field triggers it. Live mode ignores both: there they are ordinary TRNs, subject to trn_mismatch.
 */
export function reservedTrnOutcome(body: Pick<InvoiceCreateBody, 'trn' | 'seller'>, mode: 'test' | 'live'): ReservedTrnOutcome | null {
  if (mode !== 'test') return null;
  const trns = [body.trn, body.seller?.trn];
  if (trns.includes(TEST_TRN_REJECT)) return 'reject';
  if (trns.includes(TEST_TRN_ACCEPT)) return 'deliver';
  return null;
}

export interface TrnMismatch {
  path: 'trn' | 'seller.trn';
  given: string;
}

/**
 * The body trn must be the connected SME's TRN; on a sale the SME is also the seller, so seller.trn (when
 * given) must match too. On a purchase the seller is the counterparty and is not checked.
 */
export function trnMismatch(body: Pick<InvoiceCreateBody, 'trn' | 'seller' | 'invoiceType'>, smeTrn: string): TrnMismatch | null {
  if (body.trn !== smeTrn) return { path: 'trn', given: body.trn };
  const isSale = (body.invoiceType ?? 'sale') === 'sale';
  if (isSale && body.seller?.trn && body.seller.trn !== smeTrn) return { path: 'seller.trn', given: body.seller.trn };
  return null;
}

/** 403 trn_mismatch (SPEC 5.1 rule 3), as POST /v1/partner/invoices and its dry run answer it. */
export function trnMismatchError(mismatch: TrnMismatch): ServiceError {
  return new ServiceError(403, 'trn_mismatch', 'Forbidden', `${mismatch.path} ${mismatch.given} is not the TRN of the SME this connection secret belongs to.`, { path: mismatch.path });
}

/** "Unique per SME per year": the year the uniqueness is counted in. */
export function issueYearOf(issueDate: string): number {
  return Number(issueDate.slice(0, 4));
}

/**
 * Issue-date limits (DESIGN "issue date"; docs/decisions/0062-issue-date-limits.md). A tax invoice is due within 14
 * days of the supply (UAE VAT Decree-Law No. 8 of 2017, art. 67; the e-invoicing mandate fines each late one), so
 * an older date is accepted with a late_issuance warning. Past five years it is refused: the tax record period
 * (five years from the end of the tax period: Decree-Law art. 78, Cabinet Decision No. 74 of 2023 art. 3) and our
 * retention (five years after the issue year) have run out; such a date is almost always a typo. More than a day ahead is refused: an invoice cannot
 * be issued for a day that has not come (one day of slack covers time zones and a clock near midnight).
 */
export const LATE_ISSUANCE_DAYS = 14;
export const OLDEST_ISSUE_YEARS = 5;
export const FUTURE_SLACK_DAYS = 1;

/** Something the caller should know about an accepted submission (the answer's `warnings`). */
export interface SubmissionWarning {
  code: 'late_issuance';
  path: string;
  /** Days between the issue date and the day of submission. */
  days: number;
  message: string;
}

/** The calendar day in the UAE (UTC+4 all year, no daylight saving): the day the 14 days are counted to. */
export function uaeToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 4 * 3_600_000).toISOString().slice(0, 10);
}

function dayNumber(isoDate: string): number {
  return Date.UTC(Number(isoDate.slice(0, 4)), Number(isoDate.slice(5, 7)) - 1, Number(isoDate.slice(8, 10))) / 86_400_000;
}

/** The same calendar day `years` earlier (29 February falls back to 28). */
function yearsBefore(isoDate: string, years: number): string {
  const y = String(Number(isoDate.slice(0, 4)) - years).padStart(4, '0');
  const md = isoDate.slice(5) === '02-29' ? '02-28' : isoDate.slice(5);
  return `${y}-${md}`;
}

/**
 * Pure: the issue-date rule for a submission on `today` (YYYY-MM-DD, see uaeToday). `path` names the field the
 * caller sent (a JSON path, or a CSV column once located). A refusal, a late_issuance warning, or neither.
 */
export function issueDateRule(issueDate: string, today: string, path = 'issueDate'): { refusal: FieldError } | { warning: SubmissionWarning } | null {
  const days = dayNumber(today) - dayNumber(issueDate);
  const oldest = yearsBefore(today, OLDEST_ISSUE_YEARS);
  if (issueDate < oldest) {
    return {
      refusal: {
        code: 'issue_date_too_old',
        path,
        message: `${path} ${issueDate} is more than ${OLDEST_ISSUE_YEARS} years ago (the oldest accepted today is ${oldest}): past the five-year UAE tax record period (VAT Decree-Law No. 8 of 2017, art. 78; Cabinet Decision No. 74 of 2023, art. 3) an invoice can no longer be issued for it; check the year, and send the date the invoice is issued (YYYY-MM-DD)`,
      },
    };
  }
  if (-days > FUTURE_SLACK_DAYS) {
    return {
      refusal: {
        code: 'issue_date_in_future',
        path,
        message: `${path} ${issueDate} is ${-days} days after today (${today}, UAE time): an invoice cannot be issued for a day that has not come; send today's date or an earlier one (at most ${FUTURE_SLACK_DAYS} day ahead is accepted)`,
      },
    };
  }
  if (days > LATE_ISSUANCE_DAYS) {
    return {
      warning: {
        code: 'late_issuance',
        path,
        days,
        message: `${path} ${issueDate} is ${days} days before today (${today}): a tax invoice is due within ${LATE_ISSUANCE_DAYS} days of the supply (UAE VAT Decree-Law No. 8 of 2017, art. 67) and the authority may fine a late one; the invoice was accepted`,
      },
    };
  }
  return null;
}

/**
 * The rule as a service applies it: throws the 400 issue_date_out_of_range refusal (meta.errors names the path),
 * else returns the warnings to add to the answer (empty when none).
 */
export function checkIssueDate(issueDate: string, opts: { path?: string; now?: Date } = {}): SubmissionWarning[] {
  const outcome = issueDateRule(issueDate, uaeToday(opts.now), opts.path);
  if (!outcome) return [];
  if ('warning' in outcome) return [outcome.warning];
  throw new ServiceError(400, 'issue_date_out_of_range', 'Invalid request', outcome.refusal.message, { errors: [outcome.refusal] });
}

/** `{warnings}` to spread into an answer, or nothing when there is none (answers without warnings keep their shape). */
export function warningsField(warnings: SubmissionWarning[]): { warnings?: SubmissionWarning[] } {
  return warnings.length ? { warnings } : {};
}

/** The connected SME's registration as sme:connect stored it (services/admin.ts connectSme). */
export interface SmeRegistration {
  tradeLicenseNumber?: string | null;
  address?: Partial<PartyAddress> | null;
}

/**
 * Pure: the body with the SME's own party (seller of a sale, buyer of a purchase) completed from its registration,
 * as the Tenant API completes the seller from the tenant's: the trade licence (PINT-AE ibr-150-ae) when the party
 * has none and is not registered by passport; the address when the party has none; the emirate (ibr-143-ae) when a
 * UAE address leaves it out. What the body says always wins. The body is not changed in place.
 */
export function withSmeRegistration(body: InvoiceCreateBody, reg: SmeRegistration | null | undefined): InvoiceCreateBody {
  const role = smeRole(body);
  const party = body[role];
  if (!reg || !party || typeof party !== 'object') return body;
  const filled = { ...party };
  const passport = (party.legalRegistrationType ?? 'TIN') === 'PAS';
  if (!passport && !party.tradeLicenseNumber && reg.tradeLicenseNumber) filled.tradeLicenseNumber = reg.tradeLicenseNumber;
  const a = reg.address;
  if (a?.line1 && a.city && a.emirate) {
    const inUae = (party.country ?? 'AE').toUpperCase() === 'AE';
    if (!party.address && inUae) filled.address = { line1: a.line1, ...(a.line2 ? { line2: a.line2 } : {}), city: a.city, emirate: a.emirate, ...(a.postalCode ? { postalCode: a.postalCode } : {}) };
    else if (party.address && !party.address.emirate && inUae && (party.address.country ?? 'AE').toUpperCase() === 'AE') filled.address = { ...party.address, emirate: a.emirate };
  }
  return { ...body, [role]: filled };
}
