// `einvoice ops reconcile`: finds invoices whose stored status and workflow disagree and repairs them. MongoDB is
// the system of record; the repair always brings the workflow in line with the stored status, never the reverse.
//
// 1. Stored side: every invoice that should have a running workflow (queued, transformed, validated,
//    blocked_no_credit, delivered awaiting the acknowledgement; not held, not drafts), unchanged for the grace
//    period, with its workflow described in bounded batches:
//    - no running workflow (a crash between the status write and the start, a workflow terminated by hand, one
//      that failed): a new workflow starts and resumes from the stored status (nudgeOrRestartInvoiceWorkflow); a
//      delivered invoice's new run is nudged at once, so it polls the ASP (a verdict signalled while no workflow
//      ran was lost);
//    - a running workflow waiting on a failure (rejected, blocked_no_credit) while the invoice is back in the
//      pipeline (a retry whose signal never arrived): nudged with `retry`, it continues as new from the stored status;
//    - a running workflow whose `status` query answers something else: reported, not touched.
// 2. Temporal side: every running invoice workflow on our task queue whose invoice is
//    - deleted (archived in deleted_invoices): terminated, as DELETE would have;
//    - acknowledged (final) for longer than the grace period: terminated;
//    - unknown to this database (not archived either): reported only (a CLI pointed at the wrong MONGODB_URI must
//      not terminate every workflow).
// Drafts are left out: a Partner draft without a workflow is what the status writer records when a start fails; it
// waits for a retry (`ops stuck` lists it, `ops retry` submits it). Rejected invoices need no workflow either: a retry
// starts one.
import { Invoice } from '../db/models';
import {
  describeInvoiceWorkflows,
  nudgeOrRestartInvoiceWorkflow,
  runningInvoiceWorkflowIds,
  terminateInvoiceWorkflow,
  type InvoiceWorkflowView,
  type WorkflowInvoice,
} from '../temporal/client';
import { invoiceWorkflowId } from '../temporal/contract';
import { nonTerminalFilter } from './invoice-ops';

export type ReconcileFinding =
  | 'no_running_workflow'
  | 'workflow_waits_on_failure'
  | 'workflow_status_differs'
  | 'running_for_deleted_invoice'
  | 'running_for_acknowledged_invoice'
  | 'running_for_unknown_invoice';

export type ReconcileActionName = 'restarted' | 'restarted_and_polled' | 'nudged' | 'terminated' | 'reported' | 'failed';

export interface ReconcileAction {
  invoiceId: string;
  number: string | null;
  /** The stored status; null when the invoice is gone. */
  status: string | null;
  workflowId: string;
  workflow: Pick<InvoiceWorkflowView, 'state' | 'status'>;
  finding: ReconcileFinding;
  /** What was done; with --dry-run `would_<action>` (and `reported` as is). */
  action: ReconcileActionName | `would_${Exclude<ReconcileActionName, 'reported' | 'failed'>}`;
  error?: string;
}

export interface ReconcileOptions {
  dryRun: boolean;
  /** Only invoices (and workflows of invoices) unchanged for this long: a status write and its workflow start are not atomic. */
  olderThanMinutes: number;
  partnerId?: string;
  tenantId?: string;
  /** Invoices per batch (one database read, then at most `concurrency` Temporal calls at once). */
  batchSize?: number;
  concurrency?: number;
  onAction?: (action: ReconcileAction) => void;
  onProgress?: (message: string) => void;
}

export interface ReconcileSummary {
  dryRun: boolean;
  invoicesChecked: number;
  runningWorkflowsChecked: number;
  repaired: number;
  reported: number;
  failed: number;
}

type StoredRow = WorkflowInvoice & { updatedAt: Date; aspSubmissionId?: string | null };

const PIPELINE = ['queued', 'transformed', 'validated'];
const WAITING_ON_FAILURE = ['rejected', 'blocked_no_credit'];

