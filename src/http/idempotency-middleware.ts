import type { Context, DefaultState, Middleware, ParameterizedContext } from 'koa';
import type { SmeState, Surface, TenantState } from './request-state';
import { surfaceOf } from './surface';
import { originKey, runIdempotent, type ErrorRenderer, type StoredResponse } from '../services/idempotency';
import { ServiceError } from '../domain/errors';
import { problemResponse, tenantErrorResponse } from './problem';
import { hashRequest } from '../domain/request-hash';

/** SPEC 8: 1 to 128 characters. */
const IDEMPOTENCY_KEY_MAX_LENGTH = 128;

/** How a surface keys and renders idempotent requests: one mechanism, a key space and a wire shape per surface. */
interface KeyRules {
  scope(ctx: Context): string;
  renderError: ErrorRenderer;
  /** A missing key: 400 on the Partner API, 422 idempotency_required on the Tenant API (SPEC 7.2). */
  missingKeyStatus: 400 | 422;
}

const RULES: Record<Surface, KeyRules> = {
  partner: { scope: partnerKeySpace, renderError: problemResponse, missingKeyStatus: 400 },
  // The tenant's keys are its mode's too (a replay never crosses modes); refusals are {code, humanMessage, meta}.
  tenant: { scope: tenantKeySpace, renderError: tenantErrorResponse, missingKeyStatus: 422 },
};

/**
 * Whose key space a request uses: the partner, narrowed to the connected SME on SME-scoped routes, so one SME's
 * key can never replay another SME's response.
 */
function partnerKeySpace(ctx: ParameterizedContext<Partial<SmeState>>): string {
  const { partner, sme } = ctx.state;
  if (!partner) throw new Error('the partner idempotency scope needs partnerAuth first');
  return sme ? `partner:${partner._id}:sme:${sme._id}` : `partner:${partner._id}`;
}

function tenantKeySpace(ctx: ParameterizedContext<Partial<TenantState>>): string {
  const { tenant, mode } = ctx.state;
  if (!tenant) throw new Error('the tenant idempotency scope needs tenantAuth first');
  return `tenant:${tenant._id}:${mode ?? tenant.mode}`;
}

/** The request's key space and the wire shape its stored refusals take, for routes that run keys themselves (bulk). */
export function idempotencyContext(ctx: Context): { scope: string; renderError: ErrorRenderer } {
  const rules = RULES[surfaceOf(ctx)];
  return { scope: rules.scope(ctx), renderError: rules.renderError };
}

/**
 * The Idempotency-Key header of a mutation: refused when missing (the surface's status), empty or longer than
 * 128 characters.
 */
function requireIdempotencyKey(ctx: Context): string {
  const missingStatus = RULES[surfaceOf(ctx)].missingKeyStatus;
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

/**
 * The key checked before anything else is read: for routes that apply it per item (Partner bulk) or that read
 * their body themselves before idempotent() binds it (Tenant CSV bulk). Sets ctx.state.idempotencyKey.
 */
export function idempotencyKeyRequired(): Middleware<KeyedRequest> {
  return async (ctx, next) => {
    ctx.state.idempotencyKey = requireIdempotencyKey(ctx);
    await next();
  };
}

export interface IdempotentOptions<S> {
  /** What the key binds besides method and path; default the parsed body (ctx.request.body). */
  binds?: (ctx: ParameterizedContext<S>) => unknown;
}

/**
 * Koa middleware for a single mutation: requires the key, binds it to method + path + canonical body, runs the rest
 * of the chain at most once and answers replays with the stored bytes and `Idempotent-Replayed: true`.
 * Mount it after authentication and body parsing; the surface (ctx.state.surface) picks key space and shapes.
 */
export function idempotent<S = DefaultState>(opts: IdempotentOptions<S> = {}): Middleware<S> {
  return async (ctx, next) => {
    const key = (ctx.state as Partial<KeyedRequest>).idempotencyKey ?? requireIdempotencyKey(ctx as Context);
    const { scope, renderError } = idempotencyContext(ctx as Context);
    const binds = opts.binds ? opts.binds(ctx) : (ctx.request as { body?: unknown }).body;
    const requestHash = hashRequest(ctx.method, ctx.path, binds);
    (ctx.state as { idempotencyOrigin?: string }).idempotencyOrigin = originKey(scope, { key, requestHash });
    const result = await runIdempotent({
      scope,
      key,
      requestHash,
      renderError,
      execute: async () => {
        await next();
        return captureResponse(ctx as Context);
      },
    });
    writeStoredResponse(ctx as Context, result);
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
