// GET /v1/partner/invoices: the query's rules, the opaque cursor and the MongoDB filter. Pure.
import Joi from 'joi';
import type { InvoiceStatus } from './invoice-status';
import type { FieldError } from './invoice-schema';
import { isIsoDate } from './schema-helpers';

/**
 * A status a list may filter on: a stored status, or `held` (Partner API only): a stored draft with a heldReason,
 * which the pre-submit checks refused (docs/decisions/0035-status-model-held.md).
 */
export type ListStatus = InvoiceStatus | 'held';

export interface InvoiceListQuery {
  /** `draft` means drafts that are not held; `held` the held ones. */
  status?: ListStatus[];
  /** Inclusive bounds on issueDate (YYYY-MM-DD). */
  from?: string;
  to?: string;
  number?: string;
  limit: number;
  cursor?: ListCursor;
}

/** The position after the last invoice of a page, in the list's sort order (createdAt desc, _id desc). */
export interface ListCursor {
  createdAt: Date;
  id: string;
}

// Every status, checked against the model's type by the compiler (a missing or extra key fails to build).
const STATUS_SET: Record<InvoiceStatus, true> = {
  draft: true, queued: true, transformed: true, validated: true, blocked_no_credit: true, delivered: true, acknowledged: true, rejected: true,
};
const STORED_STATUSES = Object.keys(STATUS_SET) as InvoiceStatus[];
/** The Partner API lists every stored status and `held`; the Tenant API's drafts are never held (refused with 422). */
export const LISTABLE_STATUSES: readonly ListStatus[] = [...STORED_STATUSES, 'held'];
export const TENANT_LISTABLE_STATUSES: readonly ListStatus[] = STORED_STATUSES;

const isoDate = () =>
  Joi.string()
    .custom((v: string, h) => (isIsoDate(v) ? v : h.error('date.iso')), 'YYYY-MM-DD date')
    .messages({ 'date.iso': '{{#label}} must be a calendar date written YYYY-MM-DD' });

function listQuerySchemaOf(statuses: readonly ListStatus[]) {
  return Joi.object({
    status: Joi.array().items(Joi.string().valid(...statuses)).single(),
    from: isoDate(),
    to: isoDate(),
    number: Joi.string().trim().min(1).max(128),
    limit: Joi.number().integer().min(1).max(100).default(25),
    cursor: Joi.string().max(512),
  });
}

/** joi for the raw query of GET /v1/partner/invoices (koa gives strings, or arrays for repeated names); unknown parameters are refused. */
export const listQuerySchema = listQuerySchemaOf(LISTABLE_STATUSES);
/** The same for GET /v1/invoices (Tenant API): no `held`. */
export const tenantListQuerySchema = listQuerySchemaOf(TENANT_LISTABLE_STATUSES);

export interface RawListQuery extends Omit<InvoiceListQuery, 'cursor'> {
  cursor?: string;
}

/** The checks joi does not make: the date range and the cursor. Returns the query or the errors. */
export function resolveListQuery(raw: RawListQuery): { value?: InvoiceListQuery; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (raw.from && raw.to && raw.from > raw.to) {
    errors.push({ code: 'invalid_range', path: 'to', message: `to (${raw.to}) must not be before from (${raw.from})` });
  }
  let cursor: ListCursor | undefined;
  if (raw.cursor !== undefined) {
    cursor = decodeCursor(raw.cursor) ?? undefined;
    if (!cursor) errors.push({ code: 'invalid_cursor', path: 'cursor', message: 'cursor is not one this API returned: pass nextCursor from the previous page unchanged' });
  }
  return errors.length ? { errors } : { value: { ...raw, cursor }, errors };
}

export function encodeCursor(c: ListCursor): string {
  return Buffer.from(JSON.stringify([c.createdAt.getTime(), c.id])).toString('base64url');
}

function decodeCursor(text: string): ListCursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return null;
    const [t, id] = parsed as unknown[];
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || typeof id !== 'string' || id.length > 64) return null;
    const createdAt = new Date(t);
    return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id }; // beyond the dates JavaScript can hold

  } catch {
    return null;
  }
}

/**
 * The owner's invoices (`owner`: src/domain/owner.ts ownerFilter) that match the query. Keyset pagination on
 * (createdAt desc, _id desc): a page starts strictly after the cursor, so invoices created while a client pages
 * arrive before its first page and never shift later pages (no duplicates, no gaps).
 */
export function listFilter(owner: Record<string, unknown>, q: InvoiceListQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = { ...owner };
  if (q.status?.length) Object.assign(filter, statusFilter(q.status));
  if (q.number !== undefined) filter.number = q.number;
  if (q.from || q.to) {
    const days = q.from && q.to ? daysBetween(q.from, q.to) : null;
    filter.issueDate = { ...(q.from ? { $gte: q.from } : {}), ...(q.to ? { $lte: q.to } : {}), ...(days ? { $in: days } : {}) };
  }
  if (q.cursor) {
    filter.$or = [{ createdAt: { $lt: q.cursor.createdAt } }, { createdAt: q.cursor.createdAt, _id: { $lt: q.cursor.id } }];
  }
  return filter;
}

/** Windows of at most this many days also list their days (the store walks one index range per day). */
export const WINDOW_DAYS_LISTED = 62;

/**
 * Every day from `from` to `to` (YYYY-MM-DD, inclusive), or null beyond WINDOW_DAYS_LISTED days. Beside the range,
 * `issueDate: {$in: days}` changes no answer (every write path stores issueDate as a YYYY-MM-DD date, isIsoDate)
 * and lets the store take the window day by day from the {numberScope, issueDate, createdAt} index, newest first.
 */
export function daysBetween(from: string, to: string): string[] | null {
  const day = 86_400_000;
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (!(end >= start) || (end - start) / day >= WINDOW_DAYS_LISTED) return null;
  const days: string[] = [];
  for (let t = start; t <= end; t += day) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/**
 * What an invoice lists as: `held` for a held draft (a heldReason), else its stored status. Stored beside the status
 * as `listStatus` by every write of either (the model's default at create, the status writer, the list-status
 * migration), so a list's statuses are one field's values: any set of them is walked one index range per value.
 */
export function listStatusOf(inv: { status: InvoiceStatus; heldReason?: string | null }): ListStatus {
  return inv.status === 'draft' && inv.heldReason != null ? 'held' : inv.status;
}

/** The stored condition for the listed statuses (`draft`: drafts that are not held; `held`: the held ones). */
export function statusFilter(statuses: readonly ListStatus[]): Record<string, unknown> {
  return { listStatus: { $in: [...new Set(statuses)] } };
}

export const LIST_SORT = { createdAt: -1, _id: -1 } as const;
