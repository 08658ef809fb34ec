import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { resetConfig } from '../../src/config';
import { Invoice, WebhookDelivery } from '../../src/db/models';
import { connectSme } from '../../src/services/admin';
import { closeTemporalClient, temporalClient } from '../../src/temporal/client';
import { invoiceWorkflowId } from '../../src/temporal/contract';
import { call } from '../helpers/http';
import { describeWhenStatus, getInvoice, invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, randomTrn, type TestPartner } from '../helpers/partners';
import { WebhookReceiver } from '../helpers/webhook-receiver';
import { ensureWorker, stopWorker } from '../helpers/worker';
import { stepNames } from '../helpers/history';

const del = (p: TestPartner, id: string, key = randomUUID()) => call('DELETE', `/v1/partner/invoices/${id}`, { headers: { ...p.headers, 'Idempotency-Key': key } });
const retry = (p: TestPartner, id: string, key = randomUUID()) => call('POST', `/v1/partner/invoices/${id}/retry`, { headers: { ...p.headers, 'Idempotency-Key': key } });

/** SPEC 3.1 "automatic submit crashed": Temporal refuses the start (an unknown namespace), so the invoice stays a draft. */
async function draftInvoice(p: TestPartner): Promise<any> {
  process.env.TEMPORAL_NAMESPACE = `no-such-namespace-${randomUUID().slice(0, 8)}`;
  resetConfig();
  await closeTemporalClient();
  try {
    const res = await postInvoice(p, invoiceBody(p));
    expect(res.status, res.text).to.equal(201);
    return res.body;
  } finally {
    delete process.env.TEMPORAL_NAMESPACE;
    resetConfig();
    await closeTemporalClient();
  }
}

/** A queued invoice that stays queued: its workflow starts while no worker runs. */
async function queuedWhileWorkerStopped<T>(p: TestPartner, then: (invoiceId: string) => Promise<T>): Promise<T> {
  await stopWorker();
  try {
    const res = await postInvoice(p, invoiceBody(p));
    expect(res.body.status).to.equal('queued');
    return await then(res.body.invoiceId);
  } finally {
    await ensureWorker();
  }
}

async function workflowStatus(invoiceId: string): Promise<string> {
  const client = await temporalClient();
  return (await client.workflow.getHandle(invoiceWorkflowId(invoiceId)).describe()).status.name;
}

/** A live partner whose SME has no credit: its invoices stop at blocked_no_credit. */
async function livePartnerWithoutCredit(): Promise<TestPartner> {
  process.env.PROVIDER_LIVE_URL = 'https://asp.invalid/api';
  resetConfig();
  return newPartner({ mode: 'live' });
}

