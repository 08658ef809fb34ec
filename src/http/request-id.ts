import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { logger } from '../logger';

/**
 * Echoes a sane X-Request-Id or makes one, gives the request a child logger carrying it, and writes one
 * access-log line per request (after the error middleware has set the final status).
 */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const given = ctx.get('X-Request-Id');
    const id = /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.state.log = logger.child({ requestId: id });
    ctx.set('X-Request-Id', id);
    await next();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    ctx.state.log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, partnerId: ctx.state.partner?._id }, 'request');
  };
}
