// `npm start`'s status-update receiver: the seeded tenant's status URL, so a newcomer sees the Tenant API's signed
// status updates (SPEC 6.2) arrive, each verified against the tenant's secret, in the stack's own output.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../webhooks/verify';

export interface StatusReceiver {
  url: string;
  stop(): Promise<void>;
}

export async function startStatusReceiver(opts: { port: number; secret: () => string | null; print: (line: string) => void }): Promise<StatusReceiver> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const secret = opts.secret();
      const verified = verifyWebhook(raw, req.headers, secret ?? '');
      opts.print(`${verified.ok ? 'signature ok' : `signature REFUSED (${verified.reason})`}  ${raw}`);
      res.writeHead(verified.ok ? 204 : 401).end();
    });
  });
  server.listen(opts.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tenant-status`;
  return { url, stop: () => new Promise((r) => server.close(() => r())) };
}
