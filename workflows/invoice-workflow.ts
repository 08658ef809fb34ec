import { ActivityFailure, ApplicationFailure, log, makeContinueAsNewFunc, uuid4, workflowInfo } from '@temporalio/workflow';
import { InvoiceStatusKey, type InvoiceWorkflowInput, type InvoiceWorkflowResult } from '../src/temporal/contract';
import { announceStatus, newDelivery } from './announce-status';
import { awaitVerdict } from './asp-verdict';
import { applicationFailure, INVOICE_GONE } from './failures';
import { advance, announceReserved, deleted, listen, newRun, publish, reject, show, waitFor, type InvoiceRun } from './invoice-run';
import { beginInvoiceRun, deliverInvoice, prepareInvoiceDocument, reserveDeliveryCredit, validateInvoiceDocument } from './pipeline-activities';

// One workflow per invoice (id invoice-<invoiceId>): prepare (render and validate) -> credit -> deliver ->
// the ASP's verdict. MongoDB holds the status (forward-only, with history); this code only decides the next step.
// A failure terminal (rejected, blocked_no_credit) waits for a retry, which continues as a new run.

export type { InvoiceWorkflowInput, InvoiceWorkflowResult };

/** A rejected or blocked run waits without end, on timers of this length (re-armed): their summary says why. */
const WAIT_FOR_RETRY_MS = 30 * 24 * 60 * 60 * 1000;
const NO_CREDIT = 'no delivery credit left for this SME; a top-up resumes delivery, or retry';

export async function invoiceWorkflow(input: InvoiceWorkflowInput): Promise<InvoiceWorkflowResult> {
  const r = newRun(input);
  listen(r);
  if (input.reservedDelivered) return announceReserved(r);
  try {
    if (!(await begin(r))) return deleted(r);
    for (;;) {
      const ended = await next(r);
      if (ended) return ended;
    }
  } catch (err) {
    // DELETE removes the invoice (and terminates this run); an activity that got there first ends the run quietly.
    if (applicationFailure(err, INVOICE_GONE)) return deleted(r);
    throw err;
  }
}

/** The step for the status the invoice is in; the run's result when it ends. */
async function next(r: InvoiceRun): Promise<InvoiceWorkflowResult | null> {
  switch (r.current) {
    case 'queued':
      await prepare(r);
      return null;
    case 'transformed':
      await validate(r);
      return null;
    case 'validated':
      await creditThenDeliver(r);
      return null;
    case 'delivered':
      return settleWithAsp(r);
    case 'acknowledged':
      publish(r);
      return 'acknowledged';
    case 'draft':
      return (await begin(r)) ? null : deleted(r);
    case 'rejected':
    case 'blocked_no_credit':
      await waitForRetryOrCredits(r);
      return null;
    default:
      throw ApplicationFailure.nonRetryable(`invoice ${r.invoiceId} is ${r.current}, which the pipeline cannot continue from`, 'unexpected_status');
  }
}

/**
 * Where the run starts: a start that says the API has just queued the invoice (InvoiceStatus=queued) goes straight
 * to prepare, which answers with where the invoice really is; otherwise the store says (a draft is queued again).
 * False when the invoice no longer exists.
 */
async function begin(r: InvoiceRun): Promise<boolean> {
  if (r.current === 'unknown' && !workflowInfo().continuedFromExecutionRunId && workflowInfo().typedSearchAttributes.get(InvoiceStatusKey) === 'queued') {
    show(r, 'queued');
    return true;
  }
  const start = await beginInvoiceRun({ invoiceId: r.invoiceId });
  if (start.status === null) return false;
  r.run = start.run;
  r.submissionId = start.aspSubmissionId;
  show(r, start.status);
  return true;
}

/** queued -> transformed -> validated in one step; a body that cannot render, or fatal rule findings, reject it. */
async function prepare(r: InvoiceRun): Promise<void> {
  try {
    const documentUuid = uuid4();
    const prepared = await prepareInvoiceDocument({ invoiceId: r.invoiceId, documentUuid });
    if (prepared.note) log.warn(prepared.note, { invoiceId: r.invoiceId });
    r.renderedUuid = documentUuid;
    r.run = prepared.run;
    show(r, prepared.status);
  } catch (err) {
    const failure = applicationFailure(err, 'transform_failed') ?? applicationFailure(err, 'validation_failed');
    if (!failure) throw err;
    if (failure.type === 'validation_failed') r.current = 'transformed'; // the step stored the XML before the rules refused it
    await reject(r, failure.message);
  }
}

/** transformed -> validated (an invoice found transformed): PINT-AE rules; fatal findings reject it with their rule ids. */
async function validate(r: InvoiceRun): Promise<void> {
  try {
    const validated = await validateInvoiceDocument({ invoiceId: r.invoiceId, run: r.run, ...(r.renderedUuid ? { documentUuid: r.renderedUuid } : {}) });
    if (validated.note) log.warn(validated.note, { invoiceId: r.invoiceId });
    show(r, validated.status);
  } catch (err) {
    const failure = applicationFailure(err, 'validation_failed');
    if (!failure) throw err;
    await reject(r, failure.message);
  }
}

/** validated, or blocked_no_credit after a top-up: charge the credit (live only), hand over and announce delivered (one step). */
async function creditThenDeliver(r: InvoiceRun): Promise<void> {
  const charged = r.input.mode === 'live' ? await reserveDeliveryCredit({ invoiceId: r.invoiceId }) : { ok: true };
  if (!charged.ok) {
    if (r.current !== 'blocked_no_credit') await advance(r, 'blocked_no_credit', NO_CREDIT);
    return;
  }
  let result: Awaited<ReturnType<typeof deliverInvoice>>;
  try {
    result = await deliverInvoice({ invoiceId: r.invoiceId, announce: newDelivery() });
  } catch (err) {
    // Refused for good (non-retryable) or still failing after a day of retries: the partner may retry.
    if (!(err instanceof ActivityFailure || err instanceof ApplicationFailure) || applicationFailure(err, INVOICE_GONE)) throw err;
    return reject(r, `delivery failed: ${(err.cause ?? err).message}`);
  }
  if (!result.delivered) return reject(r, result.reason);
  r.submissionId = result.submissionId;
  show(r, 'delivered');
}

/**
 * delivered -> acknowledged (the run ends) or rejected by the authority (null: the run goes on). The step that
 * confirms an acknowledged verdict writes it, with its ackRef, and on the Tenant API announces it (SPEC 6.2; on the
 * Partner API acknowledged collapses into delivered, no second webhook).
 */
async function settleWithAsp(r: InvoiceRun): Promise<InvoiceWorkflowResult | null> {
  const verdict = await awaitVerdict(r);
  if (verdict.status === 'rejected') {
    await reject(r, verdict.reason ?? 'rejected by the authority');
    return null;
  }
  r.why = null;
  show(r, verdict.settled.status);
  publish(r);
  return 'acknowledged';
}

/** A failure terminal waits: `retry` continues as a new run; a credit top-up resumes a blocked delivery. */
async function waitForRetryOrCredits(r: InvoiceRun): Promise<void> {
  const woken = () => r.retryRequested || (r.current === 'blocked_no_credit' && r.creditsToppedUp);
  while (!(await waitFor(r, woken, WAIT_FOR_RETRY_MS)));
  if (r.retryRequested) {
    // A new run: its history starts clean and shows each pipeline run apart; it resumes from the stored status.
    await makeContinueAsNewFunc<typeof invoiceWorkflow>({ typedSearchAttributes: workflowInfo().typedSearchAttributes })(r.input);
  }
  r.creditsToppedUp = false;
  await creditThenDeliver(r);
}
