import Router from '@koa/router';
import { pingMongo } from '../db/connection';
import { pingTemporal } from '../temporal/client';

/** /healthz: the process answers. /readyz: MongoDB and Temporal are reachable, so requests can succeed. */
export function healthRouter(): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/readyz', async (ctx) => {
    const [mongodb, temporal] = await Promise.all([pingMongo(), pingTemporal()]);
    ctx.status = mongodb && temporal ? 200 : 503;
    ctx.body = { ok: mongodb && temporal, mongodb, temporal };
  });
  return router;
}
