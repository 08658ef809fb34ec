import { ApplicationFailure } from '@temporalio/activity';
import { config } from '../src/config';
import { logger } from '../src/logger';
import { aspCallDuration, aspCalls } from '../src/metrics';
import { Invoice, InvoiceDocument } from '../src/db/models';
import { ServiceError } from '../src/domain/errors';
import type { InvoiceStatus } from '../src/domain/invoice-status';
import { type InvoiceCreateBody, renderInvoice, validatePintAeNative, runOfficialSchematron } from '@einvoice/pint-ae';
import { AspRetryableError, AspUnavailableError, unavailableAsp, type AspClient } from '../src/provider/asp';
import { AspRequestError } from '../src/provider/asp-http-client';
import { forgetRendered, recallRendered, rememberRendered } from './rendered-documents';
import { openHandOver, recordAnswer, recordHandOver, recordRefusedSignal, submissionEvidence } from '../src/services/asp-evidence';
import type { Mls } from '../src/provider/asp-api';
import { verdictOfEvidence } from '../src/provider/asp-verdicts';
import type { CreatedDelivery } from '../src/webhooks/deliveries';
import { createWebhookDelivery, type CreateWebhookDeliveryInput } from './webhook-activities';
import { spendForDelivery } from '../src/services/credits';
import { advanceInvoiceStatus, moveInvoiceStatus, tryMove, tryMoveThrough } from '../src/services/invoice-status-writer';
import type { AspVerdict } from '../src/temporal/contract';

// The steps of invoiceWorkflow that touch the world. Each is safe to retry: it re-reads the persisted status and
// does nothing when its transition already happened, so a Temporal retry after a lost reply never repeats a step.

const notFound = (invoiceId: string) => ApplicationFailure.nonRetryable(`invoice ${invoiceId} not found (deleted?)`, 'invoice_not_found');

export interface RunStart {
  /** null: the invoice no longer exists (deleted by the partner). */
  status: InvoiceStatus | null;
  run: number;
  aspSubmissionId: string | null;
}

/** Where a run starts: a draft (its automatic start failed earlier) becomes queued; any other status resumes as is. */
export async function beginInvoiceRun({ invoiceId }: { invoiceId: string }): Promise<RunStart> {
  const inv = await Invoice.findById(invoiceId, { status: 1, run: 1, heldReason: 1, aspSubmissionId: 1 }).lean();
  if (!inv) return { status: null, run: 0, aspSubmissionId: null };
  if (inv.heldReason) throw ApplicationFailure.nonRetryable(`invoice ${invoiceId} is held by the pre-submit check and never enters the pipeline`, 'invoice_held');
  if (inv.status === 'draft') {
    const moved = await advanceInvoiceStatus({ invoiceId, to: 'queued' });
    return { status: moved.status, run: moved.run, aspSubmissionId: null };
  }
  return { status: inv.status as InvoiceStatus, run: inv.run ?? 1, aspSubmissionId: inv.aspSubmissionId ?? null };
}

/**
 * A queued invoice's PINT-AE XML, rendered and stored with its document UUID (and kept for this worker's next
 * steps); `xml` null when the invoice is not queued any more (a repeated step goes on from `status`). The same
 * body renders the same way every time: a render failure is not retried.
 */
async function renderQueued(invoiceId: string, documentUuid: string): Promise<{ status: InvoiceStatus; run: number | undefined; xml: string | null }> {
  const inv = await Invoice.findById(invoiceId, { status: 1, body: 1, run: 1 }).lean();
  if (!inv) throw notFound(invoiceId);
  if (inv.status !== 'queued') return { status: inv.status as InvoiceStatus, run: inv.run ?? undefined, xml: null };
  let xml: string;
  try {
    xml = renderInvoice(inv.body as InvoiceCreateBody, { documentUuid });
  } catch (err) {
    throw ApplicationFailure.nonRetryable(`PINT-AE transformation failed: ${(err as Error).message}`, 'transform_failed');
  }
  await InvoiceDocument.updateOne({ _id: invoiceId }, { $set: { xml, documentUuid, run: inv.run ?? 1 } }, { upsert: true });
  rememberRendered(invoiceId, documentUuid, xml);
  return { status: 'queued', run: inv.run ?? undefined, xml };
}

