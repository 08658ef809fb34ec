// Everything a workflow does to the world. createActivities binds the activities to their dependencies (the ASP
// of each mode), as temporalio/samples-typescript's dependency-injection sample does; the worker's entry
// (src/worker/) registers the result and workflows import only the type.
import { withTemporalFailures } from './failures';
import { advanceInvoiceStatus, aspSteps, beginInvoiceRun, prepareInvoiceDocument, reserveDeliveryCredit, validateInvoiceDocument, type PipelineDeps } from './invoice-pipeline';
import { observed } from './observability';
import { purgeExpired, verifyEvidenceChainsStep } from './purge-activities';
import { attemptWebhookDelivery, recordWebhookAttempt, startStatusWebhook } from './webhook-activities';

export type ActivityDeps = PipelineDeps;

export function createActivities(deps: ActivityDeps) {
  const activities = {
    advanceInvoiceStatus,
    beginInvoiceRun,
    prepareInvoiceDocument,
    validateInvoiceDocument,
    reserveDeliveryCredit,
    ...aspSteps(deps),
    startStatusWebhook,
    attemptWebhookDelivery,
    recordWebhookAttempt,
    purgeExpired,
    verifyEvidenceChainsStep,
  };
  // Outermost: the log context (invoice, workflow, run) and the step's duration and failures (./observability.ts);
  // inside it every thrown ServiceError becomes its Temporal failure (./failures.ts).
  return observed(withTemporalFailures(activities));
}

export type Activities = ReturnType<typeof createActivities>;
