// Every activity runs inside a log context naming its invoice (or webhook delivery), workflow, Temporal run,
// activity and attempt, so each line it or the services it calls write carries them (src/logger.ts); its duration
// goes to einvoice_activity_duration_seconds, its failures to einvoice_activity_failures_total with a warn line.
// Step outcomes themselves are logged where they are written: the status writer's `invoice <status>` line.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { logger, withLogContext, type LogContext } from '../src/logger';
import { activityDuration, activityFailures } from '../src/metrics';

type AnyActivity = (...args: never[]) => Promise<unknown>;

/** The ids an activity's input names: the invoice for the pipeline, the delivery for webhooks. */
function idsOf(input: unknown): LogContext {
  if (!input || typeof input !== 'object') return {};
  const { invoiceId, deliveryId } = input as { invoiceId?: unknown; deliveryId?: unknown };
  return { invoiceId: typeof invoiceId === 'string' ? invoiceId : undefined, deliveryId: typeof deliveryId === 'string' ? deliveryId : undefined };
}

function activityContext(): LogContext {
  try {
    const { info } = Context.current();
    return { workflowId: info.workflowExecution?.workflowId, runId: info.workflowExecution?.runId, activity: info.activityType, attempt: info.attempt };
  } catch {
    return {}; // called outside an activity (a unit test calling the function directly)
  }
}

/** The failure's type as a bounded label: ApplicationFailure's type, else the error's class name. */
export function failureType(err: unknown): string {
  if (err instanceof ApplicationFailure) return err.type ?? 'ApplicationFailure';
  if (err instanceof Error) return err.name || 'Error';
  return 'unknown';
}

export function observed<T extends Record<string, AnyActivity>>(activities: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] = (...args: never[]) =>
      withLogContext({ ...activityContext(), ...idsOf(args[0]) }, async () => {
        const end = activityDuration.startTimer({ activity: name });
        try {
          const result = await fn(...args);
          end({ result: 'ok' });
          return result;
        } catch (err) {
          end({ result: 'failed' });
          const type = failureType(err);
          activityFailures.inc({ activity: name, type });
          const retryable = !(err instanceof ApplicationFailure && err.nonRetryable);
          logger.warn({ type, retryable, error: (err as Error)?.message?.slice(0, 500) }, `activity ${name} failed`);
          throw err;
        }
      });
  }
  return wrapped as T;
}
