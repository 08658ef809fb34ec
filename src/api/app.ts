import Koa from 'koa';
import { problemErrors } from '../http/problem-errors';
import { httpMetrics } from '../http/metrics';
import { refuseNul } from '../http/nul-guard';
import { requestId } from '../http/request-id';
import { adminRouter } from './admin';
import { docsRouter } from './docs';
import { healthRouter } from './health';
import { partnerRouter } from './partner';
import { providerRouter } from './provider/callback-routes';
import { tenantRouters } from './tenant';

/** Composes the API: request id, problem+json errors, no NUL in path or query, then the routers. */
export function createApp(): Koa {
  const app = new Koa();
  app.proxy = true;
  app.silent = true; // errors are logged by problemErrors with the request id
  app.use(requestId());
  app.use(httpMetrics());
  app.use(problemErrors());
  app.use(refuseNul());
  for (const router of [healthRouter(), docsRouter(), partnerRouter(), ...tenantRouters(), adminRouter(), providerRouter()]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
