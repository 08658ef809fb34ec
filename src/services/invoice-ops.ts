// Support operations on invoices (DESIGN runtime flow 5): restart stuck or failed runs, list stuck invoices,
// find invoices by number. (Reconciling stored statuses with workflows: invoice-reconcile.ts.)
// No owner and no rate limit: these are for operators, who see every invoice.
import { Invoice, type InvoiceStatus } from '../db/models';
import { serviceErrors } from '../domain/errors';
import { ownerIds, storedOwnerOf } from '../domain/owner';
import { invoiceWorkflowId } from '../temporal/contract';
import { requeue, RETRYABLE } from './invoices-lifecycle';
import { describeInvoiceWorkflows, listInvoiceWorkflows, nudgeOrRestartInvoiceWorkflow, resumeInvoiceWorkflow, type InvoiceWorkflowView, type WorkflowInvoice } from '../temporal/client';


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
  if (!inv) throw serviceErrors.notFound(`no invoice ${invoiceId}`);
  if (inv.heldReason) throw serviceErrors.conflict('invoice_held', `invoice ${invoiceId} is held (${inv.heldReason}): the partner must DELETE it and POST a corrected body`);
  const status = inv.status as InvoiceStatus;
  if (RETRYABLE.includes(status)) {
    await requeue(inv._id);
    const how = await resumeInvoiceWorkflow({ ...inv, status: 'queued' });
    return { invoiceId, status: 'queued', action: how === 'signalled' ? 'requeued_and_signalled' : 'requeued_and_started' };
  }
  if (status === 'acknowledged') throw serviceErrors.conflict('invalid_state_transition', `invoice ${invoiceId} is acknowledged: nothing to retry`);
  return { invoiceId, status, action: await nudgeOrRestartInvoiceWorkflow(inv) };
}

export interface StuckInvoice {
  invoiceId: string;
  number: string;
  sellerTrn: string;
  status: string;
  reason: string | null;
  partnerId: string | null;
  tenantId: string | null;
  mode: string;
  updatedAt: string;
  minutesInStatus: number;
  workflowId: string;
  /** What Temporal says: running (and the status its query answers), completed, terminated, not_found, ... */
  workflow: InvoiceWorkflowView;
}

export interface StuckOptions {
  /** At most this many invoices, oldest first (default 1000). */
  limit?: number;
  /** Progress of the Temporal look-ups (a status query per running workflow). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Invoices in a non-terminal status unchanged for longer than `minutes`, oldest first, each with its workflow's
 * state: Partner drafts (their automatic start failed; held drafts excluded), queued, transformed, validated,
 * blocked_no_credit, and delivered awaiting the acknowledgement.
 */
export async function stuckInvoices(minutes: number, opts: StuckOptions = {}, now = new Date()): Promise<StuckInvoice[]> {
  const before = new Date(now.getTime() - minutes * 60_000);
  const rows = await Invoice.find({ ...nonTerminalFilter(), updatedAt: { $lt: before } }, { number: 1, sellerTrn: 1, status: 1, reason: 1, partnerId: 1, tenantId: 1, mode: 1, updatedAt: 1 })
    .sort({ updatedAt: 1 })
    .limit(opts.limit ?? 1000)
    .lean();
  // A listing: the states come from Temporal's visibility store (one query per 100 invoices), not a describe each.
  const workflows = await listInvoiceWorkflows(
    rows.map((r) => r._id),
    { onProgress: opts.onProgress },
  );
  return rows.map((r) => ({
    invoiceId: r._id,
    number: r.number,
    sellerTrn: r.sellerTrn,
    status: r.status,
    reason: r.reason ?? null,
    partnerId: r.partnerId ?? null,
    tenantId: r.tenantId ?? null,
    mode: r.mode,
    updatedAt: new Date(r.updatedAt as Date).toISOString(),
    minutesInStatus: Math.floor((now.getTime() - new Date(r.updatedAt as Date).getTime()) / 60_000),
    workflowId: invoiceWorkflowId(r._id),
    workflow: workflows.get(r._id)!,
  }));
}

/**
 * Invoices that should have a workflow moving them on: queued, transformed, validated, blocked_no_credit (waits
 * for a top-up or retry), delivered with an ASP hand-over (waits for the acknowledgement; a reserved-TRN invoice
 * is delivered with none and nothing waits), and Partner drafts that are not held (their automatic start failed).
 * A Tenant API draft rests until the tenant submits it, so it is never stuck.
 *
 * On listStatus (a held draft lists as `held`), which the {listStatus, updatedAt} index orders by age: each status
 * is one walk of that index, and only the delivered and draft walks read a field outside it.
 */
export function nonTerminalFilter(opts: { drafts?: boolean } = {}) {
  const moving = ['queued', 'transformed', 'validated', 'blocked_no_credit'] as const;
  return {
    $or: [
      { listStatus: { $in: moving } },
      { listStatus: 'delivered' as const, aspSubmissionId: { $ne: null } },
      ...(opts.drafts === false ? [] : [{ listStatus: 'draft' as const, tenantId: null }]),
    ],
  };
}

export interface FoundInvoice {
  invoiceId: string;
  number: string;
  sellerTrn: string;
  surface: 'partner' | 'tenant';
  partnerId: string | null;
  smeId: string | null;
  tenantId: string | null;
  mode: string;
  status: string;
  heldReason: string | null;
  reason: string | null;
  run: number;
  createdAt: string;
  updatedAt: string;
  workflowId: string;
  workflow: InvoiceWorkflowView;
  /** Where support finds the workflow in the Temporal Web UI. */
  webUi: string;
}

/**
 * The invoices with this number (optionally of this seller TRN), both surfaces, newest first. The number is
 * unique per SME and year (Partner) or per tenant and mode (Tenant), so several may share it.
 */
export async function findInvoices(query: { number: string; trn?: string }, opts: { webUiUrl?: string; namespace: string; limit?: number }): Promise<FoundInvoice[]> {
  const filter = { number: query.number, ...(query.trn ? { sellerTrn: query.trn } : {}) };
  const rows = await Invoice.find(filter, { number: 1, sellerTrn: 1, partnerId: 1, smeId: 1, tenantId: 1, mode: 1, status: 1, heldReason: 1, reason: 1, run: 1, createdAt: 1, updatedAt: 1 })
    .sort({ createdAt: -1 })
    .limit(opts.limit ?? 100)
    .lean();
  const workflows = await describeInvoiceWorkflows(rows.map((r) => r._id));
  return rows.map((r) => {
    const workflowId = invoiceWorkflowId(r._id);
    return {
      invoiceId: r._id,
      number: r.number,
      sellerTrn: r.sellerTrn,
      ...ownerIds(storedOwnerOf(r)),
      mode: r.mode,
      status: r.status,
      heldReason: r.heldReason ?? null,
      reason: r.reason ?? null,
      run: r.run ?? 1,
      createdAt: new Date(r.createdAt as Date).toISOString(),
      updatedAt: new Date(r.updatedAt as Date).toISOString(),
      workflowId,
      workflow: workflows.get(r._id)!,
      webUi: opts.webUiUrl
        ? `${opts.webUiUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(opts.namespace)}/workflows/${encodeURIComponent(workflowId)}`
        : `Temporal Web UI, namespace ${opts.namespace}: WorkflowId = '${workflowId}' (or InvoiceNumber = '${r.number}' AND SellerTrn = '${r.sellerTrn}')`,
    };
  });
}
