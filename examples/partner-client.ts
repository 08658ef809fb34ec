// A minimal Partner API client (SPEC 4.1, 5.1, 6.1): submit one invoice with an Idempotency-Key, poll it until
// a terminal status, and (with --receive <port>) a tiny webhook receiver that checks the signature.
//
//   npm start                                            # in another terminal
//   npx tsx examples/partner-client.ts                   # submit and poll
//   npx tsx examples/partner-client.ts --receive 4000    # also listen on http://127.0.0.1:4000/hooks/einvoice
//
// For --receive, point the partner's webhook URL at it first (npm start sets it back to its own receiver):
//   npx einvoice admin partner:update --partner <partnerId> --webhook-url http://127.0.0.1:4000/hooks/einvoice
//
// Credentials come from .data/seed-credentials.json (written by npm start), or from the environment:
// EINVOICE_BASE_URL, EINVOICE_API_KEY, EINVOICE_API_SECRET, EINVOICE_CONNECTION_SECRET, EINVOICE_WEBHOOK_SECRET,
// EINVOICE_SELLER_TRN. Needs Node 20 (global fetch) and nothing else.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
// '..' is this repository's package root: what `require('einvoice-submission-service')` resolves to in your
// project (package.json main: lib/index.js, plain JavaScript; types: lib/index.d.ts).
import { verifyWebhook, type StatusChangedEvent } from '..';

const seed = fs.existsSync('.data/seed-credentials.json') ? JSON.parse(fs.readFileSync('.data/seed-credentials.json', 'utf8')) : {};
const config = {
  base: process.env.EINVOICE_BASE_URL ?? 'http://localhost:3000',
  apiKey: process.env.EINVOICE_API_KEY ?? seed.apiKey,
  apiSecret: process.env.EINVOICE_API_SECRET ?? seed.apiSecret,
  connectionSecret: process.env.EINVOICE_CONNECTION_SECRET ?? seed.connectionSecret,
  webhookSecret: process.env.EINVOICE_WEBHOOK_SECRET ?? seed.webhookSecret,
  sellerTrn: process.env.EINVOICE_SELLER_TRN ?? seed.trn,
};

/** One Partner API call: the three credential headers on every request; errors are application/problem+json. */
async function call(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<any> {
  const res = await fetch(config.base + path, {
    method,
    headers: {
      'X-API-Key': config.apiKey,
      'X-API-Secret': config.apiSecret,
      'x-erp-partner-secret': config.connectionSecret, // resolves the connected SME
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = res.status === 204 ? null : ((await res.json()) as any);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json?.code}: ${json?.detail}`);
  return json;
}

/**
 * The receiver: read the raw bytes (never a re-serialised JSON), verify, then act. 2xx acknowledges; anything else
 * is retried by the service (30 s, 2 m, 10 m, ...). Deduplicate on invoiceId + status.
 */
function receiveWebhooks(port: number, onEvent: (e: StatusChangedEvent) => void): http.Server {
  return http
    .createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const result = verifyWebhook(Buffer.concat(chunks), req.headers, config.webhookSecret);
        if (!result.ok) {
          console.log(`webhook refused: ${result.reason}`);
          res.writeHead(400).end(result.reason);
          return;
        }
        const event = result.event as StatusChangedEvent;
        if (event.event === 'invoice.status_changed') onEvent(event); // unknown event types: acknowledge, ignore
        res.writeHead(204).end();
      });
    })
    .listen(port, '127.0.0.1');
}

async function main(): Promise<void> {
  const receivePort = process.argv.includes('--receive') ? Number(process.argv[process.argv.indexOf('--receive') + 1]) : null;
  const events: StatusChangedEvent[] = [];
  const server = receivePort ? receiveWebhooks(receivePort, (e) => (console.log('webhook (signature ok):', e), events.push(e))) : null;

  // 1. Submit. The Idempotency-Key makes a resend after a timeout safe: same key + same body replays the answer.
  const invoice = {
    trn: config.sellerTrn, // must be the connected SME's TRN
    number: `EX-${Date.now()}`,
    issueDate: new Date().toISOString().slice(0, 10),
    currency: 'AED',
    seller: { name: 'Demo Trading LLC', trn: config.sellerTrn, tradeLicenseNumber: 'DED-778812', country: 'AE', address: { line1: 'Office 1204, Bay Square 3', city: 'Dubai', emirate: 'Dubai' } },
    buyer: { name: 'Noor Electronics LLC', trn: '100987654300003', country: 'AE', address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', emirate: 'AUH' } },
    lines: [{ description: 'Consulting services', quantity: 10, unitPrice: 150, vatRate: 0.05 }],
  };
  const queued = await call('POST', '/v1/partner/invoices', invoice, randomUUID());
  console.log('submitted:', queued); // {"invoiceId","number","status":"queued"} or "held" with heldErrors
  if (queued.status === 'held') throw new Error(`held: ${JSON.stringify(queued.heldErrors)}`);

  // 2. Poll until a terminal status. delivered is a success terminal too, but the sandbox acknowledges in seconds.
  let status = await call('GET', `/v1/partner/invoices/${queued.invoiceId}`);
  for (let i = 0; i < 60 && !['acknowledged', 'rejected', 'blocked_no_credit'].includes(status.status); i++) {
    await new Promise((r) => setTimeout(r, 1000)); // production: poll every few minutes, or rely on the webhook
    status = await call('GET', `/v1/partner/invoices/${queued.invoiceId}`);
  }
  console.log('final:', status.status, status.reason ?? '');

  // 3. With --receive: wait (up to 30 s) for this invoice's signed event.
  if (server) {
    for (let i = 0; i < 30 && !events.some((e) => e.invoiceId === queued.invoiceId); i++) await new Promise((r) => setTimeout(r, 1000));
    if (!events.some((e) => e.invoiceId === queued.invoiceId)) console.log('no webhook arrived: is the partner webhook URL pointed at this receiver?');
    server.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
