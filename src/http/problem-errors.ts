import type { Context, Middleware } from 'koa';
import { ServiceError } from '../domain/errors';
import { ERROR_CONTENT_TYPES, errorBody, errorSurfaceOf } from './problem';
import { isStoreUnavailable, storeUnavailable } from './store-unavailable';

/**
 * Turns every failure into a ServiceError and renders it in its surface's shape (problem.ts): problem+json, or
 * the Tenant API's {code, humanMessage, meta}. Client mistakes surfaced by libraries (malformed JSON, body too
 * large, wrong charset) become 4xx errors; anything else is a 500 that is logged with the request id and never
 * shows a stack trace.
 */
export function problemErrors(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ServiceError(404, 'route_not_found', 'Not found', `No route for ${ctx.method} ${ctx.path}.`);
      }
      if (ctx.status === 501 && !isProblem(ctx)) throw unknownMethod(ctx);
      if (ctx.status === 405 && !isProblem(ctx)) {
        throw new ServiceError(405, 'method_not_allowed', 'Method not allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}.`);
      }
    } catch (err) {
      const problem = toProblem(err, ctx);
      ctx.status = problem.status;
      for (const [name, value] of Object.entries(problem.headers)) ctx.set(name, value);
      const surface = errorSurfaceOf(ctx);
      ctx.body = errorBody(problem, surface);
      ctx.type = ERROR_CONTENT_TYPES[surface];
    }
  };
}

/**
 * A method the routers do not know at all (PROPFIND, MKCOL, ...): the router answers 501 in text; the client's
 * mistake is the method, so 405 with the methods this path does take (404 when the path takes none).
 */
function unknownMethod(ctx: Context): ServiceError {
  const matched = ((ctx as { matched?: { methods: string[] }[] }).matched ?? []).flatMap((layer) => layer.methods);
  const allowed = [...new Set(matched)];
  if (!allowed.length) return new ServiceError(404, 'route_not_found', 'Not found', `No route for ${ctx.method} ${ctx.path}.`);
  return new ServiceError(405, 'method_not_allowed', 'Method not allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allowed.join(', ')}.`, undefined, { Allow: allowed.join(', ') });
}

function isProblem(ctx: Context): boolean {
  return (ctx.response.type || '').includes('problem+json');
}

function toProblem(err: unknown, ctx: Context): ServiceError {
  if (err instanceof ServiceError) return err;
  const e = err as { status?: number; statusCode?: number; type?: string; expose?: boolean; message?: string };
  const status = e.status ?? e.statusCode;
  // koa-bodyparser / raw-body errors carry a type and an exposable 4xx status.
  if (e.type === 'entity.parse.failed' || (status === 400 && /JSON|parse/i.test(e.message ?? ''))) {
    return new ServiceError(400, 'malformed_json', 'Malformed JSON', 'The request body is not valid JSON; send a JSON object with Content-Type: application/json.');
  }
  if (e.type === 'entity.too.large' || status === 413) {
    return new ServiceError(413, 'payload_too_large', 'Payload too large', 'The request body exceeds 1 MB; split bulk requests into smaller batches.');
  }
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported' || status === 415) {
    return new ServiceError(415, 'unsupported_media_type', 'Unsupported media type', 'Send the body as UTF-8 JSON with Content-Type: application/json.');
  }
  if (status && status >= 400 && status < 500 && e.expose) {
    return new ServiceError(status, 'bad_request', 'Bad request', e.message);
  }
  if (isStoreUnavailable(err)) {
    (ctx.state.log ?? console).warn({ err, requestId: ctx.state.requestId }, 'store unavailable');
    return storeUnavailable();
  }
  (ctx.state.log ?? console).error({ err, requestId: ctx.state.requestId }, 'unhandled error');
  return new ServiceError(500, 'internal_error', 'Internal error', `Something went wrong on our side; quote request id ${ctx.state.requestId ?? 'unknown'} to support.`);
}
