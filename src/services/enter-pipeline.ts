// How an invoice enters the pipeline, the one way for both surfaces: a Partner API create (alone or in a bulk
// batch), a Tenant API submit or credit note, and a retry of either. The store already says queued; the workflow
// starts (or, on a retry, is told to go on). A start that fails (Temporal away) sends the invoice back to draft
// with a reason telling the caller how to submit it again, so no invoice sits in queued without a workflow.
import { logger } from '../logger';
import { resumeInvoiceWorkflow, startInvoiceWorkflow, type WorkflowInvoice } from '../temporal/client';
import { demoteToDraft } from './invoice-status-writer';

export interface PipelineEntry {
  /** The workflow started (or was told to go on). */
  started: boolean;
  /** Where the invoice stands: queued, or draft when the start failed (queued still if the workflow moved it first). */
  status: 'queued' | 'draft';
}

export interface EntryOptions {
  /** The history's reason when the start fails: what the caller does to submit the invoice again. */
  ifNotStarted: string;
  /**
   * A retry's run (the one it queued): its workflow, if still running (waiting on a failure), is signalled, else
   * a new one starts. Absent: a first submission, run 1.
   */
  retryRun?: number;
}

export async function enterPipeline(inv: Omit<WorkflowInvoice, 'status'>, opts: EntryOptions): Promise<PipelineEntry> {
  const run = opts.retryRun ?? 1;
  try {
    if (opts.retryRun === undefined) await startInvoiceWorkflow({ ...inv, status: 'queued' });
    else await resumeInvoiceWorkflow({ ...inv, status: 'queued' });
    return { started: true, status: 'queued' };
  } catch (err) {
    logger.error({ err, invoiceId: inv._id, reason: opts.ifNotStarted }, 'the pipeline did not start; the invoice is left as a draft');
    return { started: false, status: await demoteToDraft(inv._id, run, opts.ifNotStarted) };
  }
}
