import { ApplicationFailure } from '@temporalio/activity';
import { Invoice, type InvoiceStatus } from '../src/db/models';
import { predecessorsOf, startsNewRun } from '../src/domain/status-transitions';

export interface StatusChange {
  invoiceId: string;
  to: InvoiceStatus;
  reason?: string | null;
  /** The status (and run) the caller believes is stored: tried first without a read; on a miss, read as usual. */
  expected?: { status: InvoiceStatus; run: number };
}

export interface StatusChangeResult {
  status: InvoiceStatus;
  run: number;
  /** False when the invoice already had that status (a retried activity): nothing was written twice. */
  changed: boolean;
}

/**
 * Persists one forward-only transition with a timestamped history entry. The update is conditioned on the
 * current status being a legal predecessor, so two racing writers cannot move an invoice backwards.
 */
export async function advanceInvoiceStatus({ invoiceId, to, reason = null, expected }: StatusChange): Promise<StatusChangeResult> {
  if (expected && expected.status !== to && predecessorsOf(to).includes(expected.status)) {
    const moved = await tryMove(invoiceId, expected, to, reason, {}, { run: expected.run });
    if (moved) return moved;
  }
  const current = await Invoice.findById(invoiceId, { status: 1, run: 1 }).lean();
  if (!current) throw ApplicationFailure.nonRetryable(`invoice ${invoiceId} not found`, 'invoice_not_found');
  return moveInvoiceStatus(invoiceId, { status: current.status as InvoiceStatus, run: current.run }, to, reason);
}

/**
 * The write of a transition from the status the caller has just read (pipeline steps read the invoice anyway,
 * so they save a read), with any fields of the step (`set`) in the same single-document update.
 */
export async function moveInvoiceStatus(
  invoiceId: string,
  current: { status: InvoiceStatus; run?: number | null },
  to: InvoiceStatus,
  reason: string | null = null,
  set: Record<string, unknown> = {},
): Promise<StatusChangeResult> {
  const from = current.status;
  if (from === to) {
    if (Object.keys(set).length) await Invoice.updateOne({ _id: invoiceId }, { $set: set });
    return { status: to, run: current.run ?? 1, changed: false };
  }
  if (!predecessorsOf(to).includes(from)) {
    throw ApplicationFailure.nonRetryable(`illegal transition ${from} -> ${to} for invoice ${invoiceId}`, 'illegal_transition');
  }
  const moved = await tryMove(invoiceId, current, to, reason, set);
  // Someone else moved it between our read and write: let Temporal retry, re-reading the new status.
  if (!moved) throw ApplicationFailure.retryable(`invoice ${invoiceId} changed concurrently`, 'concurrent_transition');
  return moved;
}

/** The conditional update itself; null when the invoice is no longer in `current.status` (or `alsoRequire`). */
export async function tryMove(
  invoiceId: string,
  current: { status: InvoiceStatus; run?: number | null },
  to: InvoiceStatus,
  reason: string | null,
  set: Record<string, unknown> = {},
  alsoRequire: Record<string, unknown> = {},
): Promise<StatusChangeResult | null> {
  const from = current.status;
  const run = (current.run ?? 1) + (startsNewRun(from, to) ? 1 : 0);
  const at = new Date();
  const updated = await Invoice.updateOne(
    { _id: invoiceId, status: from, ...alsoRequire },
    { $set: { ...set, status: to, reason, run }, $push: { history: { status: to, at, reason, run } } },
  );
  return updated.matchedCount === 0 ? null : { status: to, run, changed: true };
}
