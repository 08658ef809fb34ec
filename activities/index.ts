// Everything a workflow does to the world. createActivities binds the activities to their dependencies (the ASP
// of each mode), as temporalio/samples-typescript's dependency-injection sample does; the worker registers the
// result and workflows import only the type.
import { ApplicationFailure } from '@temporalio/activity';
import { advanceInvoiceStatus, StatusChangeError } from '../src/services/invoice-status-writer';
import { aspSteps, beginInvoiceRun, prepareInvoiceDocument, reserveDeliveryCredit, transformInvoice, validateInvoiceDocument, type PipelineDeps } from './invoice-pipeline';
import { observed } from './observability';
import { purgeExpired, verifyEvidenceChainsStep } from './purge-activities';
import { createWebhookDelivery, recordWebhookAttempt, sendWebhookAttempt } from './webhook-activities';

export type ActivityDeps = PipelineDeps;

export function createActivities(deps: ActivityDeps) {
  const activities = {
    advanceInvoiceStatus,
    beginInvoiceRun,
    transformInvoice,
    validateInvoiceDocument,
    prepareInvoiceDocument,
    reserveDeliveryCredit,
    ...aspSteps(deps),
    createWebhookDelivery,
    sendWebhookAttempt,
    recordWebhookAttempt,
    purgeExpired,
    verifyEvidenceChainsStep,
  };
  // Outermost: the log context (invoice, workflow, run) and the step's duration and failures (./observability.ts).
  return observed(withStatusFailures(activities));
}

export type Activities = ReturnType<typeof createActivities>;

/**
 * The status writer's plain errors as Temporal failures: a concurrent change is retried (the step re-reads the
 * status), a missing invoice or an illegal move is not.
 */
function withStatusFailures<T extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        if (!(err instanceof StatusChangeError)) throw err;
        throw err.kind === 'concurrent_transition' ? ApplicationFailure.retryable(err.message, err.kind) : ApplicationFailure.nonRetryable(err.message, err.kind);
      }
    };
  }
  return wrapped as T;
}
