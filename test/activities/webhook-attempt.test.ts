import { expect } from 'chai';
import mongoose from 'mongoose';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { attemptWebhookDelivery } from '../../activities/webhook-activities';
import { WebhookDelivery, type WebhookDeliveryDoc } from '../../src/db/models';
import { ServiceError } from '../../src/domain/errors';
import { createDelivery } from '../../src/webhooks/deliveries';
import { newPartner } from '../helpers/partners';
import { invoiceAt } from '../helpers/webhook-receiver';

// The delivery workflow's one step per attempt (activities/webhook-activities.ts): the send and its record. A
// retry of the step after its record failed must record what was sent, not send the event again.

describe('a webhook attempt, sent and recorded in one step (real MongoDB, a real HTTP receiver)', function () {
  this.timeout(60_000);
  let server: http.Server;
  let url: string;
  let onRequest: () => Promise<void> = async () => {};
  let sends = 0;
  before(async () => {
    server = http.createServer((req, res) => {
      req.resume().on('end', () => {
        sends++;
        void onRequest().then(() => res.writeHead(200).end('ok'));
      });
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });
  after(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

  it('a retry after the record failed records the outcome already sent, without sending again', async () => {
    const partner = await newPartner({ webhookUrl: url });
    const invoiceId = await invoiceAt(partner, 'delivered');
    const { deliveryId } = await createDelivery({ deliveryId: randomUUID(), invoiceId, trigger: 'replay', retryScheduleMs: [1000] });
    const row = (await WebhookDelivery.findById(deliveryId).lean<WebhookDeliveryDoc>())!;
    // The row vanishes while the receiver answers: the send succeeds, its record fails (delivery_not_found).
    onRequest = async () => void (await WebhookDelivery.deleteOne({ _id: deliveryId }));
    const failed = await attemptWebhookDelivery({ deliveryId, attempt: 1, retryDelayMs: 1000 }).catch((err: unknown) => err);
    expect(failed).to.be.instanceOf(ServiceError).and.have.property('code', 'delivery_not_found');
    expect(sends).to.equal(1);
    // The row is back (as after a store outage): the retried step records the 200 it got, and sends nothing.
    onRequest = async () => {};
    await WebhookDelivery.create(row);
    expect(await attemptWebhookDelivery({ deliveryId, attempt: 1, retryDelayMs: 1000 })).to.deep.equal({ kind: 'recorded', ok: true, rowStatus: 'delivered' });
    expect(sends).to.equal(1);
    const recorded = (await WebhookDelivery.findById(deliveryId).lean<WebhookDeliveryDoc>())!;
    expect(recorded).to.include({ status: 'delivered', attempts: 1, lastResponseStatus: 200 });
    expect(recorded.attemptLog).to.have.length(1);
    // The next attempt of the same row is a new send (nothing left over from the first).
    expect(await attemptWebhookDelivery({ deliveryId, attempt: 2, retryDelayMs: null })).to.deep.equal({ kind: 'skipped', rowStatus: 'delivered' });
    expect(sends).to.equal(1);
  });

  it("a pipeline step's row: its first attempt here reads neither the row nor the partner again; any other attempt reads them", async () => {
    const partner = await newPartner({ webhookUrl: url });
    const invoiceId = await invoiceAt(partner, 'delivered');
    const reads: string[] = [];
    const count = (collection: string, method: string) => void (method.startsWith('find') && method !== 'findOneAndUpdate' && reads.push(collection));
    const event = { status: 'delivered' as const, reason: null };
    const pipeline = await createDelivery({ deliveryId: randomUUID(), invoiceId, event, trigger: 'pipeline', partnerId: partner.partnerId, retryScheduleMs: [] });
    const replay = await createDelivery({ deliveryId: randomUUID(), invoiceId, trigger: 'replay', retryScheduleMs: [] });
    mongoose.set('debug', count);
    try {
      expect(await attemptWebhookDelivery({ deliveryId: pipeline.deliveryId, attempt: 1, retryDelayMs: null })).to.deep.equal({ kind: 'recorded', ok: true, rowStatus: 'delivered' });
      expect(reads, 'the pipeline row').to.deep.equal([]);
      expect(await attemptWebhookDelivery({ deliveryId: replay.deliveryId, attempt: 1, retryDelayMs: null })).to.deep.equal({ kind: 'recorded', ok: true, rowStatus: 'delivered' });
      expect(reads, 'the replay row').to.include.members(['webhook_deliveries', 'partners']);
      reads.length = 0;
      // taken once: the same attempt again reads the row, finds it recorded, and sends nothing
      expect(await attemptWebhookDelivery({ deliveryId: pipeline.deliveryId, attempt: 1, retryDelayMs: null })).to.deep.equal({ kind: 'skipped', rowStatus: 'delivered' });
      expect(reads).to.include('webhook_deliveries');
    } finally {
      mongoose.set('debug', false);
    }
    const row = (await WebhookDelivery.findById(pipeline.deliveryId).lean<WebhookDeliveryDoc>())!;
    expect(row).to.include({ partnerId: partner.partnerId, smeId: partner.sme.smeId, mode: 'test', eventStatus: 'delivered', attempts: 1, status: 'delivered' });
  });
});
