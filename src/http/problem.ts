// The Partner API's wire shape for a ServiceError: RFC 7807 problem details (SPEC ProblemError) with type,
// title, status, detail, code and meta.
import type { ServiceError } from '../domain/errors';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  meta?: Record<string, unknown>;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

function problemType(code: string): string {
  return `https://einvoice.ae/problems/${code.replace(/_/g, '-')}`;
}

export function problemBody(err: ServiceError): ProblemBody {
  return {
    type: problemType(err.code),
    title: err.title,
    status: err.status,
    ...(err.detail ? { detail: err.detail } : {}),
    code: err.code,
    ...(err.meta ? { meta: err.meta } : {}),
  };
}

/** The exact bytes an idempotent request stores and replays for a refused request. */
export function problemResponse(err: ServiceError): { status: number; body: string; contentType: string } {
  return { status: err.status, body: JSON.stringify(problemBody(err)), contentType: PROBLEM_CONTENT_TYPE };
}
