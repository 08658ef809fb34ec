// Support operations on invoices (DESIGN runtime flow 5): restart stuck or failed runs, list stuck invoices.
// No owner and no rate limit: these are for operators, who see every invoice.
import { Invoice, type InvoiceStatus } from '../db/models';
import { invoiceWorkflowId } from '../temporal/contract';
import { requeue, RETRYABLE } from './invoices-lifecycle';
import { nudgeOrRestartInvoiceWorkflow, resumeInvoiceWorkflow, type WorkflowInvoice } from '../temporal/client';

export class OpsError extends Error {}

/** Statuses the pipeline passes through on its own; an invoice sitting in one for long is stuck. */
const IN_FLIGHT: readonly InvoiceStatus[] = ['draft', 'queued', 'transformed', 'validated'];

export interface OpsRetryResult {
  invoiceId: string;
  status: string;
  action: 'requeued_and_signalled' | 'requeued_and_started' | 'nudged' | 'restarted';
}

/**
 * Failed (or draft): a new run, as the API's retry does. In the pipeline: a running workflow is nudged with
 * `retry` (one waiting for the ASP polls it at once); no running workflow means it died, so a new one starts
 * and resumes from the persisted status.
 */
export async function opsRetry(invoiceId: string): Promise<OpsRetryResult> {
  const inv = await Invoice.findById(invoiceId, { number: 1, status: 1, sellerTrn: 1, mode: 1, partnerId: 1, heldReason: 1 }).lean<WorkflowInvoice & { heldReason?: string | null }>();
  if (!inv) throw new OpsError(`no invoice ${invoiceId}`);
  if (inv.heldReason) throw new OpsError(`invoice ${invoiceId} is held (${inv.heldReason}): the partner must DELETE it and POST a corrected body`);
  const status = inv.status as InvoiceStatus;
  if (RETRYABLE.includes(status)) {
    await requeue(inv._id);
    const how = await resumeInvoiceWorkflow({ ...inv, status: 'queued' });
    return { invoiceId, status: 'queued', action: how === 'signalled' ? 'requeued_and_signalled' : 'requeued_and_started' };
  }
  if (status === 'acknowledged') throw new OpsError(`invoice ${invoiceId} is acknowledged: nothing to retry`);
  return { invoiceId, status, action: await nudgeOrRestartInvoiceWorkflow(inv) };
}

export interface StuckInvoice {
  invoiceId: string;
  number: string;
  status: string;
  partnerId: string | null;
  tenantId: string | null;
  mode: string;
  updatedAt: string;
  minutesInStatus: number;
  workflowId: string;
}

/** Invoices in an in-flight status (held drafts excluded) unchanged for more than `minutes`, oldest first. */
export async function stuckInvoices(minutes: number, now = new Date()): Promise<StuckInvoice[]> {
  const before = new Date(now.getTime() - minutes * 60_000);
  // A Tenant API draft rests until the tenant submits it: stuck means a Partner draft (its automatic start failed).
  const filter = { status: { $in: IN_FLIGHT }, updatedAt: { $lt: before }, heldReason: null, $or: [{ status: { $ne: 'draft' as const } }, { tenantId: null }] };
  const rows = await Invoice.find(filter, { number: 1, status: 1, partnerId: 1, tenantId: 1, mode: 1, updatedAt: 1 })
    .sort({ updatedAt: 1 })
    .limit(1000)
    .lean();
  return rows.map((r) => ({
    invoiceId: r._id,
    number: r.number,
    status: r.status,
    partnerId: r.partnerId ?? null,
    tenantId: r.tenantId ?? null,
    mode: r.mode,
    updatedAt: new Date(r.updatedAt as Date).toISOString(),
    minutesInStatus: Math.floor((now.getTime() - new Date(r.updatedAt as Date).getTime()) / 60_000),
    workflowId: invoiceWorkflowId(r._id),
  }));
}
