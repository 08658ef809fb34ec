import { config } from '../src/config';
import { logger } from '../src/logger';
import { aspCallDuration, aspCalls } from '../src/metrics';
import { Invoice, InvoiceDocument } from '../src/db/models';
import { ServiceError } from '../src/domain/errors';
import type { InvoiceStatus } from '../src/domain/invoice-status';
import { type InvoiceCreateBody, renderInvoice, validatePintAeNative, runOfficialSchematron } from '@einvoice/pint-ae';
import { unavailableAsp, type AspClient } from '../src/provider/asp';
import { forgetRendered, recallRendered, rememberRendered } from './rendered-documents';
import { ackRefFromEvidence, openHandOver, recordAnswer, recordHandOver, recordRefusedSignal, submissionEvidence } from '../src/services/asp-evidence';
import type { Mls } from '../src/provider/asp-api';
import { verdictOfEvidence } from '../src/provider/asp-verdicts';
import { spendForDelivery } from '../src/services/credits';
import { advanceInvoiceStatus as writeStatus, moveInvoiceStatus, statusChangeError, tryMove, tryMoveThrough, type StatusChange, type StatusChangeResult } from '../src/services/invoice-status-writer';
import type { AspVerdict } from '../src/temporal/contract';
import { announceFromStep, type Announcement } from './webhook-activities';

// The steps of invoiceWorkflow that touch the world. Each is safe to retry: it re-reads the persisted status and
// does nothing when its transition already happened, so a Temporal retry after a lost reply never repeats a step.
// Refusals are ServiceErrors; activities/failures.ts turns them into Temporal failures (final unless retryable).

const notFound = (invoiceId: string) => new ServiceError(404, 'invoice_not_found', 'Not found', `invoice ${invoiceId} not found (deleted?)`);
const concurrentChange = (invoiceId: string) => statusChangeError('concurrent_transition', `invoice ${invoiceId} changed concurrently`);

export interface RunStart {
  /** null: the invoice no longer exists (deleted by the partner). */
  status: InvoiceStatus | null;
  run: number;
  aspSubmissionId: string | null;
}

/**
 * The status writer, as the workflow calls it. The acknowledged transition carries the verdict's ackRef in its
 * update; when the verdict had none, the evidence is read after the write (services/asp-evidence.ts showAckRef).
 */
export async function advanceInvoiceStatus(change: StatusChange): Promise<StatusChangeResult> {
  const moved = await writeStatus(change);
  if (change.to === 'acknowledged' && !change.ackRef && moved.status === 'acknowledged') await ackRefFromEvidence(change.invoiceId, moved.run);
  return moved;
}

/** Where a run starts: a draft (its automatic start failed earlier) becomes queued; any other status resumes as is. */
export async function beginInvoiceRun({ invoiceId }: { invoiceId: string }): Promise<RunStart> {
  const inv = await Invoice.findById(invoiceId, { status: 1, run: 1, heldReason: 1, aspSubmissionId: 1 }).lean();
  if (!inv) return { status: null, run: 0, aspSubmissionId: null };
  if (inv.heldReason) throw new ServiceError(409, 'invoice_held', 'Conflict', `invoice ${invoiceId} is held by the pre-submit check and never enters the pipeline`);
  if (inv.status === 'draft') {
    const moved = await writeStatus({ invoiceId, to: 'queued' });
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
    throw new ServiceError(422, 'transform_failed', 'Transformation failed', `PINT-AE transformation failed: ${(err as Error).message}`);
  }
  await InvoiceDocument.updateOne({ _id: invoiceId }, { $set: { xml, documentUuid, run: inv.run ?? 1 } }, { upsert: true });
  rememberRendered(invoiceId, documentUuid, xml);
  return { status: 'queued', run: inv.run ?? undefined, xml };
}

export interface RuleFinding {
  id: string;
  location: string;
  text: string;
}

/**
 * transformed -> validated, or a non-retryable `validation_failed` naming the fatal rule ids (the workflow then
 * rejects the invoice). The workflow names its run: the conditional update at the end is the status check, and
 * `documentUuid` lets the step use the XML its worker just rendered, when it is the same process.
 */
