import { NativeConnection } from '@temporalio/worker';
import { expect } from 'chai';
import { createHmac, randomUUID } from 'node:crypto';
import { verifyWebhook } from '../../src';
import { config } from '../../src/config';
import { WebhookDelivery, type WebhookDeliveryDoc } from '../../src/db/models';
import { closeTemporalClient, startWebhookDelivery, temporalClient, useTemporalConnection } from '../../src/temporal/client';
import { createWorker } from '../../src/worker/create-worker';
import { createDelivery } from '../../src/webhooks/deliveries';
import { invoiceWorkflowId, webhookWorkflowId } from '../../src/temporal/contract';
import { replayStatusWebhook } from '../../src/webhooks/start';
import { ensureWorker, stopWorker } from '../helpers/worker';
import { newPartner } from '../helpers/partners';
import { invoiceBody, postInvoice } from '../helpers/invoices';
import { WebhookReceiver, invoiceAt, type ReceivedRequest } from '../helpers/webhook-receiver';
import { withDevUrls } from '../helpers/dev-urls';

async function finished(deliveryId: string): Promise<WebhookDeliveryDoc> {
  const client = await temporalClient();
  await client.workflow.getHandle(webhookWorkflowId(deliveryId)).result();
  return (await WebhookDelivery.findById(deliveryId).lean<WebhookDeliveryDoc>())!;
}

function expectAuthentic(req: ReceivedRequest, secret: string): any {
  const verified = verifyWebhook(req.rawBody, req.headers, secret);
  expect(verified, JSON.stringify(verified)).to.have.property('ok', true);
  // Independently of the helper: t from the header, HMAC over `${t}.${raw body}`.
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['x-webhook-signature']))!;
  expect(createHmac('sha256', secret).update(`${t}.${req.rawBody}`).digest('hex')).to.equal(v1);
  expect(req.headers['x-webhook-timestamp']).to.equal(t);
  expect(req.headers).to.not.have.property('x-webhook-secret');
  const event = JSON.parse(req.rawBody);
  expect(event.timestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(Date.parse(event.timestamp) / 1000).to.equal(Number(t));
  return event;
}

/**
 * The invoice workflow's shortest run that announces: a reserved test TRN's, which only announces delivered (the
 * announcement itself is the same for every status: workflows/announce-status.ts).
 */
async function announceReserved(invoiceId: string): Promise<string> {
  const client = await temporalClient();
  return client.workflow.execute('invoiceWorkflow', {
    taskQueue: config().temporalTaskQueue,
    workflowId: invoiceWorkflowId(invoiceId),
    args: [{ invoiceId, mode: 'test', ackFallbackMs: 60_000, reservedDelivered: true }],
  });
}

