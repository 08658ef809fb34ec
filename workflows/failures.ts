import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/** The ApplicationFailure behind an activity failure, or a local activity's own (optionally only of one type). */
export function applicationFailure(err: unknown, type?: string): ApplicationFailure | undefined {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (!(cause instanceof ApplicationFailure)) return undefined;
  if (type && cause.type !== type) return undefined;
  return cause;
}

/** The activities' failure when the invoice no longer exists (DELETEd): the run ends quietly. */
export const INVOICE_GONE = 'invoice_not_found';