/** queued -> transformed: renders the PINT-AE XML and stores it with its document UUID. */
export async function transformInvoice({ invoiceId, documentUuid }: { invoiceId: string; documentUuid: string }): Promise<InvoiceStatus> {
  const { status, run, xml } = await renderQueued(invoiceId, documentUuid);
  if (xml === null) return status;
  return (await moveInvoiceStatus(invoiceId, { status: 'queued', run }, 'transformed', null, { documentUuid })).status;
}

export interface RuleFinding {
  id: string;
  location: string;
  text: string;
}

/**
 * transformed -> validated, or a non-retryable `validation_failed` naming the fatal rule ids (the workflow then
 * rejects the invoice).
 */
export async function validateInvoiceDocument({ invoiceId, run, documentUuid }: { invoiceId: string; run?: number; documentUuid?: string }): Promise<{ status: InvoiceStatus; note: string | null }> {
  // Runs with local steps name their run: the conditional update at the end is then the status check.
  const named = run !== undefined;
  if (run === undefined) {
    const inv = await Invoice.findById(invoiceId, { status: 1, run: 1 }).lean();
    if (!inv) throw notFound(invoiceId);
    if (inv.status !== 'transformed') return { status: inv.status as InvoiceStatus, note: null };
    run = inv.run ?? 1;
  }
  const xml = recallRendered(invoiceId, documentUuid) ?? (await InvoiceDocument.findById(invoiceId, { xml: 1 }).lean())?.xml ?? '';
  const { fatal, note } = await checkDocument(xml);
  if (fatal.length) throw validationFailure(fatal);
  if (await tryMove(invoiceId, { status: 'transformed', run }, 'validated', note, {}, named ? { run } : {})) return { status: 'validated', note };
  // Not transformed (of this run) any more: a repeated step, or a DELETE. Continue from where the invoice is.
  const now = await Invoice.findById(invoiceId, { status: 1 }).lean();
  if (!now) throw notFound(invoiceId);
  if (now.status === 'transformed') throw concurrentChange(invoiceId);
  return { status: now.status as InvoiceStatus, note: null };
}

/**
 * The PINT-AE rules' fatal findings. The official Schematron, when configured, runs in a thread with a budget;
 * past it, or when it cannot run, the native verdict stands and `note` says so (kept in the status history).
 */
async function checkDocument(xml: string): Promise<{ fatal: RuleFinding[]; note: string | null }> {
  const fatal: RuleFinding[] = validatePintAeNative(xml).fatal.map(({ id, location, text }: RuleFinding) => ({ id, location, text }));
  const { pintAeSchematronDir: dir, schematronBudgetMs: budgetMs } = config();
  if (!dir) return { fatal, note: null };
  const official = await runOfficialSchematron(xml, { dir, budgetMs });
  if (official.kind === 'checked') {
    const known = new Set(fatal.map((f) => f.id));
    fatal.push(...official.fatal.filter((f) => !known.has(f.id)).map(({ id, location, text }) => ({ id, location, text })));
    return { fatal, note: null };
  }
  if (official.kind === 'over_budget') return { fatal, note: `warning: official PINT-AE Schematron not applied (over its ${budgetMs} ms budget); native rules passed` };
  return { fatal, note: `warning: official PINT-AE Schematron could not run (${official.message}); native rules passed` };
}

/** The non-retryable failure that rejects the invoice, naming the fatal rule ids (the first 100 findings in its details). */
function validationFailure(fatal: RuleFinding[]): ApplicationFailure {
  const ids = [...new Set(fatal.map((f) => f.id))];
  return ApplicationFailure.create({
    nonRetryable: true,
    type: 'validation_failed',
    message: `PINT-AE validation failed: ${ids.join(', ')}`,
    details: [fatal.slice(0, 100)],
  });
}

