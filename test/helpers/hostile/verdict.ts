// What every answer to a hostile request must be: no 5xx; a refusal in its surface's error shape (problem+json on
// the Partner, admin and other paths; {code, humanMessage, meta, errors} on the Tenant API's paths); a 2xx only
// when the request deserved one; and never a stack trace or a secret in the body.
import { STACK_TRACE } from '../leaks';
import type { HostileRequest } from './requests';
import type { RawResponse } from './send';

/** The Tenant API's paths (its error shape), by prefix, as the SPEC names them, and its audit export (issue 34);
 * routes match case-sensitively. */
const TENANT_PREFIXES = ['/v1/invoices', '/v1/credit-notes', '/v1/auth', '/v1/records'];

/** Node's parser refusals (answered by src/http/client-errors.ts before any path is known) are problem+json everywhere. */
const PARSER_CODES = new Set(['malformed_request', 'headers_too_large', 'request_timeout']);


export function isTenantPath(path: string): boolean {
  const pathname = path.split('?')[0];
  return TENANT_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/** Problems with one answer; empty when it is right. */
export function problemsWith(req: HostileRequest, res: RawResponse, secrets: string[]): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  // OPTIONS is answered for any path a route matches (its Allow header, no body): it reveals nothing else.
  const discovery = req.method === 'OPTIONS' && res.text === '';
  if (res.status >= 200 && res.status < 300 && req.deserves === 'never' && !discovery) problems.push(`status ${res.status} for a request that deserves a refusal`);
  if (STACK_TRACE.test(res.text)) problems.push('a stack trace or internal error name in the body');
  for (const secret of secrets) if (res.text.includes(secret)) problems.push(`a secret in the body (${secret.slice(0, 6)}...)`);
  if (res.status >= 400 && req.method !== 'HEAD') problems.push(...shapeProblems(req.path, res));
  return problems;
}

function shapeProblems(path: string, res: RawResponse): string[] {
  const type = String(res.headers['content-type'] ?? '');
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    return [`a ${res.status} whose body is not JSON (${type || 'no content type'}): ${res.text.slice(0, 80)}`];
  }
  if (!body || typeof body !== 'object' || typeof body.code !== 'string' || !body.code) return [`a ${res.status} without a code`];
  if (isTenantPath(path) && !PARSER_CODES.has(body.code)) {
    const ok = /^application\/json/.test(type) && typeof body.humanMessage === 'string' && body.humanMessage !== '' && !('type' in body) && (body.errors === undefined || Array.isArray(body.errors));
    return ok ? [] : [`a ${res.status} not in the Tenant shape {code, humanMessage, meta, errors} (${type})`];
  }
  const ok = /^application\/problem\+json/.test(type) && body.status === res.status && typeof body.title === 'string' && typeof body.type === 'string';
  return ok ? [] : [`a ${res.status} not in problem+json (${type}, status ${body.status})`];
}
