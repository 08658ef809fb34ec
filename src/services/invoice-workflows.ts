// The API's side of the invoice workflows: start, nudge, stop. Workflow ids are `invoice-<invoiceId>`.
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { config } from '../config';
import { temporalClient } from '../temporal/client';
import { invoiceWorkflowId } from '../temporal/workflow-ids';
import type { InvoiceStatus } from '../db/models/invoice';
import type { InvoiceWorkflowInput, invoiceWorkflow } from '../../workflows/invoice';
import { retrySignal } from '../../workflows/invoice-signals';
import { InvoiceNumberKey, InvoiceStatusKey, ModeKey, PartnerIdKey, SellerTrnKey } from '../../workflows/search-attributes';

export interface WorkflowInvoice {
  _id: string;
  number: string;
  sellerTrn: string;
  mode: 'test' | 'live' | string;
  partnerId: string;
  status: InvoiceStatus | string;
}

/**
 * Starts the invoice's workflow with the search attributes support staff filter on. Starting one that is
 * already running is not an error (a retried request, or a start whose reply was lost).
 */
export async function startInvoiceWorkflow(inv: WorkflowInvoice, opts: { reservedDelivered?: boolean; fresh?: boolean } = {}): Promise<void> {
  const cfg = config();
  const mode = inv.mode === 'live' ? 'live' : 'test';
  const input: InvoiceWorkflowInput = {
    invoiceId: inv._id,
    mode,
    ackFallbackMs: cfg.aspAckFallbackMs,
    steps: 'local',
    ...(opts.reservedDelivered ? { reservedDelivered: true } : {}),
    ...(opts.fresh ? { fresh: true } : {}),
  };
  const client = await temporalClient();
  try {
    await client.workflow.start<typeof invoiceWorkflow>('invoiceWorkflow', {
      taskQueue: cfg.temporalTaskQueue,
      workflowId: invoiceWorkflowId(inv._id),
      args: [input],
      typedSearchAttributes: [
        { key: InvoiceStatusKey, value: inv.status },
        { key: InvoiceNumberKey, value: inv.number },
        { key: SellerTrnKey, value: inv.sellerTrn },
        { key: ModeKey, value: mode },
        { key: PartnerIdKey, value: inv.partnerId },
      ],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * A new pipeline run for an invoice the caller has already moved to queued: the waiting workflow gets the
 * `retry` signal and continues as new; when no workflow is running (it ended, or never started), a new one starts.
 * Returns which of the two happened.
 */
export async function resumeInvoiceWorkflow(inv: WorkflowInvoice): Promise<'signalled' | 'started'> {
  const client = await temporalClient();
  try {
    await client.workflow.getHandle(invoiceWorkflowId(inv._id)).signal(retrySignal);
    return 'signalled';
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  await startInvoiceWorkflow(inv);
  return 'started';
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
