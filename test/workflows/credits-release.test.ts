// A top-up releases blocked_no_credit invoices: each workflow gets creditsAvailable, spends for itself, and those
// the balance does not cover stay blocked until the next top-up. Live delivery is stubbed to refuse (this test is
// about credits, not the ASP), so a released invoice ends rejected at the delivery step, after spending once.
import { expect } from 'chai';
import type { Worker } from '@temporalio/worker';
import { config, resetConfig } from '../../src/config';
import { CreditLedgerEntry, SmeConnection } from '../../src/db/models';
import { unavailableAsp } from '../../src/provider/asp';
import { topUp } from '../../src/services/credits';
import type { ActivityDeps } from '../../activities';
import { createWorker } from '../../src/worker/create-worker';
import { einvoice } from '../helpers/cli';
import { getInvoice, invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { ensureWorker, stopWorker } from '../helpers/worker';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('credits: a top-up releases blocked invoices (workflow)', function () {
  this.timeout(180_000);
  let worker: { worker: Worker; done: Promise<void> } | undefined;

  before(async () => {
    // The run's shared worker installs the Temporal runtime; ours replaces it on the same task queue with a
    // live ASP that refuses every hand-over.
    await ensureWorker();
    await stopWorker();
    const refuse = unavailableAsp('live delivery is stubbed out in this test');
    const deps = { asp: { test: refuse, live: refuse } } as unknown as ActivityDeps;
    const cfg = config();
    const w = await createWorker({ address: cfg.temporalAddress, namespace: cfg.temporalNamespace, taskQueue: cfg.temporalTaskQueue, deps });
    worker = { worker: w, done: w.run() };
    process.env.PROVIDER_LIVE_URL = 'https://asp.invalid/api'; // the API takes live submissions only with a provider
    resetConfig();
  });

  after(async () => {
    delete process.env.PROVIDER_LIVE_URL;
    resetConfig();
    if (worker) {
      worker.worker.shutdown();
      await worker.done;
    }
  });

  const statusOf = async (p: TestPartner, id: string) => (await getInvoice(p, id)).body.status as string;
  const balanceOf = async (p: TestPartner) => (await SmeConnection.findById(p.sme.smeId).lean())!.credits;
  const spentFor = async (p: TestPartner) => (await CreditLedgerEntry.find({ ownerId: p.sme.smeId, kind: 'spend' }).lean()).map((e) => e.invoiceId);

  const releasedNow = async (p: TestPartner, ids: string[]) => {
    const statuses = await Promise.all(ids.map((id) => statusOf(p, id)));
    return ids.filter((_, i) => statuses[i] !== 'blocked_no_credit');
  };

  /** The invoices that left blocked_no_credit, once `count` of them have (or after a minute, whatever left). */
  async function untilReleased(p: TestPartner, ids: string[], count: number): Promise<string[]> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const released = await releasedNow(p, ids);
      if (released.length >= count || Date.now() > deadline) return released;
      await sleep(200);
    }
  }

  it('3 blocked, top-up of 2 (CLI): exactly 2 resume and spend once each, 1 stays blocked; a top-up of 3 releases it', async () => {
    const p = await newPartner({ mode: 'live' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await postInvoice(p, invoiceBody(p));
      expect(res.status, res.text).to.equal(201);
      ids.push(res.body.invoiceId);
      await waitForStatus(p, res.body.invoiceId, 'blocked_no_credit');
    }
    expect(await spentFor(p)).to.deep.equal([]);

    const topped = await einvoice('admin', 'credits:topup', '--sme', p.sme.smeId, '--amount', '2');
    expect(topped.code, topped.stderr).to.equal(0);
    expect(JSON.parse(topped.stdout)).to.deep.equal({ balance: 2 });

    const released = await untilReleased(p, ids, 2);
    expect(released).to.have.length(2);
    await sleep(1_500); // time for a wrong third spend to show
    expect(await releasedNow(p, ids)).to.deep.equal(released);
    expect(await balanceOf(p)).to.equal(0);
    expect((await spentFor(p)).sort()).to.deep.equal([...released].sort());
    for (const id of released) {
      const inv = (await getInvoice(p, id)).body;
      expect(inv.history.map((h: any) => h.status)).to.include('blocked_no_credit');
      expect(inv.status, inv.reason).to.be.oneOf(['rejected', 'delivered', 'acknowledged']); // refused by the stubbed ASP
    }
    const stillBlocked = ids.find((id) => !released.includes(id))!;
    expect(await statusOf(p, stillBlocked)).to.equal('blocked_no_credit');

    // The invoice that lost the race waits for the next top-up, and spends exactly one credit of it.
    expect(await topUp({ kind: 'sme', id: p.sme.smeId }, 3)).to.deep.equal({ balance: 3 });
    expect(await untilReleased(p, [stillBlocked], 1)).to.deep.equal([stillBlocked]);
    await sleep(500);
    expect(await balanceOf(p)).to.equal(2);
    expect((await spentFor(p)).sort()).to.deep.equal([...ids].sort());
  });
});
