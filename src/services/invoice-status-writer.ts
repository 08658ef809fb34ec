// The one writer of invoice statuses. Every change, from the pipeline's steps to the API's retry and the
// queued -> draft fallback, is a conditional single-document update checked against the transition table
// (src/domain/invoice-status.ts), with a timestamped history entry. Its refusals are ServiceErrors with a
// status-change code: activities/failures.ts makes them Temporal failures, the API its own refusals.
import { Invoice } from '../db/models';
import { ServiceError } from '../domain/errors';
import { canTransition, startsNewRun, type InvoiceStatus } from '../domain/invoice-status';
import { logger } from '../logger';
import { invoiceTransitions } from '../metrics';
import { invoiceWorkflowId } from '../temporal/contract';

export type StatusChangeFailure =
  /** The invoice does not exist (deleted). */
  | 'invoice_not_found'
  /** The table forbids the move from the stored status. */
  | 'illegal_transition'
  /** Another writer moved the invoice between our read and our write: read again and retry. */
  | 'concurrent_transition';

const STATUS_CHANGE_FAILURES: Record<StatusChangeFailure, [status: number, title: string]> = {
  invoice_not_found: [404, 'Not found'],
  illegal_transition: [409, 'Conflict'],
  concurrent_transition: [409, 'Conflict'],
};

/** A refused status change; a concurrent one is worth retrying (the step reads the status again). */
export function statusChangeError(kind: StatusChangeFailure, message: string): ServiceError {
  const [status, title] = STATUS_CHANGE_FAILURES[kind];
  return new ServiceError(status, kind, title, message, undefined, {}, { retryable: kind === 'concurrent_transition' });
}

/** True for the status writer's refusals (its `kind` is one of StatusChangeFailure). */
export function isStatusChangeError(err: unknown): err is ServiceError & { kind: StatusChangeFailure } {
  return err instanceof ServiceError && Object.hasOwn(STATUS_CHANGE_FAILURES, err.code);
}

export interface StatusChange {
  invoiceId: string;
  to: InvoiceStatus;
  reason?: string | null;
  /** The status (and run) the caller believes is stored: tried first without a read; on a miss, read as usual. */
  expected?: { status: InvoiceStatus; run: number };
  /** acknowledged: the authority's reference, written in the same update (services/asp-evidence.ts recordAnswer). */
  ackRef?: string | null;
}

export interface StatusChangeResult {
  status: InvoiceStatus;
  run: number;
  /** False when the invoice already had that status (a retried step): nothing was written twice. */
  changed: boolean;
}

type Current = { status: InvoiceStatus; run?: number | null };

/** Persists one transition from whatever status is stored, provided the table allows it. */
export async function advanceInvoiceStatus({ invoiceId, to, reason = null, expected, ackRef }: StatusChange): Promise<StatusChangeResult> {
  const set = ackRef ? { ackRef } : {};
  if (expected && expected.status !== to && canTransition(expected.status, to)) {
    const moved = await tryMove(invoiceId, expected, to, reason, set, { run: expected.run });
    if (moved) return moved;
  }
  const current = await Invoice.findById(invoiceId, { status: 1, run: 1 }).lean();
  if (!current) throw statusChangeError('invoice_not_found', `invoice ${invoiceId} not found`);
  return moveInvoiceStatus(invoiceId, { status: current.status as InvoiceStatus, run: current.run }, to, reason, set);
}

/**
 * The write of a transition from the status the caller has just read (pipeline steps read the invoice anyway,
 * so they save a read), with any fields of the step (`set`) in the same single-document update.
 */
export async function moveInvoiceStatus(invoiceId: string, current: Current, to: InvoiceStatus, reason: string | null = null, set: Record<string, unknown> = {}): Promise<StatusChangeResult> {
  const from = current.status;
  if (from === to) {
    if (Object.keys(set).length) await Invoice.updateOne({ _id: invoiceId }, { $set: set });
    return { status: to, run: current.run ?? 1, changed: false };
  }
  const moved = await tryMove(invoiceId, current, to, reason, set);
  if (!moved) throw statusChangeError('concurrent_transition', `invoice ${invoiceId} changed concurrently`);
  return moved;
}

/**
 * The conditional update itself; null when the invoice is no longer in `current.status` (or `alsoRequire`).
 * Throws illegal_transition when the table forbids the move.
 */
export async function tryMove(
  invoiceId: string,
  current: Current,
  to: InvoiceStatus,
  reason: string | null,
  set: Record<string, unknown> = {},
  alsoRequire: Record<string, unknown> = {},
): Promise<StatusChangeResult | null> {
  return tryMoveThrough(invoiceId, current, [{ to, reason }], set, alsoRequire);
}

/**
 * Several transitions in one conditional update (queued -> transformed -> validated when one step did both):
 * each hop checked against the table and kept in the history with its own entry, as if written one by one.
 */
export async function tryMoveThrough(
  invoiceId: string,
  current: Current,
  hops: { to: InvoiceStatus; reason: string | null }[],
  set: Record<string, unknown> = {},
  alsoRequire: Record<string, unknown> = {},
): Promise<StatusChangeResult | null> {
  let from = current.status;
  let run = current.run ?? 1;
  const at = new Date();
  const entries = hops.map(({ to, reason }) => {
    if (!canTransition(from, to)) throw statusChangeError('illegal_transition', `illegal transition ${from} -> ${to} for invoice ${invoiceId}`);
    run += startsNewRun(from, to) ? 1 : 0;
    from = to;
    return { status: to, at, reason, run };
  });
  const last = entries[entries.length - 1];
  const history = entries.length === 1 ? entries[0] : { $each: entries };
  const updated = await Invoice.updateOne(
    { _id: invoiceId, status: current.status, ...alsoRequire },
    // listStatus is the status itself: only a held draft lists otherwise, and it never moves (decision 0035).
    { $set: { ...set, status: last.status, listStatus: last.status, reason: last.reason, run: last.run }, $push: { history } },
  );
  if (updated.matchedCount === 0) return null;
  // The one place every transition passes: its counter and its log line (the pipeline's step outcomes at info).
  let previous = current.status;
  for (const e of entries) {
    invoiceTransitions.inc({ from: previous, to: e.status });
    logger.info({ invoiceId, workflowId: invoiceWorkflowId(invoiceId), from: previous, to: e.status, reason: e.reason, run: e.run }, `invoice ${e.status}`);
    previous = e.status;
  }
  return { status: last.status, run: last.run, changed: true };
}

/**
 * queued -> draft when the pipeline could not be reached (SPEC 3.1 "automatic submit crashed -> draft"). Only
 * from queued: if the start did happen (its reply was lost) and the workflow moved the invoice on, it stays in
 * the pipeline. Returns the status the invoice is left in.
 */
export async function demoteToDraft(invoiceId: string, run: number, reason: string): Promise<'draft' | 'queued'> {
  return (await tryMove(invoiceId, { status: 'queued', run }, 'draft', reason)) ? 'draft' : 'queued';
}
