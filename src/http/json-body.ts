import bodyParser from 'koa-bodyparser';
import compose from 'koa-compose';
import type { Middleware } from 'koa';
import { ServiceError } from '../domain/errors';

const JSON_BODY_LIMIT = '1mb';

/** Bodies are JSON objects or arrays up to 1 MB; anything else with a body is 415, never silently ignored. */
export function jsonBody(): Middleware {
  return compose([requireJsonContentType(), bodyParser({ enableTypes: ['json'], jsonLimit: JSON_BODY_LIMIT, strict: true })]);
}

function requireJsonContentType(): Middleware {
  return async (ctx, next) => {
    const hasBody = Number(ctx.get('Content-Length') || 0) > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasBody && !ctx.is('application/json', '+json')) {
      throw new ServiceError(415, 'unsupported_media_type', 'Unsupported media type', `Content-Type ${ctx.get('Content-Type') || '(none)'} is not accepted here; send JSON with Content-Type: application/json.`);
    }
    await next();
  };
}
