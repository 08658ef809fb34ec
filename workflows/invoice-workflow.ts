import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  log,
  makeContinueAsNewFunc,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { ActivityOptions, LocalActivityOptions } from '@temporalio/common';
import type { Activities } from '../activities';
import type { DeliveryResult } from '../activities/invoice-pipeline';
import type { InvoiceStatus } from '../src/domain/invoice-status';
import {
  acknowledgedSignal,
  aspVerdictSignal,
  creditsAvailableSignal,
  invoiceStatusQuery,
  InvoiceStatusKey,
  retrySignal,
  type AspVerdict,
  type InvoiceWorkflowInput,
  type InvoiceWorkflowResult,
} from '../src/temporal/contract';
import { humanDuration, retryHint, type InvoiceSurface } from '../src/temporal/invoice-display';
import { fireStatusWebhook, newDeliveryOf, startWebhookChild, type FireStatusWebhookInput } from './webhook-delivery-workflow';

// One workflow per invoice (id invoice-<invoiceId>): transform -> validate -> credit -> deliver -> acknowledgement.
// MongoDB holds the status (forward-only, with history); this code only decides the next step, and mirrors
// each status into the InvoiceStatus search attribute for the Web UI.

// Each step's timeouts and retries. Runs started with `steps: 'local'` (every start since that field exists) run
// the steps as local activities: they take milliseconds, and as normal activities each cost a
// schedule/start/complete round trip and a workflow task through the Temporal server (58 history events an
// invoice). As local activities the steps up to the hand-over run in one workflow task and appear in the history
// as one marker each (named, with their result: the Web UI lists them as local activities). Runs recorded
// before have no `steps` in their input and replay on the old path. (The input decides rather than `patched()`,
// which would cost every run a marker and a search attribute write.)
const STATUS_WRITES: ActivityOptions = {
  // quick, and worth retrying through a database blip
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
};
const TRANSFORM: ActivityOptions = {
  // CPU only; a failure that is not about the body is a crashed worker, retried a few times
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
};
const VALIDATE: ActivityOptions = {
  // native rules take milliseconds; the official Schematron has its own budget (PINT_AE_SCHEMATRON_BUDGET_MS,
  // keep it well under this timeout)
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
};
const ASP: ActivityOptions = {
  // talking to the ASP: transport failures are retried with backoff for up to a day before the invoice is rejected
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '24 hours',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
};

/** The pipeline's steps, as local activities (`local`) or as activities (histories from before the patch). */
function pipelineSteps(local: boolean) {
  const proxy = (opts: ActivityOptions & LocalActivityOptions) => (local ? proxyLocalActivities<Activities>(opts) : proxyActivities<Activities>(opts));
  const { advanceInvoiceStatus, beginInvoiceRun, reserveDeliveryCredit } = proxy(STATUS_WRITES);
  const { transformInvoice } = proxy(TRANSFORM);
  const { validateInvoiceDocument, prepareInvoiceDocument } = proxy(VALIDATE);
  const { deliverInvoice, pollAspVerdict, confirmAspVerdict } = proxy(ASP);
  return { advanceInvoiceStatus, beginInvoiceRun, reserveDeliveryCredit, transformInvoice, validateInvoiceDocument, prepareInvoiceDocument, deliverInvoice, pollAspVerdict, confirmAspVerdict };
}


export type { InvoiceWorkflowInput, InvoiceWorkflowResult };

const MAX_ACK_POLL_MS = 6 * 60 * 60 * 1000;

/**
 * The wait before poll number `poll + 1` on the ASPs' schedule: every `base` (30 s) for the first 4 (2 minutes),
 * then every 4 x base (2 minutes) for 5 more, then doubling, at most 6 hours. ("Don't stop polling at DELIVERED":
 * an invoice is done when the authority has it.)
 */
function aspPollDelayMs(base: number, poll: number): number {
  if (poll < 4) return base;
  if (poll < 9) return 4 * base;
  return Math.min(4 * base * 2 ** (poll - 8), MAX_ACK_POLL_MS);
}
const DROPPED_WHEN_MISSING = 'invoice_not_found';
/** How long a delivered invoice waits for the ASP's verdict before InvoiceStatus says delivered ('combined' runs). */
const QUIET_WAIT_MS = 5_000;
/**
 * A rejected or blocked run waits for a retry without end; with `explainWaits` it does so on timers of this length,
 * each re-armed when it fires, because a timer's summary is what the Web UI shows on the workflow's first screen.
 */
