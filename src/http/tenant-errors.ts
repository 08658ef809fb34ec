// The Tenant API's wire shape for a ServiceError (SPEC 7.2): {code, humanMessage, meta}. Field findings are also
// listed at the top level as `errors` ({code, path, message}), which SPEC 7.2 asks for on a 422.
import type { ServiceError } from '../domain/errors';

export interface TenantErrorBody {
  code: string;
  humanMessage: string;
  meta?: Record<string, unknown>;
  errors?: unknown[];
}

/** The Tenant API's name for codes the shared services raise under the Partner API's names. */
const TENANT_CODES: Record<string, string> = {
  validation_failed: 'invalid_body',
  malformed_json: 'invalid_body',
  malformed_body: 'invalid_body',
  body_too_deep: 'invalid_body',
  forbidden_key: 'invalid_body',
  forbidden_character: 'invalid_body',
  idempotency_key_required: 'idempotency_required',
};

export const TENANT_API_PREFIXES = ['/v1/invoices', '/v1/credit-notes', '/v1/auth', '/v1/records'];

export function isTenantPath(path: string): boolean {
  return TENANT_API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

export function tenantErrorBody(err: ServiceError): TenantErrorBody {
  const errors = Array.isArray(err.meta?.errors) ? (err.meta.errors as unknown[]) : undefined;
  return {
    code: TENANT_CODES[err.code] ?? err.code,
    humanMessage: err.detail ?? err.title,
    ...(err.meta ? { meta: err.meta } : {}),
    ...(errors ? { errors } : {}),
  };
}

/** The exact bytes an idempotent Tenant request stores and replays for a refused request. */
export function tenantErrorResponse(err: ServiceError): { status: number; body: string; contentType: string } {
  return { status: err.status, body: JSON.stringify(tenantErrorBody(err)), contentType: 'application/json; charset=utf-8' };
}
