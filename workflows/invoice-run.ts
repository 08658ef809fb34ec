import { condition, setCurrentDetails, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { InvoiceStatus } from '../src/domain/invoice-status';
import { acknowledgedSignal, aspVerdictSignal, creditsAvailableSignal, invoiceStatusQuery, InvoiceStatusKey, retrySignal, type AspVerdict, type InvoiceWorkflowInput, type InvoiceWorkflowResult } from '../src/temporal/contract';
import { currentDetails, waitSummary, type AspWait, type InvoiceSurface, type RunView } from '../src/temporal/invoice-display';
import { announceStatus } from './announce-status';
import { advanceInvoiceStatus } from './pipeline-activities';

// What one run of an invoice's workflow knows, how it moves the status, what it tells the Web UI, and how it waits. MongoDB holds the
// status (forward-only, with history); the run mirrors it in its current details and, when it waits or ends, in
// the InvoiceStatus search attribute.

export interface InvoiceRun {
  readonly input: InvoiceWorkflowInput;
  readonly invoiceId: string;
  readonly surface: InvoiceSurface;
  /** The status this run last persisted or read. */
  current: InvoiceStatus | 'unknown';
  /** The InvoiceStatus search attribute as last written. */
  shown: InvoiceStatus | 'unknown';
  /** The pipeline run (a retry starts the next one); named to the status writer to save it a read. */
  run: number;
  /** The reason of the status shown (rejected, blocked_no_credit). */
  why: string | null;
  /** The ASP's id of this run's hand-over, once known. */
  submissionId: string | null;
  /** The document this run's prepare step rendered (the validate step may find it in the worker's memory). */
  renderedUuid: string | null;
  waitingAsp: AspWait | null;
  retryRequested: boolean;
  creditsToppedUp: boolean;
  /** Verdict signals by submission id: claims, each confirmed against the evidence before it counts. */
  verdicts: Map<string, AspVerdict>;
}

export function newRun(input: InvoiceWorkflowInput): InvoiceRun {
  const surface: InvoiceSurface = input.surface === 'tenant' ? 'tenant' : 'partner';
  return { input, invoiceId: input.invoiceId, surface, current: 'unknown', shown: 'unknown', run: 1, why: null, submissionId: null, renderedUuid: null, waitingAsp: null, retryRequested: false, creditsToppedUp: false, verdicts: new Map() };
}

/** The run's query and signals (descriptions show in the Web UI's and `temporal workflow metadata`'s lists). */
export function listen(r: InvoiceRun): void {
  setHandler(invoiceStatusQuery, () => r.current, { description: 'The status this workflow last persisted.' });
  setHandler(retrySignal, () => void (r.retryRequested = true), { description: 'A new pipeline run of a rejected or blocked invoice (continues as new); while waiting for the ASP, poll it now.' });
  setHandler(creditsAvailableSignal, () => void (r.creditsToppedUp = true), { description: 'The SME or tenant was topped up: a blocked_no_credit invoice tries its delivery again.' });
  // A verdict signal is a claim: it wakes the wait, and the verdict acted on is the evidence's (confirmAspVerdict).
  // (a payload without a submission id is ignored here: throwing in a handler would fail every workflow task)
  const onVerdict = (v: AspVerdict) => void (typeof v?.submissionId === 'string' && r.verdicts.set(v.submissionId, v));
  setHandler(aspVerdictSignal, onVerdict, { description: "The ASP's verdict on a hand-over: {submissionId, status: acknowledged|rejected, reason, ackRef}; acted on only when the stored evidence agrees." });
  setHandler(acknowledgedSignal, onVerdict, { description: 'Old name of aspVerdict (same payload), still accepted.' });
}

const view = (r: InvoiceRun, ending?: string): RunView => ({ invoiceId: r.invoiceId, surface: r.surface, status: r.current, reason: r.why, waitingAsp: r.waitingAsp, ending });

/** The Web UI's current details (read by the UI's metadata query, not recorded: no command, replay-safe). */
export function explain(r: InvoiceRun, ending?: string): void {
  setCurrentDetails(currentDetails(view(r, ending)));
}

export function show(r: InvoiceRun, status: InvoiceStatus): void {
  r.current = status;
  explain(r);
}

/**
 * InvoiceStatus mirrors the stored status. Each upsert is a command and a visibility write, so it is written when
 * the run is about to wait or end, not for the milliseconds-long states in between.
 */
export function publish(r: InvoiceRun): void {
  if (r.current === 'unknown' || r.current === r.shown) return;
  r.shown = r.current;
  upsertSearchAttributes([{ key: InvoiceStatusKey, value: r.current }]);
}

/** Waits for `fn` at most `timeoutMs` on a timer whose summary says why (false: the time ran out). */
export function waitAtMost(r: InvoiceRun, fn: () => boolean, timeoutMs: number): Promise<boolean> {
  return condition(fn, timeoutMs, { summary: waitSummary(view(r)) });
}

/** As waitAtMost, with InvoiceStatus and the current details brought up to date first. */
export function waitFor(r: InvoiceRun, fn: () => boolean, timeoutMs: number): Promise<boolean> {
  publish(r);
  explain(r);
  return waitAtMost(r, fn, timeoutMs);
}

/**
 * One status change through the writer, naming the status and run it expects (a miss falls back to a read);
 * `ackRef`: acknowledged's reference, written in the same update.
 */
export async function advance(r: InvoiceRun, to: InvoiceStatus, reason: string | null = null, ackRef?: string | null): Promise<void> {
  const expected = r.current !== 'unknown' ? { expected: { status: r.current, run: r.run } } : {};
  const moved = (await advanceInvoiceStatus({ invoiceId: r.invoiceId, to, reason, ...expected, ackRef })).status;
  r.why = moved === to ? reason : null;
  show(r, moved);
}

/** -> rejected with its reason, announced to the partner or tenant. */
export async function reject(r: InvoiceRun, reason: string): Promise<void> {
  await advance(r, 'rejected', reason);
  await announceStatus({ invoiceId: r.invoiceId, status: 'rejected', reason });
}

/** A reserved test TRN: the API stored the invoice as delivered; this run only announces it. */
export async function announceReserved(r: InvoiceRun): Promise<InvoiceWorkflowResult> {
  show(r, 'delivered');
  await announceStatus({ invoiceId: r.invoiceId, status: 'delivered', reason: null });
  publish(r);
  explain(r, 'delivered with the reserved test TRN (validation and delivery skipped); nothing to wait for');
  return 'delivered';
}

/** The invoice is gone (DELETEd): the run ends quietly. */
export function deleted(r: InvoiceRun): 'deleted' {
  explain(r, 'deleted: the invoice no longer exists (DELETEd); this run ended');
  return 'deleted';
}
