import { defineQuery, defineSignal } from '@temporalio/workflow';

// Messages an invoice workflow understands. Declared apart from the workflow so the API, the simulated ASP
// and the CLI can send them without importing workflow code.

/** The ASP's answer about a delivered document (SPEC 3.1: delivered -> acknowledged, or rejected by the authority). */
export interface AspVerdict {
  /** Which hand-over this answers: an answer to an earlier run's delivery is ignored. */
  submissionId: string;
  status: 'acknowledged' | 'rejected';
  reason?: string | null;
}

/** A failure terminal (rejected, blocked_no_credit) starts a new pipeline run; while waiting for the ASP, poll it now. */
export const retrySignal = defineSignal('retry');
export const acknowledgedSignal = defineSignal<[AspVerdict]>('acknowledged');
/** The SME's credit was topped up: a blocked_no_credit invoice tries its delivery again within the same run. */
export const creditsAvailableSignal = defineSignal('creditsAvailable');
/** The status the running workflow last persisted (for the CLI and the Web UI's query tab). */
export const invoiceStatusQuery = defineQuery<string>('status');
