import Router from '@koa/router';
import { pingMongo } from '../db/connection';
import { pingTemporal } from '../temporal/client';
import { metricsAuthorized, registry } from '../http/metrics';
import { ROUTER_OPTIONS } from '../http/router-options';

/** /healthz: the process answers. /readyz: MongoDB and Temporal are reachable, so requests can succeed. /metrics: Prometheus (behind METRICS_TOKEN when set). */
export function healthRouter(): Router {
  const router = new Router(ROUTER_OPTIONS);
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/readyz', async (ctx) => {
    const [mongodb, temporal] = await Promise.all([pingMongo(), pingTemporal()]);
    ctx.status = mongodb && temporal ? 200 : 503;
    ctx.body = { ok: mongodb && temporal, mongodb, temporal };
  });
  router.get('/metrics', async (ctx) => {
    if (!metricsAuthorized(ctx.get('Authorization'))) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = { error: 'metrics_token_required', message: 'Send METRICS_TOKEN as Authorization: Bearer <token>.' };
      return;
    }
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}
