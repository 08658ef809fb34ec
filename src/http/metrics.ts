import { sameSecret } from '../credentials/secrets';
import type { Middleware } from 'koa';
import { config } from '../config';
import { httpDuration, httpRequests, registry } from '../metrics';

export { registry };

/** The matched route pattern (e.g. /v1/partner/invoices/:id), or `unmatched`: ids stay out of labels. */
export function routeOf(ctx: { _matchedRoute?: unknown }): string {
  return ctx._matchedRoute ? String(ctx._matchedRoute) : 'unmatched';
}

// Prometheus metrics on /metrics (DESIGN "Conventions"): request count and latency by route pattern and status.
export function httpMetrics(): Middleware {
  return async (ctx, next) => {
    const end = httpDuration.startTimer();
    try {
      await next();
    } finally {
      const labels = { method: ctx.method, route: routeOf(ctx as never), status: String(ctx.status) };
      end(labels);
      httpRequests.inc(labels);
    }
  };
}

/**
 * METRICS_TOKEN set: the scrape must send `Authorization: Bearer <token>` (compared in constant time, length too). Unset:
 * open, as Prometheus endpoints usually are inside a private network.
 */
export function metricsAuthorized(authorization: string | undefined): boolean {
  const token = config().metricsToken;
  if (!token) return true;
  const m = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  if (!m) return false;
  return sameSecret(m[1].trim(), token);
}
