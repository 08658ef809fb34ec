// The one family of errors a service raises about a caller's request: HTTP status, machine code, title, a
// sentence saying what to send instead, and structured meta. Each API surface maps it to its own wire shape
// (src/http/problem.ts: the Partner API's problem+json, the Tenant API's {code, humanMessage, meta}).
import type { FieldError } from '@einvoice/pint-ae';

export interface ServiceErrorOptions {
  /** Worth trying again unchanged (a concurrent write, an ASP that is down): Temporal retries it, HTTP says 503/429. */
  retryable?: boolean;
  /** When the other side said when to come back (an ASP's Retry-After). */
  retryAfterMs?: number;
  cause?: unknown;
}

export class ServiceError extends Error {
  /** The error's kind, as a machine code (`not_found`, `concurrent_transition`, `provider_unavailable`, …). */
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly meta?: Record<string, unknown>,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
    options: ServiceErrorOptions = {},
  ) {
    super(detail ?? title, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ServiceError';
    this.retryable = options.retryable ?? false;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  /** The kind of error: its machine code. */
  get kind(): string {
    return this.code;
  }
}

/** Is `err` a ServiceError (of one of `codes`, when any are given)? */
export function isServiceError(err: unknown, ...codes: string[]): err is ServiceError {
  return err instanceof ServiceError && (codes.length === 0 || codes.includes(err.code));
}

// Constructors for the errors every route can raise, so codes and titles stay consistent.
export const serviceErrors = {
  validation(errors: FieldError[], detail = 'The request body failed validation; see meta.errors.'): ServiceError {
    return new ServiceError(400, 'validation_failed', 'Invalid request', detail, { errors });
  },
  unauthorized(code: string, detail: string): ServiceError {
    return new ServiceError(401, code, 'Unauthorized', detail);
  },
  forbidden(code: string, detail: string): ServiceError {
    return new ServiceError(403, code, 'Forbidden', detail);
  },
  notFound(detail = 'No such resource, or it is not yours.'): ServiceError {
    return new ServiceError(404, 'not_found', 'Not found', detail);
  },
  conflict(code: string, detail: string, meta?: Record<string, unknown>): ServiceError {
    return new ServiceError(409, code, 'Conflict', detail, meta);
  },
};

/** The Tenant API's name for codes the shared services raise under the Partner API's names. */
const TENANT_CODES: Readonly<Record<string, string>> = {
  validation_failed: 'invalid_body',
  malformed_json: 'invalid_body',
  malformed_body: 'invalid_body',
  body_too_deep: 'invalid_body',
  forbidden_key: 'invalid_body',
  forbidden_character: 'invalid_body',
  idempotency_key_required: 'idempotency_required',
};

/** A code as the Tenant API says it (its error bodies, and the CSV import's row errors). */
export function tenantCodeOf(code: string): string {
  return TENANT_CODES[code] ?? code;
}
