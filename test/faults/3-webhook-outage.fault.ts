// Fault: the partner's webhook receiver is down for longer than the first three retries of the (shrunk) schedule
// (issue 13, item 1). While down, the receiver records what arrived and drops the connection without an answer
// (the sender sees a reset, as from a crashed receiver); once every delivery has been tried 4 times it comes back.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Invoice, WebhookDelivery } from '../../src/db/models';
import { verifyWebhook } from '../../src/webhooks/verify';
import { postJson, startFaultStack, until, type FaultStack } from '../../scripts/faults/stack';
import { invoiceBody } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';

const INVOICES = Number(process.env.FAULTS_WEBHOOK_OUTAGE_INVOICES || 10);
const SCHEDULE = '1s,2s,3s,4s,5s,6s';
const FAILED_ATTEMPTS = 4; // the first attempt and the schedule's first three retries

interface Arrival { deliveryId: string; attempt: string; timestamp: string; receivedAt: number; answered: boolean; verified: string | true }

describe('fault: the webhook receiver is down past the first three retries', function () {
  this.timeout(15 * 60_000);
  let stack: FaultStack;
  let p: TestPartner;
  let server: http.Server;
  let down = true;
  const arrivals: Arrival[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const receivedAt = Date.now();
        // Signed at its own send time: it verifies at arrival within 2 s (the default tolerance is 300 s).
        const check = verifyWebhook(raw, req.headers, p.webhookSecret, { toleranceSeconds: 2, now: receivedAt });
        arrivals.push({
          deliveryId: String(req.headers['x-webhook-delivery-id']), attempt: String(req.headers['x-webhook-attempt']), timestamp: String(req.headers['x-webhook-timestamp']),
          receivedAt, answered: !down, verified: check.ok ? true : check.reason,
        });
        if (down) req.socket.destroy();
        else res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    stack = await startFaultStack({ WEBHOOK_RETRY_SCHEDULE: SCHEDULE });
    p = await newPartner({ mode: 'test', webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/einvoice` });
  });

  after(async () => {
    await stack?.stop();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it(`${INVOICES} test invoices: every webhook delivered once the receiver is back, each attempt signed at its send time`, async () => {
    const res = await postJson(`${stack.base}/v1/partner/invoices/bulk`, p.headers, { invoices: Array.from({ length: INVOICES }, () => invoiceBody(p)) });
    const ids = ((res.body?.results ?? []) as { ok: boolean; invoiceId: string; status: string }[]).filter((r) => r.ok && r.status === 'queued').map((r) => r.invoiceId);
    expect(ids, JSON.stringify(res.body).slice(0, 500)).to.have.length(INVOICES);
    await until(`all ${INVOICES} acknowledged`, async () => (await Invoice.countDocuments({ smeId: p.sme.smeId, status: 'acknowledged' })) >= INVOICES, 5 * 60_000);

    // Down until every delivery row has been tried FAILED_ATTEMPTS times (and no new row appeared meanwhile).
    const rowsOf = () => WebhookDelivery.find({ partnerId: p.partnerId }).lean();
    const tries = (id: string) => arrivals.filter((a) => a.deliveryId === id).length;
    let rows = await rowsOf();
    await until(`every delivery tried ${FAILED_ATTEMPTS} times`, async () => {
      rows = await rowsOf();
      return rows.length > 0 && rows.every((r) => tries(r._id) >= FAILED_ATTEMPTS);
    }, 2 * 60_000, 200);
    const downFor = (Date.now() - Math.min(...arrivals.map((a) => a.receivedAt))) / 1000;
    const failedBeforeUp = arrivals.length;
    down = false;
    console.log(`    [webhook-outage] receiver back after ${downFor.toFixed(1)} s down: ${rows.length} deliveries, ${failedBeforeUp} attempts dropped (schedule ${SCHEDULE})`);

    await until('every delivery delivered', async () => (await rowsOf()).every((r) => r.status === 'delivered'), 3 * 60_000, 500);
    rows = await rowsOf();
    const perDelivery = rows.map((r) => {
      const mine = arrivals.filter((a) => a.deliveryId === r._id);
      return { id: r._id, attempts: mine.length, answered: mine.filter((a) => a.answered).length, distinctTimestamps: new Set(mine.map((a) => a.timestamp)).size, unverified: mine.filter((a) => a.verified !== true).map((a) => a.verified) };
    });
    const counts = {
      invoices: INVOICES,
      deliveries: rows.length,
      delivered: rows.filter((r) => r.status === 'delivered').length,
      invoicesWithWebhooks: new Set(rows.map((r) => r.invoiceId)).size,
      attempts: arrivals.length,
      failedAttempts: arrivals.filter((a) => !a.answered).length,
      attemptsPerDelivery: [...new Set(perDelivery.map((d) => d.attempts))].sort().join('/'),
      deliveriesWithRepeatedTimestamp: perDelivery.filter((d) => d.distinctTimestamps !== d.attempts).length,
      unverifiedAttempts: perDelivery.reduce((n, d) => n + d.unverified.length, 0),
    };
    console.log(`    [webhook-outage] ${JSON.stringify(counts)}`);
    expect(counts.delivered).to.equal(rows.length);
    expect(counts.invoicesWithWebhooks, 'every invoice got its webhooks').to.equal(INVOICES);
    for (const d of perDelivery) {
      expect(d.attempts, d.id).to.be.greaterThan(FAILED_ATTEMPTS);
      expect(d.answered, `${d.id}: answered once, then no further attempt`).to.equal(1);
      expect(d.distinctTimestamps, `${d.id}: each attempt has its own X-Webhook-Timestamp`).to.equal(d.attempts);
      expect(d.unverified, d.id).to.deep.equal([]);
    }
  });
});
