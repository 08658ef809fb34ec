import Koa from 'koa';
import type Router from '@koa/router';
import { config } from '../config';
import { problemErrors } from '../http/problem-errors';
import { httpMetrics } from '../http/metrics';
import { noStore } from '../http/no-store';
import { refuseNul } from '../http/nul-guard';
import { requestId } from '../http/request-id';
import { adminRouter } from './admin';
import { docsRouter } from './docs';
import { healthRouter } from './health';
import { partnerRouter } from './partner';
import { providerRouter } from './provider/callback-routes';
import { tenantRouters } from './tenant';

/** ADMIN_TOKEN guards the API that hands out every other secret: shorter than this, the admin listener refuses to start. */
export const ADMIN_TOKEN_MIN_LENGTH = 32;

/**
 * The public API (PORT): request id, problem+json errors, no NUL in path or query, then the routers. The admin API
 * is not mounted here: `/v1/admin…` on the public port is a plain 404, as any unknown path.
 */
export function createApp(): Koa {
  return composeApp([healthRouter(), docsRouter(), partnerRouter(), ...tenantRouters(), providerRouter()]);
}

/**
 * The admin API on its own listener (ADMIN_HOST:ADMIN_PORT, loopback by default), with the same middleware and
 * `Cache-Control: no-store` on every answer (they carry secrets). Throws when ADMIN_TOKEN is unset or too short.
 */
export function createAdminApp(): Koa {
  const token = config().adminToken;
  if (!token || token.length < ADMIN_TOKEN_MIN_LENGTH) {
    throw new Error(`ADMIN_TOKEN must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters (it guards the admin API); ${token ? `it has ${token.length}` : 'it is not set'}. Generate one with: openssl rand -base64 32`);
  }
  return composeApp([adminRouter()], noStore());
}

function composeApp(routers: Router[], ...first: Koa.Middleware[]): Koa {
  const app = new Koa();
  // X-Forwarded-For only from proxies we were told about (TRUST_PROXY); ctx.ip is then the address the farthest
  // trusted proxy saw, never a value the client wrote further left.
  const hops = config().trustProxyHops;
  app.proxy = hops > 0;
  app.maxIpsCount = hops;
  app.silent = true; // errors are logged by problemErrors with the request id
  for (const mw of first) app.use(mw);
  app.use(requestId());
  app.use(httpMetrics());
  app.use(problemErrors());
  app.use(refuseNul());
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
