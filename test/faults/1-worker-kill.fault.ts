// Fault: kill -9 of the worker while invoices are mid-pipeline (issue 13, item 1). Live mode against the ASP
// simulator over real HTTP, so "the ASP received each exactly once" is the simulator's own count per document.
import { expect } from 'chai';
import { Invoice } from '../../src/db/models';
import { createAspSimulator, type AspSimulator } from '../../src/provider/simulator';
import { topUp } from '../../src/services/credits';
import { freePort } from '../../scripts/infra/net';
import { postJson, sleep, startFaultStack, until, type FaultStack } from '../../scripts/faults/stack';
import { SIM_CALLBACK_SECRET, SIM_CLIENT } from '../helpers/asp-simulator';
import { invoiceBody } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';

const INVOICES = Number(process.env.FAULTS_WORKER_KILL_INVOICES || 500);

async function statusCounts(smeId: string): Promise<Record<string, number>> {
  const rows = await Invoice.find({ smeId }, { status: 1 }).lean();
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

describe('fault: kill -9 the worker mid-pipeline', function () {
  this.timeout(15 * 60_000);
  let sim: AspSimulator;
  let stack: FaultStack;
  let p: TestPartner;

  before(async () => {
    const port = await freePort();
    sim = await createAspSimulator({ clients: [SIM_CLIENT], callbackUrl: `http://127.0.0.1:${port}/v1/provider/callbacks`, callbackSecret: SIM_CALLBACK_SECRET });
    stack = await startFaultStack(
      { PROVIDER_LIVE_URL: sim.url, PROVIDER_CLIENT_ID: SIM_CLIENT.clientId, PROVIDER_CLIENT_SECRET: SIM_CLIENT.clientSecret, PROVIDER_CALLBACK_SECRET: SIM_CALLBACK_SECRET, ASP_ACK_FALLBACK_MS: '2000' },
      port,
    );
    p = await newPartner({ mode: 'live' });
    await topUp({ kind: 'sme', id: p.sme.smeId }, INVOICES);
  });

  after(async () => {
    await stack?.stop();
    await sim?.stop();
  });

  it(`${INVOICES} live invoices: every one acknowledged after the restart, none lost, each submitted to the ASP exactly once`, async () => {
    const started = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < INVOICES; i += 100) {
      const size = Math.min(100, INVOICES - i);
      const res = await postJson(`${stack.base}/v1/partner/invoices/bulk`, p.headers, { invoices: Array.from({ length: size }, () => invoiceBody(p)) });
      expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.be.oneOf([200, 201, 207]);
      const ok = (res.body.results as { ok: boolean; invoiceId: string; status: string }[]).filter((r) => r.ok && r.status === 'queued');
      expect(ok, 'every bulk item accepted as queued').to.have.length(size);
      ids.push(...ok.map((r) => r.invoiceId));
    }

    // Kill once some are through and some are still in the pipeline.
    let atKill: Record<string, number> = {};
    await until('some invoices acknowledged and some still in the pipeline', async () => {
      atKill = await statusCounts(p.sme.smeId);
      return (atKill.acknowledged ?? 0) >= Math.min(20, INVOICES / 10) || (atKill.delivered ?? 0) >= Math.min(20, INVOICES / 10);
    }, 5 * 60_000, 200);
    await stack.killWorker();
    atKill = await statusCounts(p.sme.smeId);
    const submittedAtKill = ids.filter((id) => sim.submissionsFor(`${id}-1`) > 0).length;
    console.log(`    [worker-kill] SIGKILL at ${((Date.now() - started) / 1000).toFixed(1)} s: statuses ${JSON.stringify(atKill)}; ASP had ${submittedAtKill} of ${ids.length}`);
    expect(INVOICES - (atKill.acknowledged ?? 0), 'some invoices were still in the pipeline at the kill').to.be.greaterThan(0);

    await sleep(3000);
    const whileDown = await statusCounts(p.sme.smeId);
    await stack.startWorker();
    const restartedAt = Date.now();
    console.log(`    [worker-kill] worker restarted after 3 s down; statuses while down ${JSON.stringify(whileDown)}`);

    await until(`all ${ids.length} acknowledged`, async () => (await Invoice.countDocuments({ smeId: p.sme.smeId, status: 'acknowledged' })) >= ids.length, 10 * 60_000, 2000);
    await Promise.race([sleep(2000), stack.worker.died]); // late duplicates, if any, would show in the counts below

    const final = await statusCounts(p.sme.smeId);
    const stored = await Invoice.countDocuments({ smeId: p.sme.smeId });
    const perDocument = ids.map((id) => sim.submissionsFor(`${id}-1`));
    const exactlyOnce = perDocument.filter((n) => n === 1).length;
    const twice = perDocument.filter((n) => n > 1).length;
    const never = perDocument.filter((n) => n === 0).length;
    const secondRuns = ids.filter((id) => sim.submissionsFor(`${id}-2`) > 0).length;
    console.log(
      `    [worker-kill] submitted ${ids.length}, stored ${stored}, final ${JSON.stringify(final)}; ASP received exactly once ${exactlyOnce}, more than once ${twice}, never ${never}, second runs ${secondRuns}; ` +
        `all acknowledged ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart (${((Date.now() - started) / 1000).toFixed(1)} s in all)`,
    );
    expect(stored, 'none lost, none extra').to.equal(ids.length);
    expect(final).to.deep.equal({ acknowledged: ids.length });
    expect({ exactlyOnce, twice, never, secondRuns }).to.deep.equal({ exactlyOnce: ids.length, twice: 0, never: 0, secondRuns: 0 });
  });
});
