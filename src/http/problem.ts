// The one mapper of a ServiceError to the wire, for both surfaces: the Partner API's RFC 7807 problem details
// (SPEC ProblemError: type, title, status, detail, code, meta) and the Tenant API's {code, humanMessage, meta}
// (SPEC 7.2; field findings also listed at the top level as `errors`, which SPEC 7.2 asks for on a 422).
import type { Context } from 'koa';
import { tenantCodeOf, type ServiceError } from '../domain/errors';

/** Which wire shape an error takes. */
export type ErrorSurface = 'partner' | 'tenant';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  meta?: Record<string, unknown>;
}

export interface TenantErrorBody {
  code: string;
  humanMessage: string;
  meta?: Record<string, unknown>;
  errors?: unknown[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The Content-Type of an error body on each surface. */
export const ERROR_CONTENT_TYPES: Readonly<Record<ErrorSurface, string>> = { partner: PROBLEM_CONTENT_TYPE, tenant: 'application/json; charset=utf-8' };

/** Paths of the Tenant API: the shape of an error raised before (or without) a router that names its surface. */
export const TENANT_API_PREFIXES = ['/v1/invoices', '/v1/credit-notes', '/v1/auth', '/v1/records'];

export function isTenantPath(path: string): boolean {
  return TENANT_API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

/**
 * The surface whose shape this request's errors take: the one its router set (ctx.state.surface, issue 36), else
 * the path's (an unknown route, a body refused before routing).
 */
export function errorSurfaceOf(ctx: Pick<Context, 'path' | 'state'>): ErrorSurface {
  const set = (ctx.state as { surface?: unknown }).surface;
  if (set === 'partner' || set === 'tenant') return set;
  return isTenantPath(ctx.path) ? 'tenant' : 'partner';
}

/** The problem type URI of a code. */
export function problemType(code: string): string {
  return `https://einvoice.ae/problems/${code.replace(/_/g, '-')}`;
}

/** The error's body in a surface's shape. */
export function errorBody(err: ServiceError, surface: ErrorSurface): ProblemBody | TenantErrorBody {
  if (surface === 'tenant') {
    const errors = Array.isArray(err.meta?.errors) ? (err.meta.errors as unknown[]) : undefined;
    return {
      code: tenantCodeOf(err.code),
      humanMessage: err.detail ?? err.title,
      ...(err.meta ? { meta: err.meta } : {}),
      ...(errors ? { errors } : {}),
    };
  }
  return {
    type: problemType(err.code),
    title: err.title,
    status: err.status,
    ...(err.detail ? { detail: err.detail } : {}),
    code: err.code,
    ...(err.meta ? { meta: err.meta } : {}),
  };
}

/** The error as the response a surface sends: status, body and content type (headers: err.headers). */
export function errorResponse(err: ServiceError, surface: ErrorSurface): { status: number; body: string; contentType: string } {
  return { status: err.status, body: JSON.stringify(errorBody(err, surface)), contentType: ERROR_CONTENT_TYPES[surface] };
}

/** The exact bytes an idempotent Partner request stores and replays for a refused request. */
export const problemResponse = (err: ServiceError): ReturnType<typeof errorResponse> => errorResponse(err, 'partner');

/** The exact bytes an idempotent Tenant request stores and replays for a refused request. */
export const tenantErrorResponse = (err: ServiceError): ReturnType<typeof errorResponse> => errorResponse(err, 'tenant');
