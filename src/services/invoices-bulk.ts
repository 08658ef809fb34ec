// POST /v1/partner/invoices/bulk (SPEC 4.1 rule 3): each item is its own idempotent create under
// `<batchKey>:<index>`, so resending the original batch after a partial failure replays what was done and does
// what was not; a shifted subset collides with completed items by hash mismatch.
import { validateInvoiceBody } from '../domain/invoice-schema';
import type { FieldError } from '../domain/invoice-types';
import { hashRequest } from '../http/request-hash';
import { ProblemError, problems } from '../http/problem';
import { logger } from '../logger';
import { runIdempotent, type StoredResponse } from './idempotency';
import { createInvoice, type InvoiceOwner } from './invoices-create';

export type BulkItemResult =
  | { index: number; ok: true; invoiceId: string; number: string; status: string; heldReason?: string; heldErrors?: FieldError[]; externalRef?: string }
  | { index: number; ok: false; error: { code: string; message: string; errors?: FieldError[] }; externalRef?: string };

export interface BulkResponse {
  results: BulkItemResult[];
  summary: { total: number; ok: number; failed: number };
}

export interface BulkRequest {
  owner: InvoiceOwner;
  /** Idempotency key space of the caller (partner and SME). */
  scope: string;
  batchKey: string;
  /** The request path, bound into each item's hash. */
  path: string;
  items: unknown[];
}

/** Items run a few at a time: enough to overlap database and Temporal round trips, few enough to stay fair. */
const ITEM_CONCURRENCY = 16;

export async function submitBulk(req: BulkRequest): Promise<{ response: BulkResponse; allReplayed: boolean }> {
  // Items that share a number (and year) run in index order, so the first one wins it, every time.
  const previousWithNumber = new Map<string, Promise<unknown>>();
  const outcomes = await mapLimited(req.items, ITEM_CONCURRENCY, (item, index) => {
    const key = numberKey(item);
    const before = key ? previousWithNumber.get(key) : undefined;
    const run = (before ?? Promise.resolve()).catch(() => {}).then(() => submitItem(req, item, index));
    if (key) previousWithNumber.set(key, run);
    return run;
  });
  const results = outcomes.map((o) => o.result);
  const mismatched = results.filter((r) => !r.ok && r.error.code === 'idempotency_key_mismatch');
  if (mismatched.length === results.length) {
    // A different batch under a used key (SPEC 4.1 rule 3): nothing was done, so answer as any reused key does.
    throw problems.conflict(
      'idempotency_key_mismatch',
      `Idempotency-Key "${req.batchKey}" was already used for a different batch: items ${mismatched.map((r) => r.index).join(', ')} differ from the items stored under the same index. To recover a partial failure resend the original body unchanged; for new invoices use a fresh key.`,
    );
  }
  const ok = results.filter((r) => r.ok).length;
  return { response: { results, summary: { total: results.length, ok, failed: results.length - ok } }, allReplayed: outcomes.every((o) => o.replayed) };
}

function numberKey(item: unknown): string | null {
  const { number, issueDate } = (item ?? {}) as { number?: unknown; issueDate?: unknown };
  return typeof number === 'string' ? `${typeof issueDate === 'string' ? issueDate.slice(0, 4) : ''}:${number.trim()}` : null;
}

async function submitItem(req: BulkRequest, item: unknown, index: number): Promise<{ result: BulkItemResult; replayed: boolean }> {
  const externalRef = typeof (item as { externalRef?: unknown })?.externalRef === 'string' ? (item as { externalRef: string }).externalRef : undefined;
  const ref = externalRef !== undefined ? { externalRef } : {};
  const { value, errors } = validateInvoiceBody(item, { bulkItem: true });
  if (!value) {
    const message = errors.map((e) => `${e.path || 'item'}: ${e.message}`).join('; ');
    return { result: { index, ok: false, error: { code: 'validation_failed', message, errors }, ...ref }, replayed: false };
  }
  try {
    const stored = await runIdempotent({
      scope: req.scope,
      key: `${req.batchKey}:${index}`,
      requestHash: hashRequest('POST', `${req.path}#item`, item),
      execute: async () => {
        const { externalRef: _ref, ...body } = value as typeof value & { externalRef?: string };
        const queued = await createInvoice(req.owner, body, { externalRef });
        return { status: 201, body: JSON.stringify(queued), contentType: 'application/json; charset=utf-8' };
      },
    });
    return { result: fromStored(index, stored, ref), replayed: stored.replayed };
  } catch (err) {
    if (err instanceof ProblemError) return { result: { index, ok: false, error: { code: err.code, message: err.detail ?? err.title }, ...ref }, replayed: false };
    logger.error({ err, index }, 'bulk item failed unexpectedly');
    return { result: { index, ok: false, error: { code: 'internal_error', message: 'This item failed on our side; resend the batch unchanged with the same Idempotency-Key to retry it.' }, ...ref }, replayed: false };
  }
}

function fromStored(index: number, stored: StoredResponse, ref: { externalRef?: string }): BulkItemResult {
  const body = JSON.parse(stored.body) as Record<string, unknown>;
  if (stored.status === 201) {
    const { invoiceId, number, status, heldReason, heldErrors } = body as { invoiceId: string; number: string; status: string; heldReason?: string; heldErrors?: FieldError[] };
    return { index, ok: true, invoiceId, number, status, ...(heldReason ? { heldReason, heldErrors } : {}), ...ref };
  }
  return { index, ok: false, error: { code: String(body.code ?? 'error'), message: String(body.detail ?? body.title ?? `status ${stored.status}`) }, ...ref };
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i], i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}
