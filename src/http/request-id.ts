import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { logger } from '../logger';

/** Echoes a sane X-Request-Id or makes one, and gives the request a child logger carrying it. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    const id = /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.state.log = logger.child({ requestId: id });
    ctx.set('X-Request-Id', id);
    await next();
  };
}
