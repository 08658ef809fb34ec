import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { freePort, waitUntil } from '../../scripts/infra/net';
import { killOnExit, stopChild } from '../../scripts/infra/process';
import { verifyWebhook } from '../../src/webhooks/verify';
import { temporalClient } from '../../src/temporal/client';
import { invoiceBody } from '../helpers/invoices';
import { newPartner } from '../helpers/partners';
import { WebhookReceiver } from '../helpers/webhook-receiver';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The README walk-through with the real process layout: the API (src/server.ts) and the worker (src/worker.ts)
 * as separate processes on their own task queue, an integrator speaking HTTP to the API, and the simulated ASP
 * acknowledging from inside the worker process.
 */
describe('e2e: submit an invoice to a separately running API and worker and watch it reach acknowledged', function () {
  this.timeout(180_000);
  const children: ChildProcess[] = [];
  let base = '';
  const taskQueue = `e2e-${randomUUID().slice(0, 8)}`;

  before(async () => {
    const port = await freePort();
    const env = { ...process.env, PORT: String(port), TEMPORAL_TASK_QUEUE: taskQueue, LOG_LEVEL: 'warn' };
    for (const entry of ['src/worker.ts', 'src/server.ts']) {
      const child = spawn(process.execPath, ['--require', 'tsx/cjs', entry], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
      killOnExit(child);
      children.push(child);
    }
    base = `http://127.0.0.1:${port}`;
    const up = await waitUntil(async () => (await fetch(`${base}/readyz`).catch(() => null))?.ok === true, 90_000, 250);
    expect(up, 'the API process answered /readyz').to.equal(true);
  });
  after(async () => {
    await Promise.all(children.map((c) => stopChild(c)));
  });

  it('POST -> 201 queued; GET shows queued ... acknowledged; one signed webhook (delivered); Temporal finds it by InvoiceStatus', async () => {
    const hook = await WebhookReceiver.start();
    try {
      const p = await newPartner({ webhookUrl: hook.url });
      const body = invoiceBody(p);
      const post = await fetch(`${base}/v1/partner/invoices`, {
        method: 'POST',
        headers: { ...p.headers, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
        body: JSON.stringify(body),
      });
      expect(post.status).to.equal(201);
      const queued = (await post.json()) as { invoiceId: string; status: string };
      expect(queued.status).to.equal('queued');

      let status = '';
      let got: any;
      for (const deadline = Date.now() + 120_000; status !== 'acknowledged' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
        got = await (await fetch(`${base}/v1/partner/invoices/${queued.invoiceId}`, { headers: p.headers })).json();
        status = got.status;
      }
      expect(status).to.equal('acknowledged');
      expect(got.history.map((h: any) => h.status)).to.deep.equal(['queued', 'transformed', 'validated', 'delivered', 'acknowledged']);

      const [req] = await hook.waitForRequests(1);
      const verified = verifyWebhook(req.rawBody, req.headers, p.webhookSecret);
      expect(verified).to.have.property('ok', true);
      expect(JSON.parse(req.rawBody)).to.include({ event: 'invoice.status_changed', invoiceId: queued.invoiceId, status: 'delivered', erpPartnerId: p.partnerId });

      const client = await temporalClient();
      const query = `InvoiceStatus="acknowledged" AND InvoiceNumber="${body.number}"`;
      let found: string[] = [];
      for (const deadline = Date.now() + 30_000; found.length === 0 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
        found = [];
        for await (const wf of client.workflow.list({ query })) found.push(`${wf.workflowId} ${wf.taskQueue}`);
      }
      expect(found).to.deep.equal([`invoice-${queued.invoiceId} ${taskQueue}`]);
      expect(hook.requests).to.have.length(1);
    } finally {
      await hook.close();
    }
  });
});
