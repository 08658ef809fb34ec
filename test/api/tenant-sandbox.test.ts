// Tenant API sandbox mode end to end over real sockets: our ASP client against the ASP simulator (as the sandbox
// ASP), the simulator's signed callbacks into the API, and signed status updates (SPEC 6.2) to a real receiver,
// retried on the shrunk schedule by the same durable webhook workflow.
import { expect } from 'chai';
import { verifyWebhook } from '../../src/webhooks/verify';
import type { AspSimulator } from '../../src/provider/simulator';
import { startAspSimulator, stopAspSimulator } from '../helpers/asp-simulator';
import { WebhookDelivery } from '../../src/db/models';
import { call } from '../helpers/http';
import { WebhookReceiver } from '../helpers/webhook-receiver';
import { type TestTenant, mutation, newTenant, tenantInvoice, waitForTenantStatus } from '../helpers/tenants';



describe('Tenant API in sandbox mode (the ASP simulator as sandbox ASP)', function () {
  this.timeout(120_000);
  let sim: AspSimulator;

  before(async () => {
    sim = await startAspSimulator('PROVIDER_SANDBOX_URL');
  });

  after(() => stopAspSimulator(sim));

  it('submit -> acknowledged with the authority reference; the simulator got it once; status updates signed with the tenant secret', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const t = await newTenant({ mode: 'sandbox', statusUrl: receiver.url });
      const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.submissionMode).to.equal('sandbox');
      const id = created.body.id;
      await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [id] } });
      const done = await waitForTenantStatus(t, id, ['acknowledged', 'rejected']);
      expect(done.status, done.reason).to.equal('acknowledged');
      expect(done.ackRef).to.match(/^FTA-/);
      expect(sim.submissionsFor(`${id}-1`)).to.equal(1);

      const requests = await receiver.waitForRequests(2);
      const updates = requests.map((r) => {
        expect(verifyWebhook(r.rawBody, r.headers, t.webhookSecret).ok, r.rawBody).to.equal(true);
        expect(verifyWebhook(r.rawBody, r.headers, 'whsec_other').ok).to.equal(false);
        return JSON.parse(r.rawBody);
      });
      expect(updates.map((u) => u.status)).to.deep.equal(['Delivered', 'Acknowledged']);
      expect(updates[1]).to.include({ invoiceNumber: created.body.number, uuid: id, ackRef: done.ackRef, reason: null });
    } finally {
      await receiver.close();
    }
  });

  it('a rejection reaches the status URL with its reason; a receiver that is down is retried on the schedule', async () => {
    const receiver = await WebhookReceiver.start((_req, n) => (n <= 2 ? 503 : 200));
    try {
      const t = await newTenant({ mode: 'sandbox', statusUrl: receiver.url });
      const buyerTrn = '100555666700003';
      sim.setScenario(buyerTrn, { reject: { reasonClass: 'BV', reasonCode: 'buyer_trn_invalid', message: 'the buyer TRN is not registered' } });
      const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t, (b) => (b.buyer.trn = buyerTrn)) });
      await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [created.body.id] } });
      const done = await waitForTenantStatus(t, created.body.id, ['rejected', 'acknowledged']);
      expect(done.status).to.equal('rejected');
      expect(done.errors[0].code).to.equal('buyer_trn_invalid');

      // The ASP accepted the hand-over (Delivered), then refused it (Rejected): one delivery row each. The
      // receiver refuses its first two requests, so the first row needs retries on the schedule.
      // (the rejected row is created just after the invoice is stored as rejected)
      await waitUntil(async () => (await WebhookDelivery.countDocuments({ invoiceId: created.body.id })) === 2);
      const rows = await WebhookDelivery.find({ invoiceId: created.body.id }).sort({ createdAt: 1 }).lean();
      expect(rows.map((r) => r.eventStatus)).to.deep.equal(['delivered', 'rejected']);
      for (const row of rows) expect(row).to.include({ tenantId: t.tenantId, partnerId: null, event: 'tenant.status_update' });
      await waitUntil(async () => (await WebhookDelivery.find({ invoiceId: created.body.id, status: 'delivered' }).lean()).length === 2);
      const attempts = (await WebhookDelivery.find({ invoiceId: created.body.id }).lean()).reduce((n, r) => n + r.attempts, 0);
      expect(attempts).to.equal(4); // two refused, then one success for each row
      const requests = receiver.requests;
      for (const r of requests) expect(verifyWebhook(r.rawBody, r.headers, t.webhookSecret).ok).to.equal(true);
      const rejected = requests.map((r) => JSON.parse(r.rawBody)).filter((b) => b.status === 'Rejected');
      expect(rejected.length).to.be.greaterThan(0);
      expect(rejected[0]).to.include({ invoiceNumber: created.body.number, uuid: created.body.id, ackRef: null });
      expect(rejected[0].reason).to.match(/^buyer_trn_invalid/);
    } finally {
      await receiver.close();
    }
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
