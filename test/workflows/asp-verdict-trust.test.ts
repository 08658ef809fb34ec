import { expect } from 'chai';
import { config, resetConfig } from '../../src/config';
import { AspSubmission, SmeConnection } from '../../src/db/models';
import { aspSignatureHeader } from '../../src/provider/asp-callback-signature';
import type { Submission } from '../../src/provider/asp-api';
import { SIMULATE_NO_ACK } from '../../src/provider/simulated-asp';
import type { AspSimulator } from '../../src/provider/simulator';
import { temporalClient } from '../../src/temporal/client';
import { acknowledgedSignal, aspVerdictSignal, invoiceWorkflowId, retrySignal } from '../../src/temporal/contract';
import { SIM_CALLBACK_SECRET, startAspSimulator, stopAspSimulator } from '../helpers/asp-simulator';
import { call } from '../helpers/http';
import { getInvoice, invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, randomTrn, type TestPartner } from '../helpers/partners';
import { ensureWorker } from '../helpers/worker';

// A Temporal signal alone never moves an invoice: anyone who reaches Temporal (the CLI, the Web UI) can send
// `aspVerdict`. The workflow confirms each one against the stored ASP evidence (or asks the ASP) and acts on the
// evidence's verdict; a signal nothing supports is recorded as refused and changes nothing.