const EXPLAINED_WAIT_MS = 30 * 24 * 60 * 60 * 1000;
/** A timer summary is one line in the UI: long reasons (many rule ids) are cut here; the full text is in the details. */
const SUMMARY_MAX = 600;

export async function invoiceWorkflow(input: InvoiceWorkflowInput): Promise<InvoiceWorkflowResult> {
  const { invoiceId } = input;
  let current: InvoiceStatus | 'unknown' = 'unknown';
  let retryRequested = false;
  let creditsToppedUp = false;
  const verdicts = new Map<string, AspVerdict>();
  // (descriptions show in the Web UI's and `temporal workflow metadata`'s lists of handlers)
  setHandler(invoiceStatusQuery, () => current, { description: 'The status this workflow last persisted.' });
  setHandler(retrySignal, () => void (retryRequested = true), { description: 'A new pipeline run of a rejected or blocked invoice (continues as new); while waiting for the ASP, poll it now.' });
  setHandler(creditsAvailableSignal, () => void (creditsToppedUp = true), { description: 'The SME or tenant was topped up: a blocked_no_credit invoice tries its delivery again.' });
  // A verdict signal is a claim: it wakes the wait, and the verdict acted on is the evidence's (confirmAspVerdict).
  // (a payload without a submission id is ignored here: throwing in a handler would fail every workflow task)
  const onVerdict = (v: AspVerdict) => void (typeof v?.submissionId === 'string' && verdicts.set(v.submissionId, v));
  setHandler(aspVerdictSignal, onVerdict, { description: "The ASP's verdict on a hand-over: {submissionId, status: acknowledged|rejected, reason, ackRef}; acted on only when the stored evidence agrees." });
  // the verdict's first name: workflows signalled before the rename
  setHandler(acknowledgedSignal, onVerdict, { description: 'Old name of aspVerdict (same payload), still accepted.' });

  // The Web UI's "current details" (read by the UI's metadata query, not recorded: no command, replay-safe).
  const surface: InvoiceSurface = input.surface === 'tenant' ? 'tenant' : 'partner';
  let why: string | null = null; // the reason of the status shown (rejected, blocked_no_credit)
  let waitingAsp: { submissionId: string; pollAt: number; waitMs: number } | null = null;
  const explain = (ending?: string) => setCurrentDetails(currentDetails(invoiceId, surface, current, why, waitingAsp, ending));

  const local = input.steps === 'local' || input.steps === 'combined';
  // 'combined': transform and validate are one step; an acknowledgement that comes quickly skips InvoiceStatus=delivered
  const combined = input.steps === 'combined';
  const { advanceInvoiceStatus, beginInvoiceRun, reserveDeliveryCredit, transformInvoice, validateInvoiceDocument, prepareInvoiceDocument, deliverInvoice, pollAspVerdict, confirmAspVerdict } =
    pipelineSteps(local);
  // InvoiceStatus mirrors the stored status. Each upsert is a command and a visibility write, so (local steps)
  // it is written when the workflow is about to wait or end, not for the milliseconds-long states in between.
  let shown: InvoiceStatus | 'unknown' = 'unknown';
  const publish = () => {
    if (current === 'unknown' || current === shown) return;
    shown = current;
    upsertSearchAttributes([{ key: InvoiceStatusKey, value: current }]);
  };
  const show = (status: InvoiceStatus) => {
    current = status;
    explain();
    if (local) return;
    shown = status; // histories from before the patch: one upsert per step, as they were recorded
    upsertSearchAttributes([{ key: InvoiceStatusKey, value: status }]);
  };
  /** The current details as one plain line: the summary of the timer the run waits on (`explainWaits` runs). */
  const summary = () => {
    const line = currentDetails(invoiceId, surface, current, why, waitingAsp).replace(/\*\*/g, '');
    return { summary: line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line };
  };
  /** Waits for `fn`, at most `timeoutMs`; false when the time ran out. */
  const waitAtMost = (fn: () => boolean, timeoutMs: number) => (input.explainWaits ? condition(fn, timeoutMs, summary()) : condition(fn, timeoutMs));
  const wait = (fn: () => boolean, timeoutMs?: number) => (publish(), explain(), timeoutMs === undefined ? condition(fn) : waitAtMost(fn, timeoutMs));
  let run = 1;
  // With local steps the workflow names the status it expects (saves the store a read; a miss falls back to one).
  const advance = async (to: InvoiceStatus, reason: string | null = null) => {
    const expected = local && current !== 'unknown' ? { status: current, run } : undefined;
    const moved = (await advanceInvoiceStatus({ invoiceId, to, reason, ...(expected ? { expected } : {}) })).status;
    why = moved === to ? reason : null;
    show(moved);
  };
  const announce = (status: FireStatusWebhookInput['status'], reason: string | null) => fireStatusWebhook({ invoiceId, status, reason }, { local });
  const reject = async (reason: string) => {
    await advance('rejected', reason);
    await announce('rejected', reason);
  };

  const deleted = () => (explain('deleted: the invoice no longer exists (DELETEd); this run ended'), 'deleted' as const);

  if (input.reservedDelivered) {
    show('delivered');
    await announce('delivered', null);
    publish();
    explain('delivered with the reserved test TRN (validation and delivery skipped); nothing to wait for');
    return 'delivered';
  }

  try {
    // A fresh invoice is queued in run 1 by the API a moment ago: start with transform (which re-reads the status
    // and answers with where the invoice really is, should this task be a repeat).
    const start = local && input.fresh ? { status: 'queued' as const, run: 1, aspSubmissionId: null } : await beginInvoiceRun({ invoiceId });
    if (start.status === null) return deleted();
    run = start.run;
    show(start.status);
    let submissionId = start.aspSubmissionId;
    let renderedUuid: string | null = null; // the document this run's transform rendered

    /** validated, or blocked_no_credit after a top-up: charge the credit, hand over, announce delivered. */
    const creditThenDeliver = async () => {
      // Only live deliveries spend (runs with local steps skip the step in test and sandbox; it answers ok there anyway).
      const charged = local && input.mode !== 'live' ? { ok: true } : await reserveDeliveryCredit({ invoiceId });
      if (!charged.ok) {
        if (current !== 'blocked_no_credit') await advance('blocked_no_credit', 'no delivery credit left for this SME; a top-up resumes delivery, or retry');
        return;
      }
      let result: DeliveryResult;
      try {
        // ('combined': the step also creates the delivered event's webhook row)
        result = await deliverInvoice({ invoiceId, ...(combined ? { announce: newDeliveryOf() } : {}) });
      } catch (err) {
        // Refused for good (non-retryable) or still failing after a day of retries: the partner may retry.
        // (a local activity's failure arrives as the ApplicationFailure itself, not wrapped in an ActivityFailure)
        if (!(err instanceof ActivityFailure || err instanceof ApplicationFailure) || applicationFailure(err, DROPPED_WHEN_MISSING)) throw err;
        return reject(`delivery failed: ${(err.cause ?? err).message}`);
      }
      if (!result.delivered) return reject(result.reason);
      submissionId = result.submissionId;
      show('delivered');
      if (!combined) await announce('delivered', null);
      else if (result.webhook) await startWebhookChild(result.webhook, { invoiceId, status: 'delivered' });
    };

    /** queued -> transformed: render the PINT-AE XML; a body that cannot render rejects the invoice. */
    const transform = async () => {
      try {
        const documentUuid = uuid4();
        show(await transformInvoice({ invoiceId, documentUuid }));
        renderedUuid = documentUuid;
      } catch (err) {
        const failure = applicationFailure(err, 'transform_failed');
        if (!failure) throw err;
        await reject(failure.message);
      }
    };

    /** queued -> transformed -> validated in one step ('combined' runs); a failure of either rejects the invoice. */
    const prepare = async () => {
      try {
        const documentUuid = uuid4();
        const prepared = await prepareInvoiceDocument({ invoiceId, documentUuid });
        if (prepared.note) log.warn(prepared.note, { invoiceId });
        renderedUuid = documentUuid;
        show(prepared.status);
      } catch (err) {
        const failure = applicationFailure(err, 'transform_failed') ?? applicationFailure(err, 'validation_failed');
        if (!failure) throw err;
        if (failure.type === 'validation_failed') current = 'transformed'; // the step stored the XML before the rules refused it
        await reject(failure.message);
      }
    };

    /** transformed -> validated: PINT-AE rules; fatal findings reject the invoice with their rule ids. */
    const validate = async () => {
      try {
        // (the document's UUID lets the step use the XML its worker just rendered, when it is the same process)
        const validated = await validateInvoiceDocument({ invoiceId, ...(local ? { run } : {}), ...(local && renderedUuid ? { documentUuid: renderedUuid } : {}) });
        if (validated.note) log.warn(validated.note, { invoiceId });
        show(validated.status);
      } catch (err) {
        const failure = applicationFailure(err, 'validation_failed');
        if (!failure) throw err;
        await reject(failure.message);
      }
    };

    /** delivered -> acknowledged (the run ends) or rejected by the authority (null: the run goes on). */
    const settleWithAsp = async (): Promise<InvoiceWorkflowResult | null> => {
      const verdict = await awaitVerdict(submissionId);
      if (verdict.status === 'acknowledged') {
        await advance('acknowledged'); // Partner API: acknowledged collapses into delivered, no second webhook
        if (input.surface === 'tenant') await announce('acknowledged', null); // SPEC 6.2: tenants hear it
        publish();
        return 'acknowledged';
      }
      await reject(verdict.reason ?? 'rejected by the authority');
      return null;
    };

    /** A fresh run whose start the API believed failed (and so demoted the invoice): begin re-queues it. */
    const beginAgain = async (): Promise<boolean> => {
      const again = await beginInvoiceRun({ invoiceId });
      if (again.status === null) return false;
      run = again.run;
      show(again.status);
      return true;
    };

    /** A failure terminal waits: `retry` continues as a new run; a credit top-up resumes a blocked delivery. */
    const waitForRetryOrCredits = async () => {
      const woken = () => retryRequested || (current === 'blocked_no_credit' && creditsToppedUp);
      if (!input.explainWaits) await wait(woken);
      else while (!(await wait(woken, EXPLAINED_WAIT_MS)));
      if (retryRequested) {
        // A new run: its history starts clean and shows each pipeline run apart.
        const next = makeContinueAsNewFunc<typeof invoiceWorkflow>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
        const { fresh: _fresh, ...again } = input; // the new run resumes from the stored status (run 2+)
        await next(local ? { ...again, explainWaits: true } : input); // (a new run may take up newer behaviour)
      }
      creditsToppedUp = false;
      await creditThenDeliver();
    };

    for (;;) {
      // (a cast: `current` changes inside closures, which the compiler's narrowing cannot see)
      switch (current as InvoiceStatus | 'unknown') {
        case 'queued':
          await (combined ? prepare() : transform());
          break;
        case 'transformed':
          await validate();
          break;
        case 'validated':
          await creditThenDeliver();
          break;
        case 'delivered': {
          const ended = await settleWithAsp();
          if (ended) return ended;
          break;
        }
        case 'acknowledged':
          publish();
          return 'acknowledged';
        case 'draft':
          if (!(await beginAgain())) return deleted();
          break;
        case 'rejected':
        case 'blocked_no_credit':
          await waitForRetryOrCredits();
          break;
        default:
          throw ApplicationFailure.nonRetryable(`invoice ${invoiceId} is ${current}, which the pipeline cannot continue from`, 'unexpected_status');
      }
    }
  } catch (err) {
    // DELETE removes the invoice (and terminates this run); an activity that got there first ends the run quietly.
    if (applicationFailure(err, DROPPED_WHEN_MISSING)) return deleted();
    throw err;
  }

  /**
   * The ASP's verdict: a signal the evidence confirms, or after the fallback timer (and on an ops `retry` nudge) its
   * answer to a poll. A signal the evidence does not support changes nothing: the wait goes on to the same poll.
   */
  async function awaitVerdict(known: string | null): Promise<AspVerdict> {
    // (a fresh run that found its invoice already delivered, a repeated task, learns the hand-over's id here)
    const submissionId = known ?? (await beginInvoiceRun({ invoiceId })).aspSubmissionId;
    if (!submissionId) throw ApplicationFailure.nonRetryable(`invoice ${invoiceId} is delivered without an ASP submission id`, 'unexpected_status');
    let waitMs = input.ackFallbackMs;
    for (let poll = 1; ; poll++) {
      const pollAt = Date.now() + waitMs;
      waitingAsp = { submissionId, pollAt, waitMs };
      const decided = () => verdicts.has(submissionId) || retryRequested;
      // An ASP usually answers within a second: the search attribute (a command and a visibility write) says
      // delivered only when the verdict has not come in QUIET_WAIT_MS. (The current details say it at once.)
      const quiet = combined && poll === 1 ? Math.min(QUIET_WAIT_MS, waitMs) : 0;
      const heard = quiet > 0 && (explain(), await waitAtMost(decided, quiet));
      if (!heard && waitMs > quiet) await wait(decided, waitMs - quiet);
      // Each signal is checked against the evidence (or the ASP); a refused one leaves the rest of this wait to run.
      for (let claimed = verdicts.get(submissionId); claimed; claimed = verdicts.get(submissionId)) {
        verdicts.delete(submissionId);
        const confirmed = await confirmAspVerdict({ invoiceId, claimed });
        if (confirmed.status !== 'pending') return (waitingAsp = null), confirmed;
        const left = pollAt - Date.now();
        if (left > 0 && !retryRequested) await wait(decided, left);
      }
      retryRequested = false;
      const polled = await pollAspVerdict({ invoiceId, submissionId });
      if (polled.status !== 'pending') return (waitingAsp = null), polled;
      waitMs = input.ackPolling === 'asp' ? aspPollDelayMs(input.ackFallbackMs, poll) : Math.min(waitMs * 2, MAX_ACK_POLL_MS);
    }
  }
}