/**
 * queued -> transformed -> validated as one step (runs with steps 'combined'): render, store the XML, check it,
 * and write both transitions with one update. Half the status writes and one workflow activation fewer than the
 * two steps; the history keeps both entries. A document the rules refuse leaves the invoice transformed (its XML
 * stored, as the two steps left it) and fails with validation_failed; a body that cannot render, transform_failed.
 */
export async function prepareInvoiceDocument({ invoiceId, documentUuid }: { invoiceId: string; documentUuid: string }): Promise<{ status: InvoiceStatus; note: string | null }> {
  const { status, run, xml } = await renderQueued(invoiceId, documentUuid);
  if (xml === null) return { status, note: null }; // a repeated step: go on from there
  const { fatal, note } = await checkDocument(xml);
  const queued = { status: 'queued' as const, run };
  if (fatal.length) {
    if (!(await tryMove(invoiceId, queued, 'transformed', null, { documentUuid }))) throw concurrentChange(invoiceId);
    throw validationFailure(fatal);
  }
  const moved = await tryMoveThrough(invoiceId, queued, [{ to: 'transformed', reason: null }, { to: 'validated', reason: note }], { documentUuid });
  if (moved) return { status: moved.status, note };
  const now = await Invoice.findById(invoiceId, { status: 1 }).lean();
  if (!now) throw notFound(invoiceId);
  if (now.status === 'queued') throw concurrentChange(invoiceId);
  return { status: now.status as InvoiceStatus, note: null };
}

const concurrentChange = (invoiceId: string) => ApplicationFailure.retryable(`invoice ${invoiceId} changed concurrently`, 'concurrent_transition');

/**
 * Live deliveries spend one credit per run; test mode is free. services/credits.ts holds the rules and why a
 * retried or concurrent attempt never spends twice; this maps its answers to Temporal's terms.
 */
export async function reserveDeliveryCredit({ invoiceId }: { invoiceId: string }): Promise<{ ok: boolean }> {
  try {
    return { ok: (await spendForDelivery({ invoiceId })) !== 'no_credit' };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    if (err.code === 'invoice_not_found') throw notFound(invoiceId);
    // Another attempt holds this run's spend claim: come back when it has settled.
    if (err.code === 'credit_spend_in_progress') throw ApplicationFailure.retryable(err.message, err.code);
    throw err;
  }
}

export type DeliveryResult =
  /** webhook: the delivered event's row when `announce` was given (null: nobody to tell, or it could not be created). */
  | { delivered: true; submissionId: string; webhook?: CreatedDelivery | null }
  | { delivered: false; reason: string };

/** The result's webhook field, present only when the step was asked to announce (older runs' results unchanged). */
const withWebhook = (webhook: CreatedDelivery | null | undefined) => (webhook === undefined ? {} : { webhook });

/** deliverInvoice's `announce`: the delivered event's row, created by the step itself ('combined' runs). */
export type Announce = Omit<CreateWebhookDeliveryInput, 'invoiceId' | 'status' | 'reason'>;

/**
 * The delivered event's webhook row (an activation and a marker fewer than a step of its own). A refusal (the
 * invoice deleted meanwhile) is logged and sends nothing, as fireStatusWebhook does; a database failure fails the
 * step, whose retry finds the invoice delivered and creates the same row (same deliveryId).
 */
async function announceDelivered(invoiceId: string, announce: Announce | undefined): Promise<CreatedDelivery | null | undefined> {
  if (!announce) return undefined;
  try {
    return await createWebhookDelivery({ ...announce, invoiceId, status: 'delivered', reason: null });
  } catch (err) {
    if (!(err instanceof ApplicationFailure)) throw err;
    logger.warn({ reason: err.message }, 'webhook not created');
    return null;
  }
}

/** The ASP's errors as Temporal failures: come back later (honouring Retry-After), or give up on this hand-over. */
function asActivityFailure(err: unknown): unknown {
  if (err instanceof AspRetryableError) {
    return ApplicationFailure.create({ message: err.message, type: 'provider_unavailable_for_now', nonRetryable: false, ...(err.retryAfterMs !== null ? { nextRetryDelay: err.retryAfterMs } : {}) });
  }
  if (err instanceof AspUnavailableError || err instanceof AspRequestError) return ApplicationFailure.nonRetryable(err.message, err.code);
  return err;
}

