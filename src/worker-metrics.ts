// The worker's /metrics (WORKER_METRICS_PORT): this process's registry (pipeline step times, transitions, webhook
// and ASP outcomes, activity failures, process defaults) followed by the Temporal SDK's own metrics, which the
// SDK's Rust core serves on a loopback-only port of its own and we append to each scrape, so one target, behind
// the same METRICS_TOKEN as the API's, carries both.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TelemetryOptions } from '@temporalio/worker';
import { metricsAuthorized } from './http/metrics';
import { logger } from './logger';
import { registry } from './metrics';

/** A port free on 127.0.0.1 right now (for the SDK's exporter, which needs a fixed address). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Runtime.install's telemetry: the SDK's Prometheus exporter on a loopback address (metric names start `temporal_`). */
export function sdkMetricsTelemetry(bindAddress: string): TelemetryOptions {
  return { metrics: { prometheus: { bindAddress } } };
}

/** The SDK's exposition, or a comment saying why it is missing (a scrape never fails because of it). */
async function sdkMetrics(url: string | null): Promise<string> {
  if (!url) return '';
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return res.ok ? await res.text() : `# temporal sdk metrics unavailable: HTTP ${res.status}\n`;
  } catch (err) {
    return `# temporal sdk metrics unavailable: ${(err as Error).message.replace(/\s+/g, ' ')}\n`;
  }
}

/**
 * GET /metrics on `port` (0: any free one) of `host` (default loopback: WORKER_METRICS_HOST opens it wider, e.g. to a
 * container network); `sdkMetricsUrl` is the SDK exporter's /metrics, appended.
 */
export async function serveWorkerMetrics(opts: { port: number; host?: string; sdkMetricsUrl?: string | null }): Promise<Server> {
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
        return;
      }
      if (!metricsAuthorized(req.headers.authorization)) {
        res.writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer realm="metrics"' }).end('send METRICS_TOKEN as Authorization: Bearer <token>\n');
        return;
      }
      const [own, sdk] = await Promise.all([registry.metrics(), sdkMetrics(opts.sdkMetricsUrl ?? null)]);
      res.writeHead(200, { 'Content-Type': registry.contentType }).end(own.endsWith('\n') || !own ? own + sdk : `${own}\n${sdk}`);
    })().catch((err) => {
      logger.error({ err }, 'worker metrics scrape failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  return server;
}
