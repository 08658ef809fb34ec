// The one mapper from what an activity throws to what Temporal records. Services and activities raise the one
// ServiceError (src/domain/errors.ts); here its code becomes the failure's type, `retryable` decides whether
// Temporal tries again (a refusal is final unless it says otherwise), an ASP's Retry-After becomes the next
// retry's delay, and structured findings (the PINT-AE rules') travel in the failure's details.
import { ApplicationFailure } from '@temporalio/common';
import { ServiceError } from '../src/domain/errors';

type AnyActivity = (...args: never[]) => Promise<unknown>;

/** A ServiceError as an ApplicationFailure; anything else as it is (Temporal retries an unexpected error). */
export function toApplicationFailure(err: unknown): unknown {
  if (!(err instanceof ServiceError)) return err;
  const findings = err.meta?.findings;
  return ApplicationFailure.create({
    message: err.message,
    type: err.code,
    nonRetryable: !err.retryable,
    ...(err.retryable && err.retryAfterMs !== undefined ? { nextRetryDelay: err.retryAfterMs } : {}),
    ...(findings !== undefined ? { details: [findings] } : {}),
  });
}

/** Each activity with its failures mapped (the worker registers the result). */
export function withTemporalFailures<T extends Record<string, AnyActivity>>(activities: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        throw toApplicationFailure(err);
      }
    };
  }
  return wrapped as T;
}