describe('invoice lifecycle: DELETE and retry (SPEC 3.1, 4.1, 8)', function () {
  this.timeout(180_000);
  before(() => ensureWorker());
  afterEach(() => {
    delete process.env.PROVIDER_LIVE_URL;
    delete process.env.ASP_ACK_FALLBACK_MS;
    resetConfig();
  });

  describe('DELETE /v1/partner/invoices/{id}', () => {
    it('204 from draft (automatic start failed); the invoice is gone', async () => {
      const p = await newPartner();
      const draft = await draftInvoice(p);
      expect(draft.status).to.equal('draft');
      const got = await getInvoice(p, draft.invoiceId);
      expect(got.body.history.map((h: any) => h.status)).to.deep.equal(['queued', 'draft']);
      expect(got.body.reason).to.contain('automatic submission failed');
      // A draft that is not held: listed by ?status=draft, not by ?status=held.
      const drafts = await call('GET', '/v1/partner/invoices?status=draft', { headers: p.headers });
      expect(drafts.body.data.map((i: any) => [i.invoiceId, i.status])).to.deep.equal([[draft.invoiceId, 'draft']]);
      expect((await call('GET', '/v1/partner/invoices?status=held', { headers: p.headers })).body.data).to.deep.equal([]);
      const res = await del(p, draft.invoiceId);
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      expect((await getInvoice(p, draft.invoiceId)).status).to.equal(404);
    });

    it('204 from queued, terminating its workflow; archived for support; replays 204 for the same key', async () => {
      const p = await newPartner();
      await queuedWhileWorkerStopped(p, async (invoiceId) => {
        expect(await workflowStatus(invoiceId)).to.equal('RUNNING');
        const key = randomUUID();
        const res = await del(p, invoiceId, key);
        expect(res.status).to.equal(204);
        expect(await workflowStatus(invoiceId)).to.equal('TERMINATED');
        expect(await Invoice.exists({ _id: invoiceId })).to.equal(null);
        const archived = await Invoice.db.collection('deleted_invoices').findOne({ _id: invoiceId } as never);
        expect(archived).to.include({ status: 'queued' });
        const replay = await del(p, invoiceId, key);
        expect(replay.status).to.equal(204);
        expect(replay.headers.get('idempotent-replayed')).to.equal('true');
        expect((await del(p, invoiceId)).status).to.equal(404);
      });
    });

    it('409 handed_over from rejected by the ASP (a tax record, issue 34); 204 from blocked_no_credit', async () => {
      const p = await newPartner();
      const { body: rejected } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name = 'Noor Electronics [asp:reject]')));
      await waitForStatus(p, rejected.invoiceId, 'rejected');
      const refused = await del(p, rejected.invoiceId);
      expect([refused.status, refused.body.code]).to.deep.equal([409, 'handed_over']);
      expect((await getInvoice(p, rejected.invoiceId)).body.status).to.equal('rejected');

      const live = await livePartnerWithoutCredit();
      const { body: blocked } = await postInvoice(live, invoiceBody(live));
      const got = await waitForStatus(live, blocked.invoiceId, 'blocked_no_credit');
      expect(got.reason).to.contain('no delivery credit');
      expect((await del(live, blocked.invoiceId)).status).to.equal(204);
    });

    it('409 after delivery: handed_over when the ASP has it (acknowledged), invalid_state_transition for the reserved TRN (no hand-over)', async () => {
      const p = await newPartner();
      const { body: acked } = await postInvoice(p, invoiceBody(p));
      await waitForStatus(p, acked.invoiceId, 'acknowledged');
      const res = await del(p, acked.invoiceId);
      expect(res.status).to.equal(409);
      expect(res.body).to.include({ code: 'handed_over' });
      expect(res.body.meta).to.include({ status: 'acknowledged' });
      const { body: delivered } = await postInvoice(p, invoiceBody(p, (b) => (b.seller.trn = '100000000000000')));
      expect(delivered.status).to.equal('delivered');
      expect((await del(p, delivered.invoiceId)).body.code).to.equal('invalid_state_transition');
      expect((await getInvoice(p, acked.invoiceId)).body.status).to.equal('acknowledged');
    });
    it('DELETE needs no Idempotency-Key: without one a delivered invoice is 409 (not 400 key required) and a held one is deleted', async () => {
      const p = await newPartner();
      const noKey = (id: string) => call('DELETE', `/v1/partner/invoices/${id}`, { headers: p.headers });
      const { body: delivered } = await postInvoice(p, invoiceBody(p, (b) => (b.seller.trn = '100000000000000')));
      const refused = await noKey(delivered.invoiceId);
      expect([refused.status, refused.body.code]).to.deep.equal([409, 'invalid_state_transition']);
      const { body: held } = await postInvoice(p, invoiceBody(p, (b) => delete b.buyer.address));
      expect(held.status).to.equal('held');
      expect((await noKey(held.invoiceId)).status).to.equal(204);
      expect((await noKey(held.invoiceId)).status).to.equal(404);
    });
  });

  describe('POST /v1/partner/invoices/{id}/retry', () => {
    it('202 from rejected: a new run (continueAsNew) seen in history; at most 3 per hour, then 429 with Retry-After', async () => {
      const p = await newPartner();
      const { body: created } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name = 'Noor Electronics [asp:reject]')));
      const id = created.invoiceId;
      const first = await waitForStatus(p, id, 'rejected');
      expect(first.reason).to.contain('buyer_trn_invalid');
      const client = await temporalClient();
      const firstRun = (await client.workflow.getHandle(invoiceWorkflowId(id)).describe()).runId;

      for (let n = 2; n <= 4; n++) {
        const key = randomUUID();
        const res = await retry(p, id, key);
        expect(res.status, res.text).to.equal(202);
        expect(res.body).to.deep.equal({ invoiceId: id, number: created.number, status: 'queued' });
        const now = await getInvoice(p, id);
        expect(now.body.run).to.equal(n);
        // The same key replays; it does not retry again.
        const replay = await retry(p, id, key);
        expect(replay.text).to.equal(res.text);
        const done = await waitForStatus(p, id, 'rejected');
        expect(done.run).to.equal(n);
      }
      const history = (await getInvoice(p, id)).body.history;
      expect(history.map((h: any) => `${h.run}:${h.status}`)).to.deep.equal(
        [1, 2, 3, 4].flatMap((run) => ['queued', 'transformed', 'validated', 'rejected'].map((s) => `${run}:${s}`)),
      );
      const description = await describeWhenStatus(id, 'rejected');
      expect(description.runId).to.not.equal(firstRun);
      expect(description.searchAttributes.InvoiceNumber).to.deep.equal([created.number]);
      expect(description.searchAttributes.InvoiceStatus).to.deep.equal(['rejected']);

      const limited = await retry(p, id);
      expect(limited.status).to.equal(429);
      expect(limited.body.code).to.equal('retry_rate_limited');
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 3600);
      expect((await getInvoice(p, id)).body).to.include({ status: 'rejected', run: 4 });
    });

    it('202 from draft (automatic start failed): the pipeline starts and reaches acknowledged', async () => {
      const p = await newPartner();
      const draft = await draftInvoice(p);
      const res = await retry(p, draft.invoiceId);
      expect(res.status).to.equal(202);
      expect(res.body.status).to.equal('queued');
      const done = await waitForStatus(p, draft.invoiceId, 'acknowledged');
      expect(done.history.map((h: any) => h.status)).to.deep.equal(['queued', 'draft', 'queued', 'transformed', 'validated', 'delivered', 'acknowledged']);
    });

    it('202 from blocked_no_credit: a new run, blocked again while the SME has no credit', async () => {
      const p = await livePartnerWithoutCredit();
      const { body } = await postInvoice(p, invoiceBody(p));
      await waitForStatus(p, body.invoiceId, 'blocked_no_credit');
      const res = await retry(p, body.invoiceId);
      expect(res.status).to.equal(202);
      const again = await waitForStatus(p, body.invoiceId, 'blocked_no_credit', {});
      expect(again.run).to.equal(2);
    });

    it('409 invalid_state_transition from acknowledged and from delivered', async () => {
      const p = await newPartner();
      const { body: acked } = await postInvoice(p, invoiceBody(p));
      await waitForStatus(p, acked.invoiceId, 'acknowledged');
      const res = await retry(p, acked.invoiceId);
      expect([res.status, res.body.code]).to.deep.equal([409, 'invalid_state_transition']);
      const { body: delivered } = await postInvoice(p, invoiceBody(p, (b) => (b.seller.trn = '100000000000000')));
      expect((await retry(p, delivered.invoiceId)).status).to.equal(409);
    });

    it('400 without an Idempotency-Key', async () => {
      const p = await newPartner();
      const res = await call('POST', `/v1/partner/invoices/${randomUUID()}/retry`, { headers: p.headers });
      expect([res.status, res.body.code]).to.deep.equal([400, 'idempotency_key_required']);
    });
  });

  describe('the simulated ASP of test mode (steered by a marker in buyer.name)', () => {
    it('acknowledges: the webhook fires once at delivered, not again at acknowledged', async () => {
      const hook = await WebhookReceiver.start();
      try {
        const p = await newPartner({ webhookUrl: hook.url });
        const { body } = await postInvoice(p, invoiceBody(p));
        const client = await temporalClient();
        expect(await client.workflow.getHandle(invoiceWorkflowId(body.invoiceId)).result()).to.equal('acknowledged');
        const [req] = await hook.waitForRequests(1);
        expect(JSON.parse(req.rawBody)).to.include({ invoiceId: body.invoiceId, status: 'delivered', reason: null });
        expect(await WebhookDelivery.countDocuments({ invoiceId: body.invoiceId })).to.equal(1);
      } finally {
        await hook.close();
      }
    });

    it('[asp:reject]: refused at hand-over -> rejected with the reason; the webhook says rejected', async () => {
      const hook = await WebhookReceiver.start();
      try {
        const p = await newPartner({ webhookUrl: hook.url });
        const { body } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name += ' [asp:reject]')));
        const done = await waitForStatus(p, body.invoiceId, 'rejected');
        expect(done.history.map((h: any) => h.status)).to.deep.equal(['queued', 'transformed', 'validated', 'rejected']);
        expect(done.reason).to.match(/^buyer_trn_invalid/);
        const [req] = await hook.waitForRequests(1);
        expect(JSON.parse(req.rawBody)).to.include({ status: 'rejected', reason: done.reason });
      } finally {
        await hook.close();
      }
    });

    it('[asp:reject-after-delivery]: delivered, then rejected by the authority; both are announced', async () => {
      const hook = await WebhookReceiver.start();
      try {
        const p = await newPartner({ webhookUrl: hook.url });
        const { body } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name += ' [asp:reject-after-delivery]')));
        const done = await waitForStatus(p, body.invoiceId, 'rejected');
        expect(done.history.map((h: any) => h.status)).to.deep.equal(['queued', 'transformed', 'validated', 'delivered', 'rejected']);
        const events = (await hook.waitForRequests(2)).map((r) => JSON.parse(r.rawBody).status);
        expect(events.sort()).to.deep.equal(['delivered', 'rejected']);
      } finally {
        await hook.close();
      }
    });

    it('[asp:no-ack]: no acknowledgement signal; the timer fallback polls the ASP and the invoice is acknowledged', async () => {
      process.env.ASP_ACK_FALLBACK_MS = '300';
      resetConfig();
      const p = await newPartner();
      const { body } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name += ' [asp:no-ack]')));
      await waitForStatus(p, body.invoiceId, 'acknowledged');
      const client = await temporalClient();
      const handle = client.workflow.getHandle(invoiceWorkflowId(body.invoiceId));
      await handle.result(); // the steps' markers are recorded when their workflow task completes
      const history = await handle.fetchHistory();
      expect(stepNames(history)).to.include('pollAspVerdict');
      const signals = history.events!.filter((e) => e.workflowExecutionSignaledEventAttributes);
      expect(signals).to.have.length(0);
    });
  });

  describe('tenant isolation (SPEC 5.1 rule 4)', () => {
    it("another partner's or another SME's invoice, and a malformed id, are 404 on every endpoint", async () => {
      const owner = await newPartner();
      const { body } = await postInvoice(owner, invoiceBody(owner));
      await waitForStatus(owner, body.invoiceId, 'acknowledged');
      const stranger = await newPartner();
      const otherSme = await connectSme({ partnerId: owner.partnerId, trn: randomTrn(), name: 'Sister Co LLC' });
      const sameKeyOtherSme = { ...owner, headers: { ...owner.keyHeaders, 'x-erp-partner-secret': otherSme.connectionSecret } } as TestPartner;
      for (const caller of [stranger, sameKeyOtherSme]) {
        for (const id of [body.invoiceId, 'not-a-uuid']) {
          expect((await getInvoice(caller, id)).status).to.equal(404);
          expect((await call('GET', `/v1/partner/invoices/${id}/document`, { headers: caller.headers })).status).to.equal(404);
          expect((await del(caller, id)).status).to.equal(404);
          const r = await retry(caller, id);
          expect(r.status).to.equal(404);
          expect(r.headers.get('content-type')).to.match(/problem\+json/);
        }
        const list = await call('GET', '/v1/partner/invoices', { headers: caller.headers });
        expect(list.body.data.map((i: any) => i.invoiceId)).to.not.include(body.invoiceId);
      }
      expect((await getInvoice(owner, body.invoiceId)).body.status).to.equal('acknowledged');
    });
  });
});
