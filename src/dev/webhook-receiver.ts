// `npm start`'s webhook receiver: one small local HTTP server that stands in for both integrators' endpoints, so a
// newcomer sees signed events arrive in the stack's own output:
//   /partner-webhooks  the seeded partner's webhook URL: invoice.status_changed (SPEC 6.1), printed as [webhook]
//   /tenant-status     the seeded tenant's status URL: status updates (SPEC 6.2), printed as [status-update]
// Each path verifies with its own secret (verifyWebhook, the package entry's check) and answers 204, or 401 with
// a `signature REFUSED (<reason>)` line. Any other path is 404. Development only: it listens on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../webhooks/verify';

export const PARTNER_WEBHOOK_PATH = '/partner-webhooks';
export const TENANT_STATUS_PATH = '/tenant-status';

export interface ReceiverRoute {
  /** The line prefix, e.g. `webhook` prints `[webhook] signature ok {...}`. */
  label: string;
  /** The secret to verify with, read per request (the seed runs after the receiver has its port). */
  secret: () => string | null;
}

export interface DevReceiver {
  /** http://127.0.0.1:<port> */
  base: string;
  /** The full URL of one of the routes. */
  url(path: string): string;
  stop(): Promise<void>;
}

export async function startDevReceiver(opts: { port: number; routes: Record<string, ReceiverRoute>; print: (line: string) => void }): Promise<DevReceiver> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = Object.prototype.hasOwnProperty.call(opts.routes, path) ? opts.routes[path] : undefined;
    if (req.method !== 'POST' || !route) {
      req.resume();
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // The raw bytes, before any JSON parsing: the signature covers them exactly.
      const raw = Buffer.concat(chunks);
      const verified = verifyWebhook(raw, req.headers, route.secret() ?? '');
      opts.print(`[${route.label}] ${verified.ok ? 'signature ok' : `signature REFUSED (${verified.reason})`}  ${raw.toString('utf8')}`);
      res.writeHead(verified.ok ? 204 : 401).end();
    });
  });
  server.listen(opts.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    url: (path) => `${base}${path}`,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
