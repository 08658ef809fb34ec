// Invoice statuses and the transitions between them (SPEC 3.1). Pure: the one writer of statuses
// (src/services/invoice-status-writer.ts) asks this table which current statuses may move to the target, and
// its database update is conditioned on them.

export const INVOICE_STATUSES = ['draft', 'queued', 'transformed', 'validated', 'blocked_no_credit', 'delivered', 'acknowledged', 'rejected'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** For each target status, the statuses it may be reached from within one pipeline run. */
const PREDECESSORS: Record<InvoiceStatus, readonly InvoiceStatus[]> = {
  // The automatic start (or a retry's) could not reach the pipeline: the invoice waits as a draft for a retry.
  draft: ['queued'],
  // A retry starts a new run from a failure terminal; an automatic start that crashed leaves a draft.
  queued: ['draft', 'rejected', 'blocked_no_credit'],
  transformed: ['queued'],
  validated: ['transformed'],
  blocked_no_credit: ['validated'],
  // draft -> delivered: the reserved test TRN skips validation and delivery (SPEC 3.1).
  delivered: ['validated', 'blocked_no_credit', 'draft'],
  acknowledged: ['delivered'],
  rejected: ['queued', 'transformed', 'validated', 'blocked_no_credit', 'delivered'],
};

const FAILURE_TERMINALS: readonly InvoiceStatus[] = ['rejected', 'blocked_no_credit'];

export function canTransition(from: InvoiceStatus, to: InvoiceStatus): boolean {
  return PREDECESSORS[to].includes(from);
}

/** Moving to queued from a failure terminal begins a new pipeline run. */
export function startsNewRun(from: InvoiceStatus, to: InvoiceStatus): boolean {
  return to === 'queued' && FAILURE_TERMINALS.includes(from);
}
