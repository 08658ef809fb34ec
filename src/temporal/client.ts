// Every workflow start, signal and query from outside a workflow goes through this module: the API, the CLI and
// the worker (the simulated ASP's verdicts) share one client per process and one way to do each thing.
import { Client, Connection, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { SignalDefinition } from '@temporalio/common';
import { config } from '../config';
import {
  aspVerdictSignal,
  creditsAvailableSignal,
  HELD_INVOICE_WORKFLOW,
  INVOICE_WORKFLOW,
  invoiceSearchAttributes,
  invoiceStatusQuery,
  invoiceWorkflowId,
  retrySignal,
  WEBHOOK_DELIVERY_WORKFLOW,
  webhookDeliveryStart,
  type AspVerdict,
  type DeliveryToStart,
  type HeldInvoiceInput,
  type InvoiceFacts,
  type InvoiceMode,
  type InvoiceWorkflowInput,
} from './contract';
import { ownerIds, storedOwnerOf, surfaceOf } from '../domain/owner';
import { heldSummary, invoiceDetails, invoiceMemo, invoiceSummary, type InvoiceDisplay, type InvoiceDisplayFacts } from './invoice-display';

let clientPromise: Promise<Client> | undefined;
/** True when the client runs over the worker's connection, which we must not close and which can start eagerly. */
let borrowed = false;

/**
 * The worker process's client (signals, schedules, webhook deliveries) rides on the worker's own connection: one
 * per process. On that connection a workflow it starts on the worker's task queue can start eagerly: the server
 * hands its first workflow task back in the start's reply, and this worker runs it, with no trip through matching.
 */
export function useTemporalConnection(connection: NativeConnection): void {
  clientPromise = Promise.resolve(new Client({ connection, namespace: config().temporalNamespace }));
  borrowed = true;
}

/** Eager start on the worker's connection only: the client refuses it on any other (the API's, the CLI's). */
const eagerWhereLocal = (): { requestEagerStart?: true } => (borrowed ? { requestEagerStart: true } : {});

/** The process-wide Temporal client (the API starts and signals workflows with it). */
export function temporalClient(): Promise<Client> {
  clientPromise ??= (async () => {
    const connection = await Connection.connect({ address: config().temporalAddress, connectTimeout: 10_000 });
    return new Client({ connection, namespace: config().temporalNamespace });
  })();
  clientPromise.catch(() => (clientPromise = undefined));
  return clientPromise;
}

export async function closeTemporalClient(): Promise<void> {
  const pending = clientPromise;
  clientPromise = undefined;
  if (borrowed) return void (borrowed = false);
  if (pending) await (await pending).connection.close().catch(() => {});
}

/** Used by /readyz: true when the frontend answers for our namespace. */
export async function pingTemporal(): Promise<boolean> {
  try {
    const client = await temporalClient();
    await client.workflowService.describeNamespace({ namespace: config().temporalNamespace });
    return true;
  } catch {
    return false;
  }
}

// ---- Invoice workflows (id invoice-<invoiceId>) ----

export interface WorkflowInvoice extends InvoiceFacts {
  mode: InvoiceMode | string;
  /** Buyer, total and the owner's names for the Web UI (static summary, details, memo); read by the starter. */
  display?: InvoiceDisplay;
}

const workflowMode = (mode: string): InvoiceMode => (mode === 'live' || mode === 'sandbox' ? mode : 'test');

function displayFacts(inv: WorkflowInvoice, mode: InvoiceMode): InvoiceDisplayFacts {
  return {
    ...inv.display,
    invoiceId: inv._id,
    number: inv.number,
    sellerTrn: inv.sellerTrn,
    mode,
    ...partyIds(inv),
  };
}

/** The owner's surface and party ids as the Web UI's facts name them. */
function partyIds(inv: WorkflowInvoice): Pick<InvoiceDisplayFacts, 'surface' | 'partnerId' | 'tenantId'> {
  const { surface, partnerId, tenantId } = ownerIds(storedOwnerOf(inv));
  return { surface, partnerId, tenantId };
}

/** What the Web UI shows of an invoice's workflow from its start: summary, details and memo. */
function webUiStartOptions(facts: InvoiceDisplayFacts, summary = invoiceSummary(facts)) {
  return { staticSummary: summary, staticDetails: invoiceDetails(facts), memo: { ...invoiceMemo(facts), summary } };
}

/**
 * Starts the invoice's workflow with the search attributes support staff filter on (InvoiceStatus=queued tells
 * the workflow the invoice was just queued: it goes straight to its first step). Starting one that is already
 * running is not an error (a retried request, or a start whose reply was lost).
 */
export async function startInvoiceWorkflow(inv: WorkflowInvoice, opts: { reservedDelivered?: boolean } = {}): Promise<void> {
  const cfg = config();
  const mode = workflowMode(inv.mode);
  const input: InvoiceWorkflowInput = {
    invoiceId: inv._id,
    mode,
    ackFallbackMs: cfg.aspAckFallbackMs,
    ...(surfaceOf(storedOwnerOf(inv)) === 'tenant' ? { surface: 'tenant' as const } : {}),
    ...(opts.reservedDelivered ? { reservedDelivered: true } : {}),
  };
  const client = await temporalClient();
  try {
    await client.workflow.start(INVOICE_WORKFLOW, {
      taskQueue: cfg.temporalTaskQueue,
      workflowId: invoiceWorkflowId(inv._id),
      args: [input],
      typedSearchAttributes: invoiceSearchAttributes(inv, mode),
      ...webUiStartOptions(displayFacts(inv, mode)),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * A held invoice (pre-submit checks failed; it never enters the pipeline) recorded for the Web UI: a workflow
 * `invoice-<id>` of type heldInvoiceWorkflow, InvoiceStatus=held, that ends at once with the held reasons.
 * Already recorded is not an error.
 */
export async function recordHeldInvoice(inv: WorkflowInvoice, held: Omit<HeldInvoiceInput, 'invoiceId'>): Promise<void> {
  const mode = workflowMode(inv.mode);
  const facts = displayFacts(inv, mode);
  const input: HeldInvoiceInput = { invoiceId: inv._id, heldReason: held.heldReason, heldErrors: held.heldErrors };
  try {
    await (await temporalClient()).workflow.start(HELD_INVOICE_WORKFLOW, {
      taskQueue: config().temporalTaskQueue,
      workflowId: invoiceWorkflowId(inv._id),
      args: [input],
      typedSearchAttributes: invoiceSearchAttributes({ ...inv, status: 'held' }, mode),
      ...webUiStartOptions(facts, heldSummary(facts, held.heldReason)),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * A new pipeline run for an invoice the caller has already moved to queued: the waiting workflow gets the
 * `retry` signal and continues as new; when no workflow is running (it ended, or never started), a new one starts.
 */
export async function resumeInvoiceWorkflow(inv: WorkflowInvoice): Promise<'signalled' | 'started'> {
  if (await signalRetry(inv._id)) return 'signalled';
  await startInvoiceWorkflow(inv);
  return 'started';
}

/**
 * Support's restart of an invoice in the pipeline: a running workflow is nudged with `retry` (one waiting for
 * the ASP polls it at once); none running means it died, so a new one starts and resumes from the stored status.
 */
export async function nudgeOrRestartInvoiceWorkflow(inv: WorkflowInvoice): Promise<'nudged' | 'restarted'> {
  const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(inv._id));
  // Only "no such workflow" means not running; any other failure (Temporal unreachable, a timeout) is thrown,
  // rather than answered with a restart that hides it.
  const running = await handle.describe().then(
    (d) => d.status.name === 'RUNNING',
    (err: unknown) => {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    },
  );
  if (running && (await signalRetry(inv._id))) return 'nudged';
  await startInvoiceWorkflow(inv);
  return 'restarted';
}

/** Stops the invoice's workflow after a DELETE; a workflow that is not running is fine. */
export async function terminateInvoiceWorkflow(invoiceId: string, reason: string): Promise<void> {
  const client = await temporalClient();
  try {
    await client.workflow.getHandle(invoiceWorkflowId(invoiceId)).terminate(reason);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/** The ASP's verdict (acknowledged or rejected) about a delivered invoice, to its waiting workflow. */
export async function signalAspVerdict(invoiceId: string, verdict: AspVerdict): Promise<void> {
  const client = await temporalClient();
  await client.workflow.getHandle(invoiceWorkflowId(invoiceId)).signal(aspVerdictSignal, verdict);
}

/** False when no workflow of the invoice is running. */
function signalRetry(invoiceId: string): Promise<boolean> {
  return signalIfRunning(invoiceId, retrySignal);
}

/** Signals the invoice's workflow; false (not an error) when none is running: it ended or was terminated. */
async function signalIfRunning(invoiceId: string, signal: SignalDefinition): Promise<boolean> {
  const client = await temporalClient();
  try {
    await client.workflow.getHandle(invoiceWorkflowId(invoiceId)).signal(signal);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

// ---- Webhook delivery workflows (id webhook-<deliveryId>) ----

/**
 * Starts the durable delivery of a row just created (announcements from the worker, replays from the API and the
 * CLI). eagerlyStarted: this worker took its first workflow task from the start's reply.
 */
export async function startWebhookDelivery(delivery: DeliveryToStart): Promise<{ eagerlyStarted: boolean }> {
  const client = await temporalClient();
  const started = await client.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, { taskQueue: config().temporalTaskQueue, ...webhookDeliveryStart(delivery), ...eagerWhereLocal() });
  return { eagerlyStarted: started.eagerlyStarted };
}

// ---- Credits ----

/**
 * A top-up reached the invoice's owner: a blocked_no_credit workflow tries its credit and delivery again.
 * False when no workflow of the invoice is running (it ended or was terminated): not an error, nothing waits.
 */
export function signalCreditsAvailable(invoiceId: string): Promise<boolean> {
  return signalIfRunning(invoiceId, creditsAvailableSignal);
}

// ---- Inspection for the ops CLI (read-only: describe, query, list) ----

/** A workflow's execution status as the CLI prints it; `not_found` when Temporal has no such workflow (never started, or past retention). */
export type InvoiceWorkflowState = 'running' | 'completed' | 'failed' | 'canceled' | 'terminated' | 'continued_as_new' | 'timed_out' | 'not_found' | 'unknown';

export interface InvoiceWorkflowView {
  workflowId: string;
  state: InvoiceWorkflowState;
  /** The `status` query's answer (running workflows only); null when not running or no worker answered in time. */
  status: string | null;
  /** When the latest run closed (not running). */
  closedAt?: string;
  /** Why `status` is null although the workflow runs. */
  note?: string;
}

/** Temporal calls in flight at once: a page of 25 (describes, or status queries) in one round, not four in series. */
const DESCRIBE_LANES = 25;

export interface DescribeOptions {
  /** Temporal calls in flight at once (default DESCRIBE_LANES). */
  concurrency?: number;
  /** Deadline of one `status` query (default 5 s); after one times out (no worker polls) the rest are skipped. */
  queryTimeoutMs?: number;
  /** Called after each workflow is described. */
  onProgress?: (done: number, total: number) => void;
}

/** A running workflow's `status` query answer; after one goes unanswered (no worker polls) the rest are skipped. */
function statusQuerier(client: Client, queryTimeoutMs: number) {
  let noWorker = false;
  return async (workflowId: string): Promise<Pick<InvoiceWorkflowView, 'status' | 'note'>> => {
    if (noWorker) return { status: null, note: 'status query skipped: an earlier one was not answered (no worker polling?)' };
    try {
      return { status: await client.withDeadline(Date.now() + queryTimeoutMs, () => client.workflow.getHandle(workflowId).query(invoiceStatusQuery)) };
    } catch (err) {
      noWorker = true;
      return { status: null, note: `status query not answered: ${(err as Error).message.split('\n')[0]}` };
    }
  };
}

/** Calls `fn` on each item, at most `lanes` in flight. */
async function inLanes<T>(items: readonly T[], lanes: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

/**
 * Each invoice's workflow: its state (describe) and, when running, what its `status` query answers. At most
 * `concurrency` calls in flight. A transport error (Temporal away) throws: callers must not mistake it for "not found".
 */
export async function describeInvoiceWorkflows(invoiceIds: readonly string[], opts: DescribeOptions = {}): Promise<Map<string, InvoiceWorkflowView>> {
  const client = await temporalClient();
  const queryStatus = statusQuerier(client, opts.queryTimeoutMs ?? 5_000);
  const views = new Map<string, InvoiceWorkflowView>();
  const describeOne = async (invoiceId: string): Promise<InvoiceWorkflowView> => {
    const workflowId = invoiceWorkflowId(invoiceId);
    let description;
    try {
      description = await client.workflow.getHandle(workflowId).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return { workflowId, state: 'not_found', status: null };
      throw err;
    }
    const state = WORKFLOW_STATES[description.status.name] ?? 'unknown';
    if (state !== 'running') return { workflowId, state, status: null, ...(description.closeTime ? { closedAt: description.closeTime.toISOString() } : {}) };
    return { workflowId, state, ...(await queryStatus(workflowId)) };
  };
  let done = 0;
  await inLanes(invoiceIds, opts.concurrency ?? DESCRIBE_LANES, async (invoiceId) => {
    views.set(invoiceId, await describeOne(invoiceId));
    opts.onProgress?.(++done, invoiceIds.length);
  });
  return views;
}

/** A string literal of Temporal's visibility query language. */
const quoteVisibility = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Workflow ids per visibility query (`WorkflowId IN (...)`). */
const VISIBILITY_IDS_PER_QUERY = 100;

/**
 * As describeInvoiceWorkflows, for a listing (`ops stuck`): the states come from the visibility store, one query
 * per 100 invoices, instead of one describe each; a running workflow is still asked its `status`. Visibility trails
 * the workflows by a moment, so a workflow started or closed within it shows its previous state (or not_found):
 * what acts on a state (`ops retry`, reconcile) describes.
 */
export async function listInvoiceWorkflows(invoiceIds: readonly string[], opts: DescribeOptions = {}): Promise<Map<string, InvoiceWorkflowView>> {
  const client = await temporalClient();
  const queryStatus = statusQuerier(client, opts.queryTimeoutMs ?? 5_000);
  const latest = new Map<string, { state: InvoiceWorkflowState; startTime: number; closeTime?: Date }>();
  for (let i = 0; i < invoiceIds.length; i += VISIBILITY_IDS_PER_QUERY) {
    const ids = invoiceIds.slice(i, i + VISIBILITY_IDS_PER_QUERY).map(invoiceWorkflowId);
    for await (const wf of client.workflow.list({ query: `WorkflowId IN (${ids.map(quoteVisibility).join(', ')})` })) {
      // One row per run (a retry continues as new): the running one, or else the latest, is the workflow's state.
      const state = WORKFLOW_STATES[wf.status.name] ?? 'unknown';
      const seen = latest.get(wf.workflowId);
      const startTime = wf.startTime.getTime();
      if (!seen || (seen.state !== 'running' && (state === 'running' || startTime > seen.startTime))) latest.set(wf.workflowId, { state, startTime, closeTime: wf.closeTime });
    }
  }
  const views = new Map<string, InvoiceWorkflowView>();
  let done = 0;
  await inLanes(invoiceIds, opts.concurrency ?? DESCRIBE_LANES, async (invoiceId) => {
    const workflowId = invoiceWorkflowId(invoiceId);
    const seen = latest.get(workflowId);
    if (!seen) views.set(invoiceId, { workflowId, state: 'not_found', status: null });
    else if (seen.state !== 'running') views.set(invoiceId, { workflowId, state: seen.state, status: null, ...(seen.closeTime ? { closedAt: seen.closeTime.toISOString() } : {}) });
    else views.set(invoiceId, { workflowId, state: 'running', ...(await queryStatus(workflowId)) });
    opts.onProgress?.(++done, invoiceIds.length);
  });
  return views;
}

const WORKFLOW_STATES: Record<string, InvoiceWorkflowState> = {
  RUNNING: 'running',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'canceled',
  TERMINATED: 'terminated',
  CONTINUED_AS_NEW: 'continued_as_new',
  TIMED_OUT: 'timed_out',
};

/**
 * The invoice ids of the invoice workflows the visibility store lists as running on our task queue (optionally
 * of one partner or tenant). Visibility trails the workflows by a moment: confirm with describeInvoiceWorkflows.
 */
export async function* runningInvoiceWorkflowIds(filter: { partnerId?: string; tenantId?: string } = {}): AsyncGenerator<string> {
  const client = await temporalClient();
  const clauses = [`WorkflowType = ${quoteVisibility(INVOICE_WORKFLOW)}`, `ExecutionStatus = 'Running'`, `TaskQueue = ${quoteVisibility(config().temporalTaskQueue)}`];
  if (filter.partnerId) clauses.push(`PartnerId = ${quoteVisibility(filter.partnerId)}`);
  if (filter.tenantId) clauses.push(`TenantId = ${quoteVisibility(filter.tenantId)}`);
  const prefix = invoiceWorkflowId('');
  for await (const wf of client.workflow.list({ query: clauses.join(' AND ') })) {
    if (wf.workflowId.startsWith(prefix)) yield wf.workflowId.slice(prefix.length);
  }
}