export async function reconcileInvoices(opts: ReconcileOptions): Promise<ReconcileSummary> {
  const batchSize = opts.batchSize ?? 200;
  const before = new Date(Date.now() - opts.olderThanMinutes * 60_000);
  // --partner and --tenant narrow the check to that party's invoices (either, both or neither given).
  const owner = Object.fromEntries(Object.entries({ partnerId: opts.partnerId, tenantId: opts.tenantId }).filter(([, id]) => id));
  const summary: ReconcileSummary = { dryRun: opts.dryRun, invoicesChecked: 0, runningWorkflowsChecked: 0, repaired: 0, reported: 0, failed: 0 };
  const record = (a: ReconcileAction) => {
    if (a.action === 'reported') summary.reported++;
    else if (a.action === 'failed') summary.failed++;
    else summary.repaired++;
    opts.onAction?.(a);
  };
  const describe = (ids: string[]) => describeInvoiceWorkflows(ids, { concurrency: opts.concurrency });

  // 1. Stored side.
  const total = await Invoice.countDocuments({ ...nonTerminalFilter({ drafts: false }), ...owner, updatedAt: { $lt: before } });
  opts.onProgress?.(`${total} invoice(s) in queued..delivered to check against their workflows`);
  const cursor = Invoice.find({ ...nonTerminalFilter({ drafts: false }), ...owner, updatedAt: { $lt: before } }, { number: 1, sellerTrn: 1, status: 1, mode: 1, partnerId: 1, tenantId: 1, updatedAt: 1, aspSubmissionId: 1 })
    .sort({ updatedAt: 1 })
    .lean<StoredRow[]>()
    .cursor({ batchSize });
  let batch: StoredRow[] = [];
  const flush = async () => {
    const views = await describe(batch.map((r) => r._id));
    for (const inv of batch) {
      const wf = views.get(inv._id)!;
      const action = await repairStored(inv, wf, opts.dryRun);
      if (action) record(action);
    }
    summary.invoicesChecked += batch.length;
    batch = [];
    if (total > batchSize) opts.onProgress?.(`${summary.invoicesChecked}/${total} invoices checked, ${summary.repaired} repaired, ${summary.reported} reported, ${summary.failed} failed`);
  };
  for await (const row of cursor) {
    batch.push(row);
    if (batch.length >= batchSize) await flush();
  }
  if (batch.length) await flush();

  // 2. Temporal side.
  opts.onProgress?.('running invoice workflows: checking their invoices');
  let ids: string[] = [];
  const flushRunning = async () => {
    await checkRunning(ids, before, opts.dryRun, describe, record);
    summary.runningWorkflowsChecked += ids.length;
    ids = [];
    if (summary.runningWorkflowsChecked % (batchSize * 5) === 0) opts.onProgress?.(`${summary.runningWorkflowsChecked} running workflows checked`);
  };
  for await (const id of runningInvoiceWorkflowIds(owner)) {
    ids.push(id);
    if (ids.length >= batchSize) await flushRunning();
  }
  if (ids.length) await flushRunning();
  opts.onProgress?.(`done: ${summary.invoicesChecked} invoice(s) and ${summary.runningWorkflowsChecked} running workflow(s) checked`);
  return summary;
}

async function repairStored(inv: StoredRow, wf: InvoiceWorkflowView, dryRun: boolean): Promise<ReconcileAction | null> {
  const base = { invoiceId: inv._id, number: inv.number, status: inv.status, workflowId: wf.workflowId, workflow: { state: wf.state, status: wf.status } };
  if (wf.state !== 'running') {
    const polls = inv.status === 'delivered';
    if (dryRun) return { ...base, finding: 'no_running_workflow', action: polls ? 'would_restarted_and_polled' : 'would_restarted' };
    return attempt({ ...base, finding: 'no_running_workflow' }, async () => {
      const how = await nudgeOrRestartInvoiceWorkflow(inv);
      if (how === 'restarted' && polls) return (await nudgeOrRestartInvoiceWorkflow(inv)) === 'nudged' ? 'restarted_and_polled' : 'restarted';
      return how;
    });
  }
  if (wf.status === null || wf.status === inv.status) return null;
  if (WAITING_ON_FAILURE.includes(wf.status) && PIPELINE.includes(inv.status)) {
    if (dryRun) return { ...base, finding: 'workflow_waits_on_failure', action: 'would_nudged' };
    return attempt({ ...base, finding: 'workflow_waits_on_failure' }, () => nudgeOrRestartInvoiceWorkflow(inv));
  }
  return { ...base, finding: 'workflow_status_differs', action: 'reported' };
}

async function checkRunning(
  ids: string[],
  before: Date,
  dryRun: boolean,
  describe: (ids: string[]) => Promise<Map<string, InvoiceWorkflowView>>,
  record: (a: ReconcileAction) => void,
): Promise<void> {
  const stored = new Map((await Invoice.find({ _id: { $in: ids } }, { number: 1, status: 1, updatedAt: 1 }).lean()).map((r) => [r._id, r]));
  const missing = ids.filter((id) => !stored.has(id));
  const archived = new Map<string, { number?: string }>();
  if (missing.length) {
    const rows = await Invoice.db.collection('deleted_invoices').find({ _id: { $in: missing } } as never, { projection: { number: 1 } }).toArray();
    for (const r of rows) archived.set(String(r._id), { number: r.number as string | undefined });
  }
  const suspects = ids.filter((id) => {
    const inv = stored.get(id);
    return !inv || (inv.status === 'acknowledged' && new Date(inv.updatedAt as Date) < before);
  });
  if (!suspects.length) return;
  const views = await describe(suspects); // visibility trails: only a workflow still running is touched
  for (const id of suspects) {
    const wf = views.get(id)!;
    if (wf.state !== 'running') continue;
    const inv = stored.get(id);
    const base = { invoiceId: id, number: inv?.number ?? archived.get(id)?.number ?? null, status: inv?.status ?? null, workflowId: invoiceWorkflowId(id), workflow: { state: wf.state, status: wf.status } };
    if (!inv && !archived.has(id)) {
      record({ ...base, finding: 'running_for_unknown_invoice', action: 'reported' });
      continue;
    }
    const finding: ReconcileFinding = inv ? 'running_for_acknowledged_invoice' : 'running_for_deleted_invoice';
    const reason = inv ? 'reconcile: the invoice is acknowledged; nothing is left for this workflow' : 'reconcile: the invoice was deleted';
    if (dryRun) record({ ...base, finding, action: 'would_terminated' });
    else record(await attempt({ ...base, finding }, async () => (await terminateInvoiceWorkflow(id, reason), 'terminated' as const)));
  }
}

async function attempt(base: Omit<ReconcileAction, 'action'>, repair: () => Promise<ReconcileActionName>): Promise<ReconcileAction> {
  try {
    return { ...base, action: await repair() };
  } catch (err) {
    return { ...base, action: 'failed', error: (err as Error).message.split('\n')[0] };
  }
}
