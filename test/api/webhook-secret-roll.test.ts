import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { verifyWebhook } from '../../src';
import { CredentialAudit, Invoice, Partner, Tenant } from '../../src/db/models';
import { rotatePartnerWebhookSecret, rotateTenantWebhookSecret } from '../../src/services/credential-rotation';
import { temporalClient } from '../../src/temporal/client';
import { webhookWorkflowId } from '../../src/temporal/contract';
import { replayStatusWebhook } from '../../src/webhooks/start';
import { call } from '../helpers/http';
import { newPartner } from '../helpers/partners';
import { newTenant, type TestTenant } from '../helpers/tenants';
import { WebhookReceiver, invoiceAt, type ReceivedRequest } from '../helpers/webhook-receiver';
import { ensureWorker } from '../helpers/worker';

// A webhook secret roll as the integrator lives it: their receiver verifies with the exported verifyWebhook and
// whichever secret it has deployed. During the overlap both work (two v1 values); after it only the new one.

const actor = { kind: 'admin-api' as const, name: 'request:webhook-roll-test', address: '127.0.0.1' };
const DAY = 24 * 3600_000;
const settled = async (deliveryId: string) => (await temporalClient()).workflow.getHandle(webhookWorkflowId(deliveryId)).result();
const v1Count = (r: ReceivedRequest) => String(r.headers['x-webhook-signature']).split(',').filter((p) => p.startsWith('v1=')).length;

describe('webhook secret roll (two signatures during the overlap)', function () {
  this.timeout(180_000);
  let hook: WebhookReceiver;
  /** The secret the integrator's receiver has deployed: it answers 204 when the request verifies with it, else 401. */
  let deployed = '';
  before(async () => {
    await ensureWorker();
    hook = await WebhookReceiver.start((req) => (verifyWebhook(req.rawBody, req.headers, deployed).ok ? 204 : 401));
  });
  after(() => hook.close());

  /** Sends the invoice's event once and returns what the receiver got and what the delivery row says. */
  async function deliverOnce(start: () => Promise<string>): Promise<{ request: ReceivedRequest; status: unknown }> {
    const deliveryId = await start();
    const status = await settled(deliveryId).catch(() => null);
    return { request: hook.forDelivery(deliveryId)[0], status };
  }

  it("partner webhooks: the partner's receiver verifies with the old or the new secret during the overlap, only the new after", async () => {
    const p = await newPartner({ webhookUrl: hook.url });
    const invoiceId = await invoiceAt(p, 'rejected', 'buyer_trn_invalid');
    const replay = async () => {
      const res = await call('POST', `/v1/partner/invoices/${invoiceId}/replay-webhook`, { headers: p.headers });
      expect(res.status, res.text).to.equal(202);
      return res.body.deliveryId as string;
    };
    const rolled = await rotatePartnerWebhookSecret(p.partnerId, { overlapMs: DAY, actor });

    for (const secret of [p.webhookSecret, rolled.webhookSecret]) {
      deployed = secret;
      const { request } = await deliverOnce(replay);
      expect(v1Count(request)).to.equal(2);
      const verified = verifyWebhook(request.rawBody, request.headers, secret);
      expect(verified.ok && verified.event).to.include({ invoiceId, status: 'rejected' });
    }
    const during = await call('GET', `/v1/partner/invoices/${invoiceId}/webhook-deliveries`, { headers: p.headers });
    expect(during.body.data.map((d: { status: string; attempts: number }) => [d.status, d.attempts])).to.deep.equal([['delivered', 1], ['delivered', 1]]);

    await Partner.updateOne({ _id: p.partnerId }, { $set: { previousWebhookSecretValidUntil: new Date(Date.now() - 1000) } });
    deployed = rolled.webhookSecret;
    const { request } = await deliverOnce(replay);
    expect(v1Count(request), 'one signature after the overlap').to.equal(1);
    expect(verifyWebhook(request.rawBody, request.headers, rolled.webhookSecret).ok).to.equal(true);
    expect(verifyWebhook(request.rawBody, request.headers, p.webhookSecret)).to.deep.equal({ ok: false, reason: 'signature mismatch' });
    const after = await call('GET', `/v1/partner/invoices/${invoiceId}/webhook-deliveries`, { headers: p.headers });
    expect(after.body.data[0]).to.include({ status: 'delivered', attempts: 1 });

    const row = await CredentialAudit.findOne({ subjectId: p.partnerId, action: 'rotate_webhook_secret' }).lean();
    expect(row!.actor).to.deep.equal(actor);
    expect(JSON.stringify(row)).not.to.contain(rolled.webhookSecret).and.not.to.contain(p.webhookSecret);
  });

  it('tenant status updates carry both signatures during the overlap; --overlap 0 signs with the new secret only', async () => {
    const t = await newTenant({ statusUrl: hook.url });
    const invoiceId = await tenantInvoiceAt(t, 'delivered');
    const replay = async () => (await replayStatusWebhook(invoiceId)).deliveryId;
    const rolled = await rotateTenantWebhookSecret(t.tenantId, { overlapMs: DAY, actor });
    for (const secret of [t.webhookSecret, rolled.webhookSecret]) {
      deployed = secret;
      const { request } = await deliverOnce(replay);
      expect(v1Count(request)).to.equal(2);
      const verified = verifyWebhook(request.rawBody, request.headers, secret);
      expect(verified.ok && verified.event).to.include({ uuid: invoiceId, status: 'Delivered' });
    }

    const now = await rotateTenantWebhookSecret(t.tenantId, { overlapMs: 0, actor });
    expect(now.previousSecretValidUntil).to.equal(null);
    deployed = now.webhookSecret;
    const { request } = await deliverOnce(replay);
    expect(v1Count(request)).to.equal(1);
    for (const old of [t.webhookSecret, rolled.webhookSecret]) expect(verifyWebhook(request.rawBody, request.headers, old).ok).to.equal(false);
    expect((await Tenant.findById(t.tenantId).lean())!.previousWebhookSecret).to.equal(null);
  });
});

/** A tenant invoice stored directly at `status` (no pipeline needed), as invoiceAt does for partners. */
async function tenantInvoiceAt(t: TestTenant, status: 'delivered'): Promise<string> {
  const id = randomUUID();
  await Invoice.create({
    _id: id, partnerId: null, tenantId: t.tenantId, smeId: null, mode: t.mode, number: `T-${id.slice(0, 8)}`, numberScope: `tenant:${t.tenantId}:${t.mode}`, numberPeriod: 0,
    issueDate: '2026-11-01', sellerTrn: t.trn, status, reason: null, history: [{ status, reason: null, at: new Date(), run: 1 }], body: {},
  });
  return id;
}