describe('webhook deliveries (real Temporal, real MongoDB, real HTTP receivers)', function () {
  this.timeout(120_000);
  const receivers: WebhookReceiver[] = [];
  const receiver = async (...args: Parameters<typeof WebhookReceiver.start>) => {
    const r = await WebhookReceiver.start(...args);
    receivers.push(r);
    return r;
  };
  before(() => ensureWorker());
  after(() => Promise.all(receivers.map((r) => r.close())));

  it('the invoice workflow announces a status: one signed SPEC 6.1 event, sent by a delivery workflow that outlives the invoice workflow', async () => {
    const hook = await receiver((_req, n) => (n === 1 ? 500 : 200));
    const partner = await newPartner({ webhookUrl: hook.url });
    const invoiceId = await invoiceAt(partner, 'delivered');
    const client = await temporalClient();
    expect(await announceReserved(invoiceId)).to.equal('delivered'); // the invoice's workflow has ended
    const [row] = await WebhookDelivery.find({ invoiceId }).lean<WebhookDeliveryDoc[]>();
    expect(row).to.include({ status: 'pending', trigger: 'pipeline', event: 'invoice.status_changed', mode: 'test', maxAttempts: 7 });
    // The invoice's workflow has completed; the delivery's goes on to retry after the 500.
    const done = await finished(row._id);
    expect(done).to.include({ status: 'delivered', attempts: 2 });
    const event = expectAuthentic(hook.requests[1], partner.webhookSecret);
    expect(Object.keys(event)).to.deep.equal(['event', 'erpPartnerId', 'invoiceId', 'status', 'reason', 'timestamp']);
    expect(event).to.include({ event: 'invoice.status_changed', erpPartnerId: partner.partnerId, invoiceId, status: 'delivered', reason: null });
    expect(hook.requests[0].headers['content-type']).to.equal('application/json');
    const described = await client.workflow.getHandle(webhookWorkflowId(row._id)).describe();
    expect(described.searchAttributes.PartnerId).to.deep.equal([partner.partnerId]); // findable in the Web UI
    // Started through the client by one local activity, not as a child; each attempt (sent and recorded) is one local activity.
    const invoiceEvents = (await client.workflow.getHandle(invoiceWorkflowId(invoiceId)).fetchHistory()).events ?? [];
    expect(invoiceEvents.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).to.have.length(0);
    const announced = invoiceEvents.filter((e) => e.markerRecordedEventAttributes);
    expect(announced).to.have.length(1);
    const deliveryEvents = (await client.workflow.getHandle(webhookWorkflowId(row._id)).fetchHistory()).events ?? [];
    expect(deliveryEvents.filter((e) => e.activityTaskScheduledEventAttributes)).to.have.length(0);
    expect(deliveryEvents.filter((e) => e.markerRecordedEventAttributes)).to.have.length(2); // one per attempt
  });

  it('the hand-over step announces delivered itself: its row names the invoice, its owner and mode, and one event is sent', async () => {
    const hook = await receiver(() => 200);
    const partner = await newPartner({ webhookUrl: hook.url });
    const { body } = await postInvoice(partner, invoiceBody(partner));
    const client = await temporalClient();
    expect(await client.workflow.getHandle(invoiceWorkflowId(body.invoiceId)).result()).to.equal('acknowledged');
    const rows = await WebhookDelivery.find({ invoiceId: body.invoiceId }).lean<WebhookDeliveryDoc[]>();
    expect(rows).to.have.length(1); // acknowledged collapses into delivered on the Partner API
    expect(rows[0]).to.include({ invoiceId: body.invoiceId, partnerId: partner.partnerId, smeId: partner.sme.smeId, tenantId: null, mode: 'test', eventStatus: 'delivered', trigger: 'pipeline' });
    expect(await finished(rows[0]._id)).to.include({ status: 'delivered', attempts: 1 });
    expect(hook.forDelivery(rows[0]._id)).to.have.length(1);
    const event = expectAuthentic(hook.forDelivery(rows[0]._id)[0], partner.webhookSecret);
    expect(event).to.include({ invoiceId: body.invoiceId, erpPartnerId: partner.partnerId, status: 'delivered' });
  });

  it("on the worker's own connection (as src/worker.ts wires it) a delivery starts eagerly; on the API's, through matching", async () => {
    const hook = await receiver(() => 200);
    const partner = await newPartner({ webhookUrl: hook.url });
    const invoiceId = await invoiceAt(partner, 'delivered');
    const newRow = () => createDelivery({ deliveryId: randomUUID(), invoiceId, trigger: 'replay', retryScheduleMs: [] });
    // The API's client (its own connection, no worker on it): the start does not ask, and the shared worker polls it.
    const viaApi = await newRow();
    expect(await startWebhookDelivery(viaApi)).to.deep.equal({ eagerlyStarted: false });
    expect(await finished(viaApi.deliveryId)).to.include({ status: 'delivered', attempts: 1 });
    // The worker process's client rides on its worker's NativeConnection: the first workflow task comes back in the
    // start's reply and that worker runs it.
    const cfg = config();
    const connection = await NativeConnection.connect({ address: cfg.temporalAddress });
    await closeTemporalClient();
    useTemporalConnection(connection);
    const worker = await createWorker({ address: cfg.temporalAddress, namespace: cfg.temporalNamespace, taskQueue: cfg.temporalTaskQueue, connection });
    const running = worker.run();
    try {
      const eager = await newRow();
      // (eagerlyStarted is the server's reply carrying the first workflow task; the history looks the same either way)
      expect(await startWebhookDelivery(eager)).to.deep.equal({ eagerlyStarted: true });
      expect(await finished(eager.deliveryId)).to.include({ status: 'delivered', attempts: 1 });
      expect(hook.forDelivery(eager.deliveryId)).to.have.length(1);
    } finally {
      worker.shutdown();
      await running;
      await closeTemporalClient(); // (the API's client comes back on the next call)
      await connection.close();
    }
  });

  it('500 then 200: delivered on the second attempt, the failed attempt recorded, each attempt signed at its own time', async () => {
    const hook = await receiver((_req, n) => (n === 1 ? 500 : 200));
    const partner = await newPartner({ webhookUrl: hook.url });
    const invoiceId = await invoiceAt(partner, 'delivered');
    // A first retry just over a second later, so the two attempts carry different t.
    const started = await replayStatusWebhook(invoiceId, { retryScheduleMs: [1100, 200, 200, 200, 200, 200] });
    expect(started).to.deep.include({ status: 'pending' });
    const row = await finished(started.deliveryId);
    expect(row).to.include({ status: 'delivered', attempts: 2, maxAttempts: 7, lastResponseStatus: 200, lastError: null });
    expect(row.deliveredAt).to.be.instanceOf(Date);
    expect(row.attemptLog.map((a) => [a.attempt, a.responseStatus, a.error])).to.deep.equal([[1, 500, 'http_500'], [2, 200, null]]);
    expect(hook.forDelivery(row._id)).to.have.length(2);
    const [first, second] = hook.requests.map((r) => expectAuthentic(r, partner.webhookSecret));
    expect(Date.parse(second.timestamp)).to.be.greaterThan(Date.parse(first.timestamp));
    expect(first).to.include({ status: 'delivered', reason: null, invoiceId });
    expect(hook.requests.map((r) => r.headers['x-webhook-attempt'])).to.deep.equal(['1', '2']);
  });

  it('a receiver failing every attempt: exhausted after 7 sends, spaced by the configured schedule; replay makes a new row', async () => {
    let up = false;
    const hook = await receiver(() => (up ? 200 : 503));
    const partner = await newPartner({ webhookUrl: hook.url });
    const invoiceId = await invoiceAt(partner, 'delivered');
    const schedule = config().webhookRetryScheduleMs;
    const started = await replayStatusWebhook(invoiceId);
    const row = await finished(started.deliveryId);
    expect(row).to.include({ status: 'exhausted', attempts: 7, maxAttempts: 7, lastResponseStatus: 503, lastError: 'http_503', deliveredAt: null });
    expect(hook.forDelivery(row._id)).to.have.length(7);
    const log = row.attemptLog;
    expect(log.map((a) => a.attempt)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    for (let i = 0; i < 6; i++) {
      const planned = new Date(log[i].nextAttemptAt!).getTime();
      // Planned from the end of attempt i by exactly the configured wait; attempt i+1 never earlier.
      expect(planned - (new Date(log[i].at).getTime() + log[i].durationMs)).to.equal(schedule[i]);
      expect(new Date(log[i + 1].at).getTime()).to.be.at.least(planned);
    }
    expect(log[6].nextAttemptAt).to.equal(null);
    expect(new Date(row.nextAttemptAt).getTime()).to.equal(new Date(log[5].nextAttemptAt!).getTime());
    // The waits are workflow timers (what the Web UI shows), one per retry, with the configured durations.
    const history = await (await temporalClient()).workflow.getHandle(webhookWorkflowId(row._id)).fetchHistory();
    const timers = history.events!.filter((e) => e.timerStartedEventAttributes).map((e) => e.timerStartedEventAttributes!.startToFireTimeout!);
    expect(timers.map((d) => Number(d.seconds ?? 0) * 1000 + Math.round((d.nanos ?? 0) / 1e6))).to.deep.equal(schedule);

    up = true;
    const replay = await replayStatusWebhook(invoiceId);
    expect(replay.deliveryId).to.not.equal(row._id);
    const replayed = await finished(replay.deliveryId);
    expect(replayed).to.include({ status: 'delivered', attempts: 1, trigger: 'replay', eventStatus: 'delivered' });
    expect((await WebhookDelivery.findById(row._id).lean())!.status).to.equal('exhausted');
    expect(await WebhookDelivery.countDocuments({ invoiceId })).to.equal(2);
    expectAuthentic(hook.forDelivery(replay.deliveryId)[0], partner.webhookSecret);
  });

  it('refused connections are failed attempts recorded with their error', async () => {
    const hook = await receiver();
    const deadUrl = hook.url;
    await hook.close();
    const partner = await newPartner({ webhookUrl: deadUrl });
    const invoiceId = await invoiceAt(partner, 'delivered');
    const started = await replayStatusWebhook(invoiceId, { retryScheduleMs: [10, 10] });
    const row = await finished(started.deliveryId);
    expect(row).to.include({ status: 'exhausted', attempts: 3, maxAttempts: 3, lastResponseStatus: null });
    expect(row.lastError).to.equal('connection_refused'); // the class only: the address stays in our logs
  });

  it('a worker restarted between attempts: the timer fires once it is back, nothing lost, nothing duplicated', async () => {
    const hook = await receiver((_req, n) => (n <= 2 ? 500 : 200));
    const partner = await newPartner({ webhookUrl: hook.url });
    const invoiceId = await invoiceAt(partner, 'delivered');
    const started = await replayStatusWebhook(invoiceId, { retryScheduleMs: [1500, 300, 300, 300, 300, 300] });
    await hook.waitForRequests(1);
    await stopWorker();
    try {
      const countWhileDown = hook.requests.length;
      const row = (await WebhookDelivery.findById(started.deliveryId).lean<WebhookDeliveryDoc>())!;
      const dueAt = new Date(row.nextAttemptAt).getTime();
      await new Promise((r) => setTimeout(r, Math.max(0, dueAt - Date.now()) + 1500)); // well past the due time
      expect(hook.requests.length).to.equal(countWhileDown); // no worker, no send
    } finally {
      await ensureWorker();
    }
    const row = await finished(started.deliveryId);
    expect(row).to.include({ status: 'delivered', attempts: 3 });
    const requests = hook.forDelivery(row._id);
    expect(requests.map((r) => r.headers['x-webhook-attempt'])).to.deep.equal(['1', '2', '3']);
    expect(row.attemptLog.map((a) => a.responseStatus)).to.deep.equal([500, 500, 200]);
  });

  it('redirects are not followed: a 3xx is a failed attempt recorded with its status', async () => {
    const elsewhere = await receiver();
    const hook = await receiver((_req, n) => (n === 1 ? { status: 302, headers: { Location: elsewhere.url } } : 200));
    const partner = await newPartner({ webhookUrl: hook.url });
    const invoiceId = await invoiceAt(partner, 'delivered');
    const row = await finished((await replayStatusWebhook(invoiceId)).deliveryId);
    expect(row).to.include({ status: 'delivered', attempts: 2 });
    expect(row.attemptLog[0]).to.include({ responseStatus: 302 });
    expect(row.attemptLog[0].error).to.equal('redirect_not_followed');
    expect(elsewhere.requests).to.have.length(0);
  });

  it('without the development setting, every mode refuses loopback URLs (name or literal address) and plain http at send time, sending nothing', async () => {
    const hook = await receiver();
    const port = new URL(hook.url).port;
    await withDevUrls(false, async () => {
      for (const mode of ['test', 'live'] as const) {
        for (const url of [`https://localhost:${port}/hooks`, `https://[::ffff:127.0.0.1]:${port}/hooks`]) {
          const partner = await newPartner({ mode, storedWebhookUrl: url });
          const invoiceId = await invoiceAt(partner, 'delivered');
          const row = await finished((await replayStatusWebhook(invoiceId, { retryScheduleMs: [10] })).deliveryId);
          expect(row, url).to.include({ status: 'exhausted', attempts: 2, lastResponseStatus: null, mode, lastError: 'forbidden_address' });
        }
        const plain = await newPartner({ mode, storedWebhookUrl: hook.url });
        const row = await finished((await replayStatusWebhook(await invoiceAt(plain, 'delivered'), { retryScheduleMs: [] })).deliveryId);
        expect(row.lastError).to.equal('https_required');
      }
    });
    expect(hook.requests).to.have.length(0);
    // The same receiver with the development setting on (the root hooks' default): delivered.
    const allowed = await newPartner({ webhookUrl: hook.url });
    const row = await finished((await replayStatusWebhook(await invoiceAt(allowed, 'delivered'))).deliveryId);
    expect(row).to.include({ status: 'delivered', lastError: null });
  });

  it('a partner without a webhook URL: nothing is created or sent', async () => {
    const partner = await newPartner({ webhookUrl: null });
    const invoiceId = await invoiceAt(partner, 'delivered');
    const refused = await replayStatusWebhook(invoiceId).catch((err: { code?: string }) => err.code);
    expect(refused).to.equal('webhook_url_not_configured');
    expect(await announceReserved(invoiceId)).to.equal('delivered');
    expect(await WebhookDelivery.countDocuments({ invoiceId })).to.equal(0);
  });
});