/** einvoice_asp_calls_total's outcome for a call that threw. */
function aspErrorOutcome(err: unknown): string {
  if (err instanceof AspRetryableError) return 'retryable_error';
  if (err instanceof AspUnavailableError) return 'unavailable';
  if (err instanceof AspRequestError) return 'request_refused';
  return 'error';
}

/** One call to the ASP, counted by outcome and timed; a failure is counted and rethrown as the activity's failure. */
async function aspCall<T>(mode: string, call: 'submit' | 'poll', send: () => Promise<T>, outcomeOf: (answer: T) => string): Promise<T> {
  const end = aspCallDuration.startTimer({ mode, call });
  try {
    const answer = await send();
    aspCalls.inc({ mode, call, outcome: outcomeOf(answer) });
    return answer;
  } catch (err) {
    aspCalls.inc({ mode, call, outcome: aspErrorOutcome(err) });
    throw asActivityFailure(err);
  } finally {
    end();
  }
}

/** What the pipeline's steps need from outside: the ASP of each mode (sandbox: the Tenant API's sandbox mode). */
export interface PipelineDeps {
  asp: { test: AspClient; live: AspClient; sandbox?: AspClient };
}

/** The steps that talk to the ASP, bound to the ASPs the worker was given. */
export function aspSteps(deps: PipelineDeps) {
  const noSandbox = unavailableAsp('no sandbox ASP is configured for this worker (PROVIDER_SANDBOX_URL)');
  const aspOf = (mode: string): AspClient => (mode === 'sandbox' ? (deps.asp.sandbox ?? noSandbox) : deps.asp[mode === 'live' ? 'live' : 'test']);
  return {
    /** validated (or blocked_no_credit after a top-up) -> delivered: hands the document to the ASP. */
    async deliverInvoice({ invoiceId, announce }: { invoiceId: string; announce?: Announce }): Promise<DeliveryResult> {
      const inv = await Invoice.findById(invoiceId, { status: 1, mode: 1, run: 1, body: 1, aspSubmissionId: 1, documentUuid: 1 }).lean();
      if (!inv) throw notFound(invoiceId);
      if (inv.status === 'delivered' && inv.aspSubmissionId) return { delivered: true, submissionId: inv.aspSubmissionId, ...withWebhook(await announceDelivered(invoiceId, announce)) };
      // The invoice names the document its transform stored: this process may still hold it.
      const rendered = recallRendered(invoiceId, inv.documentUuid);
      const doc = rendered !== null ? { xml: rendered, documentUuid: inv.documentUuid! } : await InvoiceDocument.findById(invoiceId, { xml: 1, documentUuid: 1 }).lean();
      if (!doc) throw ApplicationFailure.nonRetryable(`invoice ${invoiceId} has no rendered document to deliver`, 'unexpected_status');
      const run = inv.run ?? 1;
      await openHandOver({ invoiceId, run, xml: doc.xml, documentUuid: doc.documentUuid });
      const handOver = await aspCall(inv.mode, 'submit', () => aspOf(inv.mode).submit({ invoiceId, run, body: inv.body, xml: doc.xml }), (h) => (h.accepted ? 'accepted' : 'refused'));
      await recordHandOver({ invoiceId, run, xml: doc.xml, documentUuid: doc.documentUuid, submissionId: handOver.accepted ? handOver.submissionId : null, answer: handOver.answer });
      if (!handOver.accepted) {
        logger.info({ mode: inv.mode, run, reason: handOver.reason }, 'ASP refused the hand-over');
        return { delivered: false, reason: handOver.reason };
      }
      logger.info({ mode: inv.mode, run, submissionId: handOver.submissionId }, 'handed to the ASP');
      await moveInvoiceStatus(invoiceId, { status: inv.status as InvoiceStatus, run: inv.run }, 'delivered', null, { aspSubmissionId: handOver.submissionId });
      forgetRendered(invoiceId, inv.documentUuid);
      return { delivered: true, submissionId: handOver.submissionId, ...withWebhook(await announceDelivered(invoiceId, announce)) };
    },

    /** The timer fallback: asks the ASP about a hand-over whose acknowledgement signal has not arrived. */
    async pollAspVerdict({ invoiceId, submissionId }: { invoiceId: string; submissionId: string }): Promise<AspVerdict | { submissionId: string; status: 'pending' }> {
      const inv = await Invoice.findById(invoiceId, { mode: 1, body: 1 }).lean();
      if (!inv) throw notFound(invoiceId);
      const polled = await aspCall(inv.mode, 'poll', () => aspOf(inv.mode).poll({ invoiceId, submissionId, body: inv.body }), (p) => p.status);
      const { answer, ...verdict } = polled;
      logger.info({ mode: inv.mode, submissionId, verdict: verdict.status, reason: 'reason' in verdict ? verdict.reason : undefined }, `ASP poll: ${verdict.status}`);
      if (answer) await recordAnswer(answer, 'poll');
      return verdict;
    },

    /**
     * A verdict signal, checked before the workflow acts on it: anyone who reaches Temporal can send one. The
     * verdict is the hand-over's evidence (written by the callback route, a poll, or the simulated ASP before it
     * signals); where that is silent, the ASP is asked (a poll, recorded as evidence too). The answer is the
     * evidence's verdict, never the signal's payload; pending when nothing supports the signal, which is then
     * recorded on the evidence as refused and logged, and changes nothing.
     */
    async confirmAspVerdict({ invoiceId, claimed }: { invoiceId: string; claimed: AspVerdict }): Promise<AspVerdict | { submissionId: string; status: 'pending' }> {
      const inv = await Invoice.findById(invoiceId, { mode: 1, run: 1, body: 1 }).lean();
      if (!inv) throw notFound(invoiceId);
      const run = inv.run ?? 1;
      const record = await submissionEvidence(invoiceId, run);
      const ours = record !== null && record.submissionId === claimed.submissionId;
      let verdict: AspVerdict | { submissionId: string; status: 'pending' } = ours
        ? verdictOfEvidence({ submissionId: claimed.submissionId, statusAt: (record.statusAt ?? {}) as Record<string, string>, mls: record.mls as Mls | null, ackRef: record.ackRef ?? null })
        : { submissionId: claimed.submissionId, status: 'pending' };
      const asp = aspOf(inv.mode);
      if (ours && verdict.status === 'pending' && !asp.verdictsInEvidence) {
        const polled = await aspCall(inv.mode, 'poll', () => asp.poll({ invoiceId, submissionId: claimed.submissionId, body: inv.body }), (p) => p.status);
        const { answer, ...asked } = polled;
        if (answer) await recordAnswer(answer, 'poll');
        verdict = asked;
      }
      if (verdict.status === claimed.status) return verdict;
      const why = !ours
        ? `no hand-over ${claimed.submissionId} of this invoice's run ${run} in the evidence`
        : verdict.status === 'pending'
          ? `the ASP has reported no verdict on ${claimed.submissionId}`
          : `the ASP reported ${verdict.status}, not ${claimed.status}`;
      logger.warn({ mode: inv.mode, run, claimed: claimSummary(claimed), why }, 'ASP verdict signal refused: the evidence does not support it');
      if (record) await recordRefusedSignal(invoiceId, run, record.refusedSignals?.length ?? 0, { claimed: claimSummary(claimed), why });
      return verdict; // pending: the workflow keeps waiting; a verdict of its own: the evidence's, acted on
    },
  };
}

/** What a refused signal claimed, cut to size (its text is whatever the sender wrote). */
function claimSummary(claimed: AspVerdict): Record<string, unknown> {
  const cut = (v: unknown, n: number) => (v === undefined || v === null ? null : typeof v === 'string' ? v.slice(0, n) : JSON.stringify(v).slice(0, n));
  return { submissionId: cut(claimed.submissionId, 200), status: cut(claimed.status, 40), reason: cut(claimed.reason, 300), ackRef: cut(claimed.ackRef, 100) };
}
