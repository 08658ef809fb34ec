import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Partner, Tenant } from '../../src/db/models';
import { seedOnce, type SeedCredentials } from '../../src/dev/seed';
import { PARTNER_WEBHOOK_PATH, startDevReceiver, TENANT_STATUS_PATH, type DevReceiver } from '../../src/dev/webhook-receiver';
import { call } from '../helpers/http';
import { invoiceBody } from '../helpers/invoices';
import { ensureWorker } from '../helpers/worker';

// What `npm start` does for a newcomer: seed the partner and tenant with this run's receiver URLs, so the
// README walk-through's POST ends in a `[webhook] signature ok {...}` line in the stack's output.
describe("e2e: npm start's seed points the partner and tenant at the dev receiver, and a signed event arrives", function () {
  this.timeout(120_000);
  const lines: string[] = [];
  let dataDir: string;
  let receiver: DevReceiver;
  let creds: SeedCredentials;
  const secrets: { partner: string | null; tenant: string | null } = { partner: null, tenant: null };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-seed-'));
    receiver = await startDevReceiver({
      port: 0,
      routes: {
        [PARTNER_WEBHOOK_PATH]: { label: 'webhook', secret: () => secrets.partner },
        [TENANT_STATUS_PATH]: { label: 'status-update', secret: () => secrets.tenant },
      },
      print: (line) => lines.push(line),
    });
  });
  after(async () => {
    await receiver.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("sets the seeded partner's webhookUrl and the tenant's statusUrl on every start (same partner, new port)", async () => {
    const first = await seedOnce(dataDir, { webhookUrl: 'http://127.0.0.1:1/partner-webhooks', statusUrl: 'http://127.0.0.1:1/tenant-status' });
    expect((await Partner.findById(first.partnerId).lean())?.webhookUrl).to.equal('http://127.0.0.1:1/partner-webhooks');

    creds = await seedOnce(dataDir, { webhookUrl: receiver.url(PARTNER_WEBHOOK_PATH), statusUrl: receiver.url(TENANT_STATUS_PATH) });
    expect(creds.partnerId).to.equal(first.partnerId);
    expect((await Partner.findById(creds.partnerId).lean())?.webhookUrl).to.equal(receiver.url(PARTNER_WEBHOOK_PATH));
    expect((await Tenant.findById(creds.tenant!.tenantId).lean())?.statusUrl).to.equal(receiver.url(TENANT_STATUS_PATH));
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, 'seed-credentials.json'), 'utf8'));
    expect(saved.webhookSecret).to.equal(creds.webhookSecret);
    secrets.partner = creds.webhookSecret;
    secrets.tenant = creds.tenant!.webhookSecret;
  });

  it('after a POST with the seed credentials, the receiver prints [webhook] signature ok with the invoice.status_changed', async () => {
    expect(creds, 'seeded by the previous test').to.not.equal(undefined);
    await ensureWorker();
    const headers = { 'X-API-Key': creds.apiKey, 'X-API-Secret': creds.apiSecret, 'x-erp-partner-secret': creds.connectionSecret };
    const post = await call('POST', '/v1/partner/invoices', { headers: { ...headers, 'Idempotency-Key': randomUUID() }, json: invoiceBody({ sme: { trn: creds.trn } as never }) });
    expect(post.status, post.text).to.equal(201);
    const invoiceId: string = post.body.invoiceId;

    const mine = () => lines.filter((l) => l.includes(invoiceId));
    for (const deadline = Date.now() + 60_000; mine().length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
    expect(mine()).to.have.length.greaterThan(0);
    const [line] = mine();
    expect(line).to.match(/^\[webhook\] signature ok  \{/);
    const event = JSON.parse(line.slice(line.indexOf('{')));
    expect(event).to.include({ event: 'invoice.status_changed', erpPartnerId: creds.partnerId, invoiceId, status: 'delivered', reason: null });
    expect(lines.filter((l) => l.includes('REFUSED'))).to.deep.equal([]);
  });
});