/** The ApplicationFailure behind an activity failure, or a local activity's own (optionally only of one type). */
function applicationFailure(err: unknown, type?: string): ApplicationFailure | undefined {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (!(cause instanceof ApplicationFailure)) return undefined;
  if (type && cause.type !== type) return undefined;
  return cause;
}

/**
 * The Web UI's current details (markdown): the status, its reason, and what the workflow waits for, e.g.
 * "rejected: buyer_trn_invalid: ...; waiting for a retry (POST .../retry or `einvoice ops retry <id>`)".
 */
function currentDetails(
  invoiceId: string,
  surface: InvoiceSurface,
  status: InvoiceStatus | 'unknown',
  reason: string | null,
  waitingAsp: { submissionId: string; pollAt: number; waitMs: number } | null,
  ending?: string,
): string {
  const retry = retryHint(surface, invoiceId);
  const line = ((): string => {
    if (ending) return ending;
    switch (status) {
      case 'unknown':
        return 'starting: reading the invoice';
      case 'draft':
        return 'draft; queueing it for a new pipeline run';
      case 'queued':
        return 'queued; rendering the PINT-AE XML';
      case 'transformed':
        return 'transformed; validating against the PINT-AE rules';
      case 'validated':
        return 'validated; reserving a delivery credit and handing over to the ASP';
      case 'delivered': {
        if (!waitingAsp) return 'delivered to the ASP; waiting for its acknowledgement';
        const at = new Date(waitingAsp.pollAt).toISOString().slice(11, 19);
        return `delivered (ASP submission ${waitingAsp.submissionId}); waiting for the ASP's acknowledgement (next poll in ${humanDuration(waitingAsp.waitMs)}, at ${at} UTC; a retry polls at once)`;
      }
      case 'acknowledged':
        return 'acknowledged by the authority; done';
      case 'rejected':
        return `rejected: ${reason ?? `(the reason is in the invoice's history)`}; waiting for a retry (${retry})`;
      case 'blocked_no_credit':
        return `blocked_no_credit: ${reason ?? 'no delivery credit left'}; waiting for a credit top-up (delivery resumes by itself) or a retry (${retry})`;
      default:
        return `${status}`;
    }
  })();
  return `**${line.replace(/^([a-z_]+)/, '$1**')}`;
}
