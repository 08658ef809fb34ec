import type { Middleware } from 'koa';

/**
 * Admission control for heavy routes: at most `limit` requests run at once in this process and the rest wait in
 * arrival order, so a burst of bulk uploads cannot open hundreds of database operations at once (and on FerretDB
 * exhaust SQLite's single writer). A waiting request whose client hung up is dropped before it does any work.
 */
export function admission(limit: number): Middleware {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (ctx, next) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the finishing request hands over its slot
    try {
      if (ctx.req.socket?.destroyed) {
        ctx.respond = false; // nobody is listening
        return;
      }
      await next();
    } finally {
      const wake = waiting.shift();
      if (wake) wake();
      else running--;
    }
  };
}
