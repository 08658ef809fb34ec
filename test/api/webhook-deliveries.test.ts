import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { verifyWebhook } from '../../src';
import { WebhookDelivery } from '../../src/db/models';
import { temporalClient } from '../../src/temporal/client';
import { webhookWorkflowId } from '../../src/temporal/contract';
import { call } from '../helpers/http';
import { invoiceBody, postInvoice } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { WebhookReceiver, invoiceAt } from '../helpers/webhook-receiver';
import { ensureWorker } from '../helpers/worker';
import { withDevUrls } from '../helpers/dev-urls';

const SPEC_FIELDS = ['deliveryId', 'status', 'event', 'mode', 'attempts', 'maxAttempts', 'nextAttemptAt', 'createdAt', 'updatedAt', 'lastResponseStatus', 'lastError', 'deliveredAt'];

const deliveries = (p: TestPartner, invoiceId: string) => call('GET', `/v1/partner/invoices/${invoiceId}/webhook-deliveries`, { headers: p.headers });
const replay = (p: TestPartner, invoiceId: string, headers: Record<string, string> = {}) =>
  call('POST', `/v1/partner/invoices/${invoiceId}/replay-webhook`, { headers: { ...p.headers, ...headers } });
const settled = async (deliveryId: string) => (await temporalClient()).workflow.getHandle(webhookWorkflowId(deliveryId)).result();

