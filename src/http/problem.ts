// RFC 7807 problem details for the Partner API (SPEC ProblemError): type, title, status, detail, code, meta.

export interface FieldError {
  code: string;
  path: string;
  message: string;
}

export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly meta?: Record<string, unknown>,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
    this.name = 'ProblemError';
  }

  toBody(): ProblemBody {
    return {
      type: problemType(this.code),
      title: this.title,
      status: this.status,
      ...(this.detail ? { detail: this.detail } : {}),
      code: this.code,
      ...(this.meta ? { meta: this.meta } : {}),
    };
  }
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  meta?: Record<string, unknown>;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemType(code: string): string {
  return `https://einvoice.ae/problems/${code.replace(/_/g, '-')}`;
}

// Constructors for the problems every route can raise, so codes stay consistent.
export const problems = {
  validation(errors: FieldError[], detail = 'The request body failed validation; see meta.errors.'): ProblemError {
    return new ProblemError(400, 'validation_failed', 'Invalid request', detail, { errors });
  },
  unauthorized(code: string, detail: string): ProblemError {
    return new ProblemError(401, code, 'Unauthorized', detail);
  },
  forbidden(code: string, detail: string): ProblemError {
    return new ProblemError(403, code, 'Forbidden', detail);
  },
  notFound(detail = 'No such resource, or it is not yours.'): ProblemError {
    return new ProblemError(404, 'not_found', 'Not found', detail);
  },
  conflict(code: string, detail: string, meta?: Record<string, unknown>): ProblemError {
    return new ProblemError(409, code, 'Conflict', detail, meta);
  },
};
