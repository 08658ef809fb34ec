// Every workflow start, signal and query from outside a workflow goes through this module: the API, the CLI and
// the worker (the simulated ASP's verdicts) share one client per process and one way to do each thing.
import { Client, Connection, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type ConnectionLike } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import { config } from '../config';
import {
  acknowledgedSignal,
  creditsAvailableSignal,
  INVOICE_WORKFLOW,
  invoiceSearchAttributes,
  invoiceWorkflowId,
  retrySignal,
  WEBHOOK_DELIVERY_WORKFLOW,
  webhookDeliveryStart,
  type AspVerdict,
  type DeliveryToStart,
  type InvoiceFacts,
  type InvoiceMode,
  type InvoiceWorkflowInput,
} from './contract';

let clientPromise: Promise<Client> | undefined;
/** True when the client runs over a connection someone else owns (the worker's), which we must not close. */
let borrowed = false;

/** The worker process's client (signals, schedules) rides on the worker's own connection: one per process. */
export function useTemporalConnection(connection: ConnectionLike): void {
  clientPromise = Promise.resolve(new Client({ connection, namespace: config().temporalNamespace }));
  borrowed = true;
}

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
}

/**
 * Starts the invoice's workflow with the search attributes support staff filter on. Starting one that is
 * already running is not an error (a retried request, or a start whose reply was lost).
 */
export async function startInvoiceWorkflow(inv: WorkflowInvoice, opts: { reservedDelivered?: boolean; fresh?: boolean } = {}): Promise<void> {
  const cfg = config();
  const mode: InvoiceMode = inv.mode === 'live' || inv.mode === 'sandbox' ? inv.mode : 'test';
  const input: InvoiceWorkflowInput = {
    invoiceId: inv._id,
    mode,
    ackFallbackMs: cfg.aspAckFallbackMs,
    steps: 'local',
    ackPolling: 'asp',
    ...(inv.tenantId ? { surface: 'tenant' as const } : {}),
    ...(opts.reservedDelivered ? { reservedDelivered: true } : {}),
    ...(opts.fresh ? { fresh: true } : {}),
  };
  const client = await temporalClient();
  try {
    await client.workflow.start(INVOICE_WORKFLOW, {
      taskQueue: cfg.temporalTaskQueue,
      workflowId: invoiceWorkflowId(inv._id),
      args: [input],
      typedSearchAttributes: invoiceSearchAttributes(inv, mode),
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
  const running = await handle.describe().then(
    (d) => d.status.name === 'RUNNING',
    () => false,
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

/** The ASP's verdict about a delivered invoice, to its waiting workflow. */
export async function signalAspVerdict(invoiceId: string, verdict: AspVerdict): Promise<void> {
  const client = await temporalClient();
  await client.workflow.getHandle(invoiceWorkflowId(invoiceId)).signal(acknowledgedSignal, verdict);
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

/** Starts the durable delivery of a row just created (replays from the API and the CLI). */
export async function startWebhookDelivery(delivery: DeliveryToStart): Promise<void> {
  const client = await temporalClient();
  await client.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, { taskQueue: config().temporalTaskQueue, ...webhookDeliveryStart(delivery) });
}

// ---- Credits ----

/**
 * A top-up reached the invoice's owner: a blocked_no_credit workflow tries its credit and delivery again.
 * False when no workflow of the invoice is running (it ended or was terminated): not an error, nothing waits.
 */
export function signalCreditsAvailable(invoiceId: string): Promise<boolean> {
  return signalIfRunning(invoiceId, creditsAvailableSignal);
}
