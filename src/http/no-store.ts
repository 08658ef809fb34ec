import type { Middleware } from 'koa';

/**
 * `Cache-Control: no-store` on every answer of the routes it guards: those that can carry a secret (the admin API,
 * the token route). Set before the chain runs, so refusals carry it too and no cache or proxy keeps a copy.
 */
export function noStore(): Middleware {
  return async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
