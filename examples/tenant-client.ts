// A minimal Tenant API client (SPEC 4.2, 5.2): get a bearer token, create a draft, submit it, poll until a
// terminal status. Status updates also go to the tenant's status URL (npm start prints them as [status-update]).
//
//   npm start                               # in another terminal
//   npx tsx examples/tenant-client.ts
//
// Credentials come from .data/seed-credentials.json (the seeded sandbox tenant), or from the environment:
// EINVOICE_BASE_URL, EINVOICE_CLIENT_ID, EINVOICE_CLIENT_SECRET, EINVOICE_TENANT_TRN. Needs Node 20 (global fetch) and nothing else.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';

const seed = fs.existsSync('.data/seed-credentials.json') ? JSON.parse(fs.readFileSync('.data/seed-credentials.json', 'utf8')) : {};
const config = {
  base: process.env.EINVOICE_BASE_URL ?? 'http://localhost:3000',
  clientId: process.env.EINVOICE_CLIENT_ID ?? seed.tenant?.clientId,
  clientSecret: process.env.EINVOICE_CLIENT_SECRET ?? seed.tenant?.clientSecret,
  trn: process.env.EINVOICE_TENANT_TRN ?? seed.tenant?.trn,
};

let token = '';

/** One Tenant API call. Errors are {"code","humanMessage","meta"}; mutations carry a fresh Idempotency-Key. */
async function call(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(config.base + path, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      'Content-Type': 'application/json',
      'X-Service-Source': 'example-connector/1.0', // optional: names your connector
      ...(method === 'POST' && path !== '/v1/auth/token' ? { 'Idempotency-Key': randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.code}: ${json.humanMessage}`);
  return json;
}

async function main(): Promise<void> {
  // 1. A token (a JWT valid 1 h; on 401 get a new one).
  token = (await call('POST', '/v1/auth/token', { clientId: config.clientId, clientSecret: config.clientSecret })).accessToken;

  // 2. A draft. The seller's names, address and trade licence default from the tenant's registration.
  const draft = await call('POST', '/v1/invoices', {
    number: `EX-T-${Date.now()}`,
    issueDate: new Date().toISOString().slice(0, 10),
    currency: 'AED',
    invoiceType: 'sale',
    seller: { trn: config.trn }, // the tenant's own TRN
    buyer: { name: 'Noor Electronics LLC', trn: '100987654300003', country: 'AE', address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', state: 'Abu Dhabi', country: 'AE' } },
    lines: [{ description: 'Consulting, January', quantity: 10, unit: 'HUR', unitPrice: 150, vatRate: 0.05, taxCategory: 'standard_5' }],
  });
  console.log('draft:', draft.id, draft.status, draft.totals);

  // 3. Submit (1 to 200 draft ids a call).
  console.log('submit:', await call('POST', '/v1/invoices/submit', { ids: [draft.id] }));

  // 4. Poll until a terminal status (production: every 2 to 5 minutes; the sandbox answers in about a second).
  let invoice = await call('GET', `/v1/invoices/${draft.id}`);
  for (let i = 0; i < 60 && !['acknowledged', 'rejected', 'blocked_no_credit'].includes(invoice.status); i++) {
    await new Promise((r) => setTimeout(r, 1000));
    invoice = await call('GET', `/v1/invoices/${draft.id}`);
  }
  console.log('final:', invoice.status, invoice.ackRef ?? '', invoice.errors);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
