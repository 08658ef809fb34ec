import type { Context, Middleware, ParameterizedContext } from 'koa';
import type { SmeState, TenantState } from './request-state';
import { originKey, runIdempotent, type ErrorRenderer, type StoredResponse } from '../services/idempotency';
import { ServiceError } from '../domain/errors';
import { problemResponse, tenantErrorResponse } from './problem';
import { hashRequest } from '../domain/request-hash';


/** SPEC 8: 1 to 128 characters. */
const IDEMPOTENCY_KEY_MAX_LENGTH = 128;

/**
 * The Idempotency-Key header of a mutation; 400 when missing (the Tenant API: 422 idempotency_required, SPEC 7.2),
 * empty or longer than 128 characters.
 */
function requireIdempotencyKey(ctx: Context, missingStatus = 400): string {
  const key = ctx.get('Idempotency-Key').trim();
  if (!key) {
    throw new ServiceError(missingStatus, missingStatus === 422 ? 'idempotency_required' : 'idempotency_key_required', 'Idempotency-Key required', 'Send an Idempotency-Key header (1 to 128 characters, for example a UUID) with every POST; reuse it only to retry the same request.');
  }
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ServiceError(400, 'idempotency_key_too_long', 'Idempotency-Key too long', `The Idempotency-Key is ${key.length} characters; send at most ${IDEMPOTENCY_KEY_MAX_LENGTH} (a UUID is 36).`);
  }
  return key;
}

/** ctx.state after idempotencyKeyRequired(). */
export interface KeyedRequest {
  idempotencyKey: string;
}

/** For routes that apply the key themselves (bulk: one key per item): 400 without one, else ctx.state.idempotencyKey. */
export function idempotencyKeyRequired(): Middleware<KeyedRequest> {
  return async (ctx, next) => {
    ctx.state.idempotencyKey = requireIdempotencyKey(ctx);
    await next();
  };
}

/**
 * Whose key space a request uses: the partner, narrowed to the connected SME on SME-scoped routes, so one SME's
 * key can never replay another SME's response.
 */
export function idempotencyScope(ctx: ParameterizedContext<Partial<SmeState>>): string {
  const { partner, sme } = ctx.state;
  if (!partner) throw new Error('idempotencyScope needs partnerAuth first');
  return sme ? `partner:${partner._id}:sme:${sme._id}` : `partner:${partner._id}`;
}

/** How a surface keys and renders idempotent requests. */
interface Surface {
  scope(ctx: Context): string;
  renderError: ErrorRenderer;
  missingKeyStatus: number;
}

const PARTNER: Surface = { scope: idempotencyScope, renderError: problemResponse, missingKeyStatus: 400 };

/**
 * The Tenant API: keys are the tenant's (and its mode's: a replay never crosses modes), refusals are
 * {code, humanMessage, meta}, and a missing key is 422 idempotency_required (SPEC 7.2).
 */
export const TENANT: Surface = {
  scope(ctx) {
    const { tenant, mode } = (ctx as ParameterizedContext<Partial<TenantState>>).state;
    if (!tenant) throw new Error('the tenant idempotency scope needs tenantAuth first');
    return `tenant:${tenant._id}:${mode ?? tenant.mode}`;
  },
  renderError: tenantErrorResponse,
  missingKeyStatus: 422,
};

/** For Tenant routes that apply the key themselves (CSV bulk): 422 without one, else ctx.state.idempotencyKey. */
export function tenantIdempotencyKeyRequired(): Middleware<KeyedRequest> {
  return async (ctx, next) => {
    ctx.state.idempotencyKey = requireIdempotencyKey(ctx, 422);
    await next();
  };
}

/**
 * Koa middleware for a single mutation: requires the key, binds it to method + path + canonical body, runs the rest
 * of the chain at most once and answers replays with the stored bytes and `Idempotent-Replayed: true`.
 * Mount it after authentication and body parsing.
 */
export function idempotent(surface: Surface = PARTNER): Middleware {
  return async (ctx, next) => {
    const key = requireIdempotencyKey(ctx, surface.missingKeyStatus);
    const scope = surface.scope(ctx);
    const requestHash = hashRequest(ctx.method, ctx.path, (ctx.request as { body?: unknown }).body);
    ctx.state.idempotencyOrigin = originKey(scope, { key, requestHash });
    const result = await runIdempotent({
      scope,
      key,
      requestHash,
      renderError: surface.renderError,
      execute: async () => {
        await next();
        return captureResponse(ctx);
      },
    });
    writeStoredResponse(ctx, result);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
  };
}

/**
 * For mutations SPEC 4.1 lists without a key (DELETE, replay-webhook) while SPEC 1 wants one on every mutation:
 * a key, when sent, binds the request as idempotent() does (a retried call answers with the first answer);
 * without one the request runs as is. DELETE is idempotent by HTTP semantics anyway, so requiring a key there
 * only turned "cannot delete a delivered invoice" (409) into "key required" (400).
 */
export function idempotentWhenKeyed(): Middleware {
  const guarded = idempotent();
  return (ctx, next) => (ctx.get('Idempotency-Key') ? guarded(ctx, next) : next());
}

/** The response the downstream handler produced, as the bytes Koa would send. */
function captureResponse(ctx: Context): StoredResponse {
  const body: unknown = ctx.body;
  let text: string;
  if (body === null || body === undefined) text = '';
  else if (typeof body === 'string') text = body;
  else if (Buffer.isBuffer(body)) text = body.toString('utf8');
  else text = JSON.stringify(body);
  return { status: ctx.status, body: text, contentType: ctx.response.get('Content-Type') || (text ? 'application/json; charset=utf-8' : '') };
}

/** Sends a stored response byte for byte (the first answer goes through here too, so both are identical). */
function writeStoredResponse(ctx: Context, response: StoredResponse): void {
  ctx.body = response.body === '' ? null : response.body;
  ctx.status = response.status;
  if (response.contentType) ctx.set('Content-Type', response.contentType);
}