/** The refused signals on the hand-over's evidence record, once there are `n` (the deadline only stops a hang). */
async function refusedSignals(documentId: string, n: number): Promise<{ claimed: Record<string, unknown>; why: string }[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const refused = ((await AspSubmission.findById(documentId, { refusedSignals: 1 }).lean())?.refusedSignals ?? []) as { claimed: Record<string, unknown>; why: string }[];
    if (refused.length >= n || Date.now() > deadline) return refused;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sends a signal straight to the invoice's workflow, as anyone with the Temporal CLI or Web UI could. */
async function forge(invoiceId: string, signal: typeof aspVerdictSignal, payload: Record<string, unknown>): Promise<void> {
  await (await temporalClient()).workflow.getHandle(invoiceWorkflowId(invoiceId)).signal(signal, payload as never);
}

describe('ASP verdicts are confirmed against the evidence (a forged signal changes nothing)', function () {
  this.timeout(120_000);

  describe('test mode (the in-process simulated ASP)', () => {
    before(async () => {
      process.env.ASP_ACK_FALLBACK_MS = String(10 * 60_000); // no poll during the test: only the signals act
      resetConfig();
      await ensureWorker();
    });
    after(() => {
      delete process.env.ASP_ACK_FALLBACK_MS;
      resetConfig();
    });

    /** A delivered test-mode invoice whose simulated ASP never signals ([asp:no-ack]): it has decided nothing. */
    async function undecided(p: TestPartner): Promise<{ invoiceId: string; submissionId: string; documentId: string }> {
      const res = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name = `Noor Electronics LLC ${SIMULATE_NO_ACK}`)));
      expect(res.status, res.text).to.equal(201);
      const invoiceId = res.body.invoiceId as string;
      const delivered = await waitForStatus(p, invoiceId, 'delivered');
      expect(delivered.status).to.equal('delivered');
      const documentId = `${invoiceId}-1`;
      const { submissionId } = (await AspSubmission.findById(documentId).lean())!;
      return { invoiceId, submissionId: submissionId!, documentId };
    }

    it('a forged acknowledgement (right submissionId, made-up ackRef) leaves the invoice delivered and is recorded as refused', async () => {
      const p = await newPartner();
      const { invoiceId, submissionId, documentId } = await undecided(p);
      await forge(invoiceId, aspVerdictSignal, { submissionId, status: 'acknowledged', reason: null, ackRef: 'FTA-FORGED00001' });
      const [refused] = await refusedSignals(documentId, 1);
      expect(refused, 'the refusal is on the evidence record').to.not.equal(undefined);
      expect(refused.claimed).to.include({ submissionId, status: 'acknowledged', ackRef: 'FTA-FORGED00001' });
      expect(refused.why).to.contain('no verdict');

      const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(invoiceId));
      expect(await handle.query('status')).to.equal('delivered'); // the workflow processed the signal and stayed
      expect((await handle.describe()).status.name).to.equal('RUNNING');
      const inv = (await getInvoice(p, invoiceId)).body;
      expect([inv.status, inv.ackRef ?? null]).to.deep.equal(['delivered', null]); // (the Partner API leaves out an absent ackRef)
      expect(inv.history.map((h: { status: string }) => h.status)).to.not.include('acknowledged');
      const evidence = await call('GET', `/v1/partner/invoices/${invoiceId}/evidence`, { headers: p.headers });
      expect(evidence.body.submissions[0].ackRef).to.equal(null);

      // The genuine path still completes it: an ops retry polls the ASP at once, and the ASP's answer stands.
      await handle.signal(retrySignal);
      expect(await handle.result()).to.equal('acknowledged');
      const done = (await getInvoice(p, invoiceId)).body;
      expect(done.status).to.equal('acknowledged');
      expect(done.ackRef).to.match(/^TEST-/); // test mode's simulated reference, never the forged one
    });

    it('a forged rejection, under the old signal name too, rejects nothing', async () => {
      const p = await newPartner();
      const { invoiceId, submissionId, documentId } = await undecided(p);
      await forge(invoiceId, acknowledgedSignal, { submissionId, status: 'rejected', reason: 'buyer_trn_invalid: forged' });
      await forge(invoiceId, aspVerdictSignal, { submissionId: 'someone-elses', status: 'acknowledged' }); // another hand-over: ignored
      await forge(invoiceId, aspVerdictSignal, { status: 'acknowledged' }); // no submission id: ignored, the workflow keeps running
      const refused = await refusedSignals(documentId, 1);
      expect(refused.map((r) => r.claimed.status)).to.deep.equal(['rejected']);
      const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(invoiceId));
      expect(await handle.query('status')).to.equal('delivered');
      expect((await getInvoice(p, invoiceId)).body.status).to.equal('delivered');
      await handle.terminate('test done');
    });

    it('the simulated ASP records its verdict as evidence before it signals, so genuine test-mode verdicts still complete', async () => {
      const p = await newPartner();
      const res = await postInvoice(p, invoiceBody(p));
      const done = await waitForStatus(p, res.body.invoiceId, ['acknowledged', 'rejected']);
      expect(done.status).to.equal('acknowledged');
      const stored = (await AspSubmission.findById(`${res.body.invoiceId}-1`).lean())!;
      expect(Object.keys(stored.statusAt as object)).to.include('REPORTED');
      expect(stored.answers.map((a) => a.source)).to.deep.equal(['simulated']);
      expect(stored.refusedSignals).to.have.length(0);
    });
  });

  describe('live mode (the ASP simulator over HTTP)', () => {
    let sim: AspSimulator;
    before(async () => {
      sim = await startAspSimulator('PROVIDER_LIVE_URL');
    });
    after(() => stopAspSimulator(sim));

    it('a forged acknowledgement while the ASP has not reported: the ASP is asked, says no, the invoice stays delivered; its signed callback then completes it', async () => {
      const p = await newPartner({ mode: 'live' });
      await SmeConnection.updateOne({ _id: p.sme.smeId }, { $set: { credits: 5 } });
      const buyerTrn = randomTrn();
      sim.setScenario(buyerTrn, { neverReport: true });
      const res = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.trn = buyerTrn)));
      expect(res.status, res.text).to.equal(201);
      const invoiceId = res.body.invoiceId as string;
      const documentId = `${invoiceId}-1`;
      await waitForStatus(p, invoiceId, 'delivered');
      const submissionId = sim.submissionByDocumentId(documentId)!.submissionId;

      await forge(invoiceId, aspVerdictSignal, { submissionId, status: 'acknowledged', reason: null, ackRef: 'FTA-FORGED00002' });
      const [refused] = await refusedSignals(documentId, 1);
      expect(refused?.claimed).to.include({ submissionId, ackRef: 'FTA-FORGED00002' });
      const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(invoiceId));
      expect(await handle.query('status')).to.equal('delivered');
      const inv = (await getInvoice(p, invoiceId)).body;
      expect([inv.status, inv.ackRef ?? null]).to.deep.equal(['delivered', null]); // (the Partner API leaves out an absent ackRef)
      expect((await AspSubmission.findById(documentId).lean())!.ackRef).to.equal(null);

      // The ASP's own signed callback (REPORTED, with its reference) is evidence: the invoice completes with it.
      const reported: Submission = { ...sim.submission(submissionId)!, status: 'REPORTED', ackRef: 'FTA-GENUINE0001' };
      reported.history = [...reported.history, { status: 'REPORTED', at: new Date().toISOString() }];
      const raw = JSON.stringify(reported);
      const signed = aspSignatureHeader(SIM_CALLBACK_SECRET, Math.floor(Date.now() / 1000), raw);
      const cb = await call('POST', '/v1/provider/callbacks', { headers: { 'Content-Type': 'application/json', 'X-ASP-Signature': signed }, raw });
      expect(cb.status, cb.text).to.equal(204);
      expect(await handle.result()).to.equal('acknowledged');
      const done = (await getInvoice(p, invoiceId)).body;
      expect([done.status, done.ackRef]).to.deep.equal(['acknowledged', 'FTA-GENUINE0001']);
      expect(config().providerLiveUrl).to.equal(sim.url);
    });
  });
});
