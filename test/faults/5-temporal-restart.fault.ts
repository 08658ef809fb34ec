// Fault: the Temporal server killed (-9) and started again under load (issue 13, item 1). This scenario runs its own
// dev server with a file database (the suite's is in memory), so a restart keeps its workflows. While Temporal is
// away the API cannot start a workflow: SPEC 3.1's "automatic submit crashed -> draft" row answers draft (never
// queued without a workflow), and POST .../retry recovers it. The API and the worker must reconnect by themselves.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Invoice } from '../../src/db/models';
import { ensureTemporal, type TemporalHandle } from '../../scripts/infra/temporal-server';
import { freePort } from '../../scripts/infra/net';
import { postJson, sleep, startFaultStack, until, type FaultStack } from '../../scripts/faults/stack';
import { invoiceBody } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';

const DOWN_MS = Number(process.env.FAULTS_TEMPORAL_DOWN_MS || 25_000);

describe('fault: the Temporal server restarted under load', function () {
  this.timeout(10 * 60_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-faults-temporal-'));
  let port: number;
  let temporal: TemporalHandle;
  let stack: FaultStack;
  let p: TestPartner;

  const startTemporal = () => ensureTemporal({ namespace: 'default', dataDir, port, uiPort: null, logDir: dataDir });

  before(async () => {
    port = await freePort();
    temporal = await startTemporal();
    stack = await startFaultStack({ TEMPORAL_ADDRESS: temporal.address });
    p = await newPartner();
  });

  after(async () => {
    await stack?.stop();
    await temporal?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('every accepted invoice ends acknowledged: queued ones by themselves, drafts after a retry; API and worker not restarted', async () => {
    const answers: { invoiceId: string; status: string; sentAt: number }[] = [];
    const refused: number[] = [];
    let slowest = 0;
    let loading = true;
    const client = async () => {
      while (loading) {
        const t = Date.now();
        const res = await postJson(`${stack.base}/v1/partner/invoices`, p.headers, invoiceBody(p)).catch(() => null);
        slowest = Math.max(slowest, Date.now() - t);
        if (res?.status === 201) answers.push({ invoiceId: res.body.invoiceId, status: res.body.status, sentAt: t });
        else refused.push(res?.status ?? 0);
        await sleep(100);
      }
    };
    const clients = Array.from({ length: 4 }, client);

    await until('some invoices acknowledged before the fault', async () => (await Invoice.countDocuments({ smeId: p.sme.smeId, status: 'acknowledged' })) >= 20, 60_000, 200);
    process.kill(temporal.pid!, 'SIGKILL');
    const killedAt = Date.now();
    await sleep(DOWN_MS);
    temporal = await startTemporal();
    const backAt = Date.now();
    const downFor = backAt - killedAt;
    await sleep(5000); // load goes on against the restarted server
    loading = false;
    await Promise.all(clients);
    const duringDown = answers.filter((a) => a.sentAt >= killedAt && a.sentAt < backAt);

    const byStatus = (list: { status: string }[]) => list.reduce<Record<string, number>>((acc, a) => ((acc[a.status] = (acc[a.status] ?? 0) + 1), acc), {});
    console.log(
      `    [temporal-restart] down ${(downFor / 1000).toFixed(1)} s; ${answers.length} invoices accepted (${JSON.stringify(byStatus(answers))}), ` +
        `of which ${duringDown.length} sent while it was away (${JSON.stringify(byStatus(duringDown))}); other answers ${JSON.stringify(refused)}; slowest request ${slowest} ms`,
    );
    expect(refused.filter((s) => s >= 500 && s !== 503), 'no 5xx other than 503').to.deep.equal([]);
    expect(answers.every((a) => a.status === 'queued' || a.status === 'draft')).to.equal(true);

    // Drafts: the SPEC's recovery, POST .../retry (a fresh key each; the invoice id is the stable part).
    // A draft whose start did reach Temporal (only the reply was lost) is re-queued by that run itself: by the
    // time of the retry it may be on its way, which the retry refuses (409, not a draft any more).
    const drafts = answers.filter((a) => a.status === 'draft');
    let pickedUp = 0;
    for (const d of drafts) {
      const res = await postJson(`${stack.base}/v1/partner/invoices/${d.invoiceId}/retry`, { ...p.headers, 'Idempotency-Key': randomUUID() }, undefined);
      const movedOn = res.status === 409 && res.body?.code === 'invalid_state_transition' && res.body?.meta?.status !== 'draft';
      if (movedOn) pickedUp++;
      else expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 202]);
    }
    const ids = answers.map((a) => a.invoiceId);
    await until(`all ${ids.length} acknowledged`, async () => (await Invoice.countDocuments({ _id: { $in: ids }, status: 'acknowledged' })) === ids.length, 5 * 60_000, 1000);
    const stored = await Invoice.countDocuments({ smeId: p.sme.smeId });
    const final = await Invoice.find({ smeId: p.sme.smeId }, { status: 1 }).lean();
    console.log(`    [temporal-restart] ${stored} stored, final ${JSON.stringify(byStatus(final))}; ${drafts.length - pickedUp} draft(s) retried, ${pickedUp} re-queued by their own run first; API and worker still the first processes: ${stack.api.proc.exitCode === null && stack.worker.proc.exitCode === null}`);
    expect(stored).to.equal(ids.length);
    expect(byStatus(final)).to.deep.equal({ acknowledged: ids.length });
    expect(stack.api.proc.exitCode, 'API process not restarted').to.equal(null);
    expect(stack.worker.proc.exitCode, 'worker process not restarted').to.equal(null);
  });
});