export async function validateInvoiceDocument({ invoiceId, run, documentUuid }: { invoiceId: string; run: number; documentUuid?: string }): Promise<{ status: InvoiceStatus; note: string | null }> {
  const xml = recallRendered(invoiceId, documentUuid) ?? (await InvoiceDocument.findById(invoiceId, { xml: 1 }).lean())?.xml ?? '';
  const { fatal, note } = await checkDocument(xml);
  if (fatal.length) throw validationFailure(fatal);
  if (await tryMove(invoiceId, { status: 'transformed', run }, 'validated', note, {}, { run })) return { status: 'validated', note };
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

/** The refusal that rejects the invoice, naming the fatal rule ids (the first 100 findings kept as its details). */
function validationFailure(fatal: RuleFinding[]): ServiceError {
  const ids = [...new Set(fatal.map((f) => f.id))];
  return new ServiceError(422, 'validation_failed', 'Validation failed', `PINT-AE validation failed: ${ids.join(', ')}`, { findings: fatal.slice(0, 100) });
}

/** Where the invoice is after its prepare step, in which run, and the validator's warning if any. */
export interface PreparedDocument {
  status: InvoiceStatus;
  run: number;
  note: string | null;
}

/**
 * queued -> transformed -> validated as one step: render, store the XML, check it, and write both transitions
 * with one update (the invoice's history keeps both entries). A document the rules refuse leaves the invoice transformed (its XML
 * stored, as the two steps left it) and fails with validation_failed; a body that cannot render, transform_failed.
 */
export async function prepareInvoiceDocument({ invoiceId, documentUuid }: { invoiceId: string; documentUuid: string }): Promise<PreparedDocument> {
  const { status, run, xml } = await renderQueued(invoiceId, documentUuid);
  if (xml === null) return { status, run: run ?? 1, note: null }; // a repeated step (or a restarted run): go on from there
  const { fatal, note } = await checkDocument(xml);
  const queued = { status: 'queued' as const, run };
  if (fatal.length) {
    if (!(await tryMove(invoiceId, queued, 'transformed', null, { documentUuid }))) throw concurrentChange(invoiceId);
    throw validationFailure(fatal);
  }
  const moved = await tryMoveThrough(invoiceId, queued, [{ to: 'transformed', reason: null }, { to: 'validated', reason: note }], { documentUuid });
  if (moved) return { status: moved.status, run: moved.run, note };
  const now = await Invoice.findById(invoiceId, { status: 1 }).lean();
  if (!now) throw notFound(invoiceId);
  if (now.status === 'queued') throw concurrentChange(invoiceId);
  return { status: now.status as InvoiceStatus, run: run ?? 1, note: null };
}

/**
 * Live deliveries spend one credit per run; test mode is free. services/credits.ts holds the rules and why a
 * retried or concurrent attempt never spends twice (an attempt that meets another's claim fails retryable).
 */
export async function reserveDeliveryCredit({ invoiceId }: { invoiceId: string }): Promise<{ ok: boolean }> {
  return { ok: (await spendForDelivery({ invoiceId })) !== 'no_credit' };
}

/** The hand-over's outcome; `webhook`: the delivered event's delivery, null when there is no one to tell. */
export type DeliveryResult = { delivered: true; submissionId: string; webhook: Announced } | { delivered: false; reason: string };

type Announced = { deliveryId: string; workflowId: string } | null;

/**
 * A verdict step's answer: pending, rejected (the workflow rejects the invoice), or acknowledged and written
 * (`settled`: where the invoice is after the step's write; `webhook`: the Tenant API's status update).
 */
export type SettledVerdict =
  | { submissionId: string; status: 'pending' }
  | (AspVerdict & { status: 'rejected' })
  | (AspVerdict & { status: 'acknowledged'; settled: StatusChangeResult; webhook: Announced });

/**
 * What a verdict step writes when the verdict is acknowledged: the transition, from the status and run the
 * workflow expects, and on the Tenant API its announcement (SPEC 6.2; partners' events stop at delivered).
 */
export interface Settle {
  expected: { status: InvoiceStatus; run: number };
  announce?: Announcement;
}

/** The acknowledged transition of a verdict step, with the verdict's ackRef in the same update, and its announcement. */
async function settle(invoiceId: string, verdict: AspVerdict, how: Settle): Promise<SettledVerdict> {
  if (verdict.status === 'rejected') return { ...verdict, status: 'rejected' };
  const settled = await advanceInvoiceStatus({ invoiceId, to: 'acknowledged', reason: null, expected: how.expected, ackRef: verdict.ackRef ?? null });
  const announce = settled.status === 'acknowledged' ? how.announce : undefined;
  const webhook = announce ? await announceFromStep({ invoiceId, status: 'acknowledged', reason: null, ...announce }) : null;
  return { ...verdict, status: 'acknowledged', settled, webhook };
}

/** einvoice_asp_calls_total's outcome for a call that threw. */
function aspErrorOutcome(err: unknown): string {
  const code = err instanceof ServiceError ? err.code : null;
  return (code && ASP_ERROR_OUTCOMES[code]) ?? 'error';
}
const ASP_ERROR_OUTCOMES: Record<string, string> = { provider_unavailable_for_now: 'retryable_error', provider_unavailable: 'unavailable', provider_request_refused: 'request_refused' };

/** One call to the ASP, counted by outcome and timed; a failure is counted and rethrown. */
async function aspCall<T>(mode: string, call: 'submit' | 'poll', send: () => Promise<T>, outcomeOf: (answer: T) => string): Promise<T> {
  const end = aspCallDuration.startTimer({ mode, call });
  try {
    const answer = await send();
    aspCalls.inc({ mode, call, outcome: outcomeOf(answer) });
    return answer;
  } catch (err) {
    aspCalls.inc({ mode, call, outcome: aspErrorOutcome(err) });
    throw err;
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
    /**
     * validated (or blocked_no_credit after a top-up) -> delivered: hands the document to the ASP, and announces
     * delivered (`announce`, chosen by the workflow) in the same step.
     */
    async deliverInvoice({ invoiceId, announce }: { invoiceId: string; announce?: Announcement }): Promise<DeliveryResult> {
      const inv = await Invoice.findById(invoiceId, { status: 1, mode: 1, run: 1, body: 1, aspSubmissionId: 1, documentUuid: 1, sellerTrn: 1, number: 1, partnerId: 1, smeId: 1, tenantId: 1, numberScope: 1 }).lean();
      if (!inv) throw notFound(invoiceId);
      // (the delivered event's row takes the invoice's owner and mode from this read)
      const announced = async (submissionId: string): Promise<DeliveryResult> => ({ delivered: true, submissionId, webhook: announce ? await announceFromStep({ invoiceId, status: 'delivered', reason: null, ...announce }, inv) : null });
      if (inv.status === 'delivered' && inv.aspSubmissionId) return announced(inv.aspSubmissionId); // a repeated step
      // The invoice names the document its transform stored: this process may still hold it.
      const rendered = recallRendered(invoiceId, inv.documentUuid);
      const doc = rendered !== null ? { xml: rendered, documentUuid: inv.documentUuid! } : await InvoiceDocument.findById(invoiceId, { xml: 1, documentUuid: 1 }).lean();
      if (!doc) throw new ServiceError(409, 'unexpected_status', 'Conflict', `invoice ${invoiceId} has no rendered document to deliver`);
      const run = inv.run ?? 1;
      await openHandOver({ invoiceId, run, xml: doc.xml, documentUuid: doc.documentUuid });
      const handOver = await aspCall(inv.mode, 'submit', () => aspOf(inv.mode).submit({ invoiceId, run, body: inv.body, xml: doc.xml }), (h) => (h.accepted ? 'accepted' : 'refused'));
      const seller = { sellerTrn: inv.sellerTrn, number: inv.number };
      await recordHandOver({ invoiceId, run, xml: doc.xml, documentUuid: doc.documentUuid, submissionId: handOver.accepted ? handOver.submissionId : null, answer: handOver.answer, seller });
      if (!handOver.accepted) {
        logger.info({ mode: inv.mode, run, reason: handOver.reason }, 'ASP refused the hand-over');
        return { delivered: false, reason: handOver.reason };
      }
      logger.info({ mode: inv.mode, run, submissionId: handOver.submissionId }, 'handed to the ASP');
      await moveInvoiceStatus(invoiceId, { status: inv.status as InvoiceStatus, run: inv.run }, 'delivered', null, { aspSubmissionId: handOver.submissionId });
      forgetRendered(invoiceId, inv.documentUuid);
      return announced(handOver.submissionId);
    },

    /** The timer fallback: asks the ASP about a hand-over whose acknowledgement signal has not arrived (and settles it). */
    async pollAspVerdict({ invoiceId, submissionId, settle: how }: { invoiceId: string; submissionId: string; settle: Settle }): Promise<SettledVerdict> {
      const inv = await Invoice.findById(invoiceId, { mode: 1, body: 1 }).lean();
      if (!inv) throw notFound(invoiceId);
      const polled = await aspCall(inv.mode, 'poll', () => aspOf(inv.mode).poll({ invoiceId, submissionId, body: inv.body }), (p) => p.status);
      const { answer, ...verdict } = polled;
      logger.info({ mode: inv.mode, submissionId, verdict: verdict.status, reason: 'reason' in verdict ? verdict.reason : undefined }, `ASP poll: ${verdict.status}`);
      if (answer) await recordAnswer(answer, 'poll');
      return verdict.status === 'pending' ? verdict : settle(invoiceId, verdict, how);
    },

    /**
     * A verdict signal, checked before the workflow acts on it: anyone who reaches Temporal can send one. The
     * verdict is the hand-over's evidence (written by the callback route, a poll, or the simulated ASP before it
     * signals); where that is silent, the ASP is asked (a poll, recorded as evidence too). The answer is the
     * evidence's verdict, never the signal's payload; pending when nothing supports the signal, which is then
     * recorded on the evidence as refused and logged, and changes nothing. An acknowledged verdict is settled in
     * the same step (`settle`).
     */
    async confirmAspVerdict({ invoiceId, claimed, run: runOfWorkflow, mode: modeOfWorkflow, settle: how }: { invoiceId: string; claimed: AspVerdict; run?: number; mode?: string; settle: Settle }): Promise<SettledVerdict> {
      // The workflow names its run and mode (it handed this run over): the invoice is read only when they are not
      // given or the ASP must be asked (its body). (A handed-over invoice cannot be deleted.)
      const read = async (): Promise<{ run: number; mode: string; body: unknown }> => {
        const found = await Invoice.findById(invoiceId, { mode: 1, run: 1, body: 1 }).lean();
        if (!found) throw notFound(invoiceId);
        return { run: found.run ?? 1, mode: found.mode, body: found.body };
      };
      const known = runOfWorkflow !== undefined && modeOfWorkflow !== undefined;
      const inv: { run: number; mode: string; body?: unknown } = known ? { run: runOfWorkflow, mode: modeOfWorkflow } : await read();
      const run = inv.run;
      const record = await submissionEvidence(invoiceId, run);
      const ours = record !== null && record.submissionId === claimed.submissionId;
      let verdict: AspVerdict | { submissionId: string; status: 'pending' } = ours
        ? verdictOfEvidence({ submissionId: claimed.submissionId, statusAt: (record.statusAt ?? {}) as Record<string, string>, mls: record.mls as Mls | null, ackRef: record.ackRef ?? null })
        : { submissionId: claimed.submissionId, status: 'pending' };
      const asp = aspOf(inv.mode);
      if (ours && verdict.status === 'pending' && !asp.verdictsInEvidence) {
        const body = 'body' in inv ? inv.body : (await read()).body;
        const polled = await aspCall(inv.mode, 'poll', () => asp.poll({ invoiceId, submissionId: claimed.submissionId, body }), (p) => p.status);
        const { answer, ...asked } = polled;
        if (answer) await recordAnswer(answer, 'poll');
        verdict = asked;
      }
      if (verdict.status !== 'pending' && verdict.status === claimed.status) return settle(invoiceId, verdict, how);
      const why = !ours
        ? `no hand-over ${claimed.submissionId} of this invoice's run ${run} in the evidence`
        : verdict.status === 'pending'
          ? `the ASP has reported no verdict on ${claimed.submissionId}`
          : `the ASP reported ${verdict.status}, not ${claimed.status}`;
      logger.warn({ mode: inv.mode, run, claimed: claimSummary(claimed), why }, 'ASP verdict signal refused: the evidence does not support it');
      if (record) await recordRefusedSignal(invoiceId, run, record.refusedSignals?.length ?? 0, { claimed: claimSummary(claimed), why });
      // pending: the workflow keeps waiting; a verdict of its own: the evidence's, acted on
      return verdict.status === 'pending' ? verdict : settle(invoiceId, verdict, how);
    },
  };
}

/** What a refused signal claimed, cut to size (its text is whatever the sender wrote). */
function claimSummary(claimed: AspVerdict): Record<string, unknown> {
  const cut = (v: unknown, n: number) => (v === undefined || v === null ? null : typeof v === 'string' ? v.slice(0, n) : JSON.stringify(v).slice(0, n));
  return { submissionId: cut(claimed.submissionId, 200), status: cut(claimed.status, 40), reason: cut(claimed.reason, 300), ackRef: cut(claimed.ackRef, 100) };
}