describe('webhook audit and replay (SPEC 4.1)', function () {
  this.timeout(120_000);
  let hook: WebhookReceiver;
  before(async () => {
    await ensureWorker();
    hook = await WebhookReceiver.start();
  });
  after(() => hook.close());

  it('GET webhook-deliveries lists every row newest first with exactly the SPEC fields; replay adds a new pending row', async () => {
    hook.respond = () => 500;
    const p = await newPartner({ webhookUrl: hook.url });
    const invoiceId = await invoiceAt(p, 'rejected', 'buyer_trn_invalid');
    expect((await deliveries(p, invoiceId)).body).to.deep.equal({ data: [] });

    const first = await replay(p, invoiceId);
    expect(first.status, first.text).to.equal(202);
    expect(first.body).to.have.all.keys('deliveryId', 'status');
    expect(first.body.status).to.equal('pending');
    await settled(first.body.deliveryId); // exhausted against the failing receiver

    hook.respond = () => 204;
    const second = await replay(p, invoiceId);
    expect(second.status).to.equal(202);
    await settled(second.body.deliveryId);

    const list = await deliveries(p, invoiceId);
    expect(list.status).to.equal(200);
    expect(list.body.data.map((d: any) => d.deliveryId)).to.deep.equal([second.body.deliveryId, first.body.deliveryId]);
    for (const d of list.body.data) expect(Object.keys(d)).to.have.members(SPEC_FIELDS);
    const [newest, oldest] = list.body.data;
    expect(newest).to.include({ status: 'delivered', event: 'invoice.status_changed', mode: 'test', attempts: 1, maxAttempts: 7, lastResponseStatus: 204, lastError: null });
    expect(Date.parse(newest.deliveredAt)).to.not.be.NaN;
    expect(oldest).to.include({ status: 'exhausted', attempts: 7, maxAttempts: 7, lastResponseStatus: 500, lastError: 'http_500', deliveredAt: null });
    for (const field of ['nextAttemptAt', 'createdAt', 'updatedAt']) expect(newest[field]).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const sent = hook.forDelivery(second.body.deliveryId)[0];
    const verified = verifyWebhook(sent.rawBody, sent.headers, p.webhookSecret);
    expect(verified.ok && verified.event).to.include({ invoiceId, status: 'rejected', reason: 'buyer_trn_invalid' });
  });

  it('404 for unknown invoices, other SMEs\' invoices, and invoices that never reached delivered or rejected', async () => {
    const p = await newPartner({ webhookUrl: hook.url });
    const other = await newPartner({ webhookUrl: hook.url });
    const theirs = await invoiceAt(other, 'delivered');
    for (const id of [randomUUID(), theirs, 'not-a-uuid']) {
      expect((await deliveries(p, id)).status).to.equal(404);
      const res = await replay(p, id);
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.contain('application/problem+json');
    }
    const inFlight = await invoiceAt(p, 'validated', null, [{ status: 'queued' }, { status: 'transformed' }, { status: 'validated' }]);
    const res = await replay(p, inFlight);
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('no_webhook_event');
    expect(await WebhookDelivery.countDocuments({ invoiceId: { $in: [theirs, inFlight] } })).to.equal(0);
  });

  it('an invoice retried after a rejection replays its last event; acknowledged replays as delivered', async () => {
    hook.respond = () => 200;
    const p = await newPartner({ webhookUrl: hook.url });
    const retried = await invoiceAt(p, 'queued', null, [{ status: 'queued' }, { status: 'rejected', reason: 'no credit' }, { status: 'queued' }]);
    const acked = await invoiceAt(p, 'acknowledged', null, [{ status: 'delivered' }, { status: 'acknowledged' }]);
    for (const [id, status, reason] of [[retried, 'rejected', 'no credit'], [acked, 'delivered', null]]) {
      const res = await replay(p, id!);
      expect(res.status).to.equal(202);
      await settled(res.body.deliveryId);
      const event = JSON.parse(hook.forDelivery(res.body.deliveryId)[0].rawBody);
      expect(event).to.include({ status, reason });
    }
  });

  it('an Idempotency-Key, when sent, makes a repeated replay answer with the first delivery', async () => {
    hook.respond = () => 200;
    const p = await newPartner({ webhookUrl: hook.url });
    const invoiceId = await invoiceAt(p, 'delivered');
    const key = randomUUID();
    const a = await replay(p, invoiceId, { 'Idempotency-Key': key });
    const b = await replay(p, invoiceId, { 'Idempotency-Key': key });
    expect(a.status).to.equal(202);
    expect(b.status).to.equal(202);
    expect(b.body).to.deep.equal(a.body);
    expect(b.headers.get('idempotent-replayed')).to.equal('true');
    expect(await WebhookDelivery.countDocuments({ invoiceId })).to.equal(1);
  });

  it('lastError names the class of failure, never the address or the raw error (a refused port, a forbidden address)', async () => {
    const closed = await WebhookReceiver.start();
    await closed.close(); // its port now refuses connections
    const p = await newPartner({ webhookUrl: closed.url });
    const refusedInvoice = await invoiceAt(p, 'delivered');
    await settled((await replay(p, refusedInvoice)).body.deliveryId);
    const [refused] = (await deliveries(p, refusedInvoice)).body.data;
    expect(refused).to.include({ status: 'exhausted', lastResponseStatus: null, lastError: 'connection_refused' });

    // A URL stored before the policy (or whose DNS changed since) is judged again at send time, in test mode too.
    const q = await newPartner({ storedWebhookUrl: hook.url.replace('http:', 'https:') });
    const forbiddenInvoice = await invoiceAt(q, 'delivered');
    const before = hook.requests.length;
    await withDevUrls(false, async () => settled((await replay(q, forbiddenInvoice)).body.deliveryId));
    const [forbidden] = (await deliveries(q, forbiddenInvoice)).body.data;
    expect(forbidden).to.include({ mode: 'test', lastResponseStatus: null, lastError: 'forbidden_address' });
    expect(hook.requests.length).to.equal(before);

    expect(JSON.stringify([refused, forbidden])).to.not.match(/127\.0\.0\.1|ECONN|refused:|:\d{4,5}\//);
  });

  it('409 webhook_url_not_configured when the partner has no webhook URL', async () => {
    const p = await newPartner({ webhookUrl: null });
    const invoiceId = await invoiceAt(p, 'delivered');
    const res = await replay(p, invoiceId);
    expect(res.status).to.equal(409);
    expect(res.body.code).to.equal('webhook_url_not_configured');
  });

  it('e2e: an invoice with the reserved TRN 100000000000000 is announced by a signed event within 5 s of creation', async () => {
    hook.respond = () => 200;
    const p = await newPartner({ webhookUrl: hook.url });
    const postedAt = Date.now();
    const res = await postInvoice(p, invoiceBody(p, (b) => (b.trn = b.seller.trn = '100000000000000')));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status).to.equal('delivered');
    const invoiceId = res.body.invoiceId;
    let received;
    while (!(received = hook.requests.find((r) => JSON.parse(r.rawBody).invoiceId === invoiceId))) await hook.waitForRequests(hook.requests.length + 1);
    expect(received.receivedAt - postedAt, 'SPEC 6.1: within about 5 seconds').to.be.below(4_000); // margin under 5 s
    const verified = verifyWebhook(received.rawBody, received.headers, p.webhookSecret);
    expect(verified.ok && verified.event).to.deep.include({ event: 'invoice.status_changed', erpPartnerId: p.partnerId, invoiceId, status: 'delivered', reason: null });

    const deliveryId = String(received.headers['x-webhook-delivery-id']);
    await settled(deliveryId);
    const list = await deliveries(p, invoiceId);
    expect(list.body.data).to.have.length(1);
    expect(list.body.data[0]).to.include({ deliveryId, status: 'delivered', attempts: 1 });
  });
});
