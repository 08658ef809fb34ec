import Router from '@koa/router';
import { pingMongo } from '../db/connection';
import { pingTemporal } from '../temporal/client';
import { registry } from '../http/metrics';

/** /healthz: the process answers. /readyz: MongoDB and Temporal are reachable, so requests can succeed. /metrics: Prometheus. */
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
  router.get('/metrics', async (ctx) => {
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}
