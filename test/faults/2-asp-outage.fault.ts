// Fault: the ASP answers 5xx, then 429 with Retry-After, for ~30 s (issue 13, item 1). A proxy in front of the ASP
// simulator (scripts/faults/stack.ts faultProxy) answers every request itself during the window (token, submit,
// poll), so the simulator sees nothing until it ends; its per-document count then proves nothing was sent twice.
import { expect } from 'chai';
import { Invoice } from '../../src/db/models';
import { createAspSimulator, type AspSimulator } from '../../src/provider/simulator';
import { topUp } from '../../src/services/credits';
import { freePort } from '../../scripts/infra/net';
import { faultProxy, postJson, startFaultStack, until, type FaultStack } from '../../scripts/faults/stack';
import { SIM_CALLBACK_SECRET, SIM_CLIENT } from '../helpers/asp-simulator';
import { invoiceBody } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';

const INVOICES = Number(process.env.FAULTS_ASP_OUTAGE_INVOICES || 40);
const ERRORS_MS = 15_000; // 500/503 answers
const THROTTLE_MS = 15_000; // then 429 with Retry-After
const RETRY_AFTER_S = 3;

describe('fault: the ASP answers 5xx, then 429 with Retry-After, for 30 s', function () {
  this.timeout(15 * 60_000);
  let sim: AspSimulator;
  let proxy: Awaited<ReturnType<typeof faultProxy>>;
  let stack: FaultStack;
  let p: TestPartner;
  let windowStart = Number.POSITIVE_INFINITY;

  before(async () => {
    const port = await freePort();
    sim = await createAspSimulator({ clients: [SIM_CLIENT], callbackUrl: `http://127.0.0.1:${port}/v1/provider/callbacks`, callbackSecret: SIM_CALLBACK_SECRET });
    let n = 0;
    proxy = await faultProxy(sim.url, () => {
      const t = Date.now() - windowStart;
      if (t < 0 || t >= ERRORS_MS + THROTTLE_MS) return null;
      if (t < ERRORS_MS) return { status: ++n % 2 ? 503 : 500 };
      return { status: 429, headers: { 'Retry-After': String(RETRY_AFTER_S) } };
    });
    stack = await startFaultStack(
      { PROVIDER_LIVE_URL: proxy.url, PROVIDER_CLIENT_ID: SIM_CLIENT.clientId, PROVIDER_CLIENT_SECRET: SIM_CLIENT.clientSecret, PROVIDER_CALLBACK_SECRET: SIM_CALLBACK_SECRET, ASP_ACK_FALLBACK_MS: '2000' },
      port,
    );
    p = await newPartner({ mode: 'live' });
    await topUp({ kind: 'sme', id: p.sme.smeId }, INVOICES);
  });

  after(async () => {
    await stack?.stop();
    await proxy?.stop();
    await sim?.stop();
  });

  it(`${INVOICES} live invoices wait out the outage, then are acknowledged, each submitted exactly once`, async () => {
    windowStart = Date.now();
    const res = await postJson(`${stack.base}/v1/partner/invoices/bulk`, p.headers, { invoices: Array.from({ length: INVOICES }, () => invoiceBody(p)) });
    const ids = ((res.body?.results ?? []) as { ok: boolean; invoiceId: string; status: string }[]).filter((r) => r.ok && r.status === 'queued').map((r) => r.invoiceId);
    expect(ids, JSON.stringify(res.body).slice(0, 500)).to.have.length(INVOICES);

    const windowEnd = windowStart + ERRORS_MS + THROTTLE_MS;
    await new Promise((r) => setTimeout(r, windowEnd - Date.now() - 500));
    const during = {
      acknowledged: await Invoice.countDocuments({ smeId: p.sme.smeId, status: 'acknowledged' }),
      reachedAsp: ids.filter((id) => sim.submissionsFor(`${id}-1`) > 0).length,
      answered5xx: (proxy.counts.get(500) ?? 0) + (proxy.counts.get(503) ?? 0),
      answered429: proxy.counts.get(429) ?? 0,
    };
    console.log(`    [asp-outage] at the end of the 30 s window: ${JSON.stringify(during)}`);
    expect(during.reachedAsp, 'nothing reached the ASP during the outage').to.equal(0);
    expect(during.acknowledged).to.equal(0);
    expect(during.answered5xx, 'the outage was seen').to.be.greaterThan(0);

    await until(`all ${ids.length} acknowledged`, async () => (await Invoice.countDocuments({ smeId: p.sme.smeId, status: 'acknowledged' })) >= ids.length, 10 * 60_000, 1000);
    const allAckAfter = (Date.now() - windowEnd) / 1000;
    await sim.callbacksSettled();
    const stored = await Invoice.find({ smeId: p.sme.smeId }, { status: 1 }).lean();
    const perDocument = ids.map((id) => sim.submissionsFor(`${id}-1`));
    const counts = {
      submitted: ids.length,
      stored: stored.length,
      acknowledged: stored.filter((i) => i.status === 'acknowledged').length,
      exactlyOnce: perDocument.filter((n) => n === 1).length,
      duplicated: perDocument.filter((n) => n > 1).length,
      secondRuns: ids.filter((id) => sim.submissionsFor(`${id}-2`) > 0).length,
      answered5xx: (proxy.counts.get(500) ?? 0) + (proxy.counts.get(503) ?? 0),
      answered429: proxy.counts.get(429) ?? 0,
      passedThrough: proxy.counts.get(0) ?? 0,
    };
    console.log(`    [asp-outage] ${JSON.stringify(counts)}; all acknowledged ${allAckAfter.toFixed(1)} s after the window ended`);
    expect(counts.answered429, '429s were served too').to.be.greaterThan(0);
    expect(counts).to.deep.include({ stored: ids.length, acknowledged: ids.length, exactlyOnce: ids.length, duplicated: 0, secondRuns: 0 });
  });
});
