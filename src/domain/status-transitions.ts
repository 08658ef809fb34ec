// Forward-only invoice statuses (SPEC 3.1). Pure: the activity that persists a transition asks this module
// which current statuses may move to the target, and the database update is conditioned on them.
import type { InvoiceStatus } from '../db/models/invoice';

/** For each target status, the statuses it may be reached from within one pipeline run. */
const PREDECESSORS: Record<InvoiceStatus, readonly InvoiceStatus[]> = {
  draft: [],
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

export const SUCCESS_TERMINALS: readonly InvoiceStatus[] = ['delivered', 'acknowledged'];
export const FAILURE_TERMINALS: readonly InvoiceStatus[] = ['rejected', 'blocked_no_credit'];

export function predecessorsOf(to: InvoiceStatus): readonly InvoiceStatus[] {
  return PREDECESSORS[to];
}

export function canTransition(from: InvoiceStatus, to: InvoiceStatus): boolean {
  return PREDECESSORS[to].includes(from);
}

/** Moving to queued from a failure terminal begins a new pipeline run. */
export function startsNewRun(from: InvoiceStatus, to: InvoiceStatus): boolean {
  return to === 'queued' && FAILURE_TERMINALS.includes(from);
}
