import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { freePort, waitUntil } from '../../scripts/infra/net';
import { killOnExit, stopChild } from '../../scripts/infra/process';
import { resetConfig } from '../../src/config';
import { logger, tapLogLines } from '../../src/logger';
import { serveWorkerMetrics } from '../../src/worker-metrics';
import { call } from '../helpers/http';
import { invoiceBody, waitForStatus } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { WebhookReceiver } from '../helpers/webhook-receiver';
import { ensureWorker, sdkMetricsUrl } from '../helpers/worker';

type Line = Record<string, any>;

const waitFor = async <T>(what: string, probe: () => T | undefined | null | false, ms = 15_000): Promise<T> => {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const found = probe();
    if (found) return found;
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** Runs fn with METRICS_TOKEN set (config re-read), then restores the environment. */
async function withMetricsToken(token: string, fn: () => Promise<void>): Promise<void> {
  const before = process.env.METRICS_TOKEN;
  process.env.METRICS_TOKEN = token;
  resetConfig();
  try {
    await fn();
  } finally {
    if (before === undefined) delete process.env.METRICS_TOKEN;
    else process.env.METRICS_TOKEN = before;
    resetConfig();
  }
}

/**
 * Issue 12 item 5: one invoice through the real API and the real worker, its log lines (API and pipeline) read back
 * through a tap on the logger's destination, and /metrics afterwards.
 */
describe('observability: ids on every log line of one invoice, business metrics on /metrics', function () {
  this.timeout(120_000);
  let tap: ReturnType<typeof tapLogLines>;
  let level: string;
  let hook: WebhookReceiver;
  let p: TestPartner;
  const requestId = `obs-${randomUUID()}`;
  let invoiceId = '';
  let lines: Line[] = [];

  before(async () => {
    await ensureWorker();
    level = logger.level;
    logger.level = 'info';
    tap = tapLogLines();
    hook = await WebhookReceiver.start();
    p = await newPartner({ webhookUrl: hook.url });
    const post = await call('POST', '/v1/partner/invoices', {
      headers: { ...p.headers, 'Idempotency-Key': randomUUID(), 'X-Request-Id': requestId },
      json: invoiceBody(p),
    });
    expect(post.status, post.text).to.equal(201);
    invoiceId = post.body.invoiceId;
    await waitForStatus(p, invoiceId, 'acknowledged');
    await hook.waitForRequests(1);
    lines = await waitFor('the pipeline lines and the webhook attempt', () => {
      const mine = tap.lines.filter((l) => l.invoiceId === invoiceId);
      return mine.some((l) => l.msg === 'invoice acknowledged') && mine.some((l) => l.msg === 'webhook attempt delivered') ? mine : null;
    });
  });

  after(async () => {
    tap?.stop();
    logger.level = level;
    await hook?.close();
  });

  it("the POST's request line carries request id, partner, SME, route, the created invoice and its workflow", () => {
    const line = lines.find((l) => l.msg === 'request' && l.method === 'POST');
    expect(line, 'request line of the POST').to.not.equal(undefined);
    expect(line).to.include({
      requestId,
      partnerId: p.partnerId,
      smeId: p.sme.smeId,
      invoiceId,
      workflowId: `invoice-${invoiceId}`,
      route: '/v1/partner/invoices',
      status: 201,
    });
    const get = lines.find((l) => l.msg === 'request' && l.method === 'GET' && l.route === '/v1/partner/invoices/:id');
    expect(get, 'a GET of the invoice names it from the route').to.include({ invoiceId, partnerId: p.partnerId, smeId: p.sme.smeId });
  });

  it('the worker logs each step outcome at info with invoice, workflow, run and activity', () => {
    const steps = lines.filter((l) => l.level === 30 && /^invoice (transformed|validated|delivered|acknowledged)$/.test(l.msg));
    expect(steps.map((l) => l.msg)).to.deep.equal(['invoice transformed', 'invoice validated', 'invoice delivered', 'invoice acknowledged']);
    for (const l of steps) {
      expect(l).to.include({ invoiceId, workflowId: `invoice-${invoiceId}` });
      expect(l.runId, `${l.msg}: Temporal run id`).to.be.a('string').and.not.equal('');
      expect(l.activity, `${l.msg}: activity`).to.be.a('string');
      expect(l.run, `${l.msg}: the invoice's run`).to.equal(1);
    }
    expect(steps.map((l) => l.from)).to.deep.equal(['queued', 'transformed', 'validated', 'delivered']);
    expect(lines.find((l) => l.msg === 'handed to the ASP')).to.include({ mode: 'test', workflowId: `invoice-${invoiceId}`, activity: 'deliverInvoice' });
    const webhook = lines.find((l) => l.msg === 'webhook attempt delivered');
    expect(webhook).to.include({ outcome: 'delivered', httpStatus: 200, attempt: 1, activity: 'attemptWebhookDelivery' });
    expect(webhook!.workflowId).to.match(/^webhook-/);
  });

  it('a rejected invoice: the ASP refusal and the rejected line say why, at info', async () => {
    const post = await call('POST', '/v1/partner/invoices', {
      headers: { ...p.headers, 'Idempotency-Key': randomUUID() },
      json: invoiceBody(p, (b) => (b.buyer.name = 'Noor Electronics [asp:reject]')),
    });
    expect(post.status, post.text).to.equal(201);
    const id = post.body.invoiceId;
    await waitForStatus(p, id, 'rejected');
    const rejected = await waitFor('the rejected line', () => tap.lines.find((l) => l.invoiceId === id && l.msg === 'invoice rejected'));
    expect(rejected).to.include({ level: 30, from: 'validated', to: 'rejected', workflowId: `invoice-${id}` });
    expect(rejected.reason).to.contain('buyer_trn_invalid');
    const refused = tap.lines.find((l) => l.invoiceId === id && l.msg === 'ASP refused the hand-over');
    expect(refused?.reason).to.contain('buyer_trn_invalid');
  });

  it('every line naming the invoice names its workflow; no secret or body appears in any line', () => {
    for (const l of lines) expect(l.workflowId, `${l.msg} has a workflow id`).to.be.a('string');
    const all = tap.lines.map((l) => JSON.stringify(l)).join('\n');
    for (const secret of [p.apiSecret, p.sme.connectionSecret, p.webhookSecret]) expect(all).to.not.contain(secret);
    expect(all).to.not.contain('<Invoice'); // the rendered XML
  });

  it('redacts credentials passed to the logger by mistake', () => {
    const own = tapLogLines();
    try {
      logger.info(
        { headers: { authorization: 'Bearer abc', 'x-api-secret': 's1', 'x-erp-partner-secret': 's2' }, clientSecret: 's3', asp: { accessToken: 's4', token: 's5' } },
        'redaction probe',
      );
    } finally {
      own.stop();
    }
    const [line] = own.lines;
    expect(line.headers).to.deep.equal({ authorization: '[redacted]', 'x-api-secret': '[redacted]', 'x-erp-partner-secret': '[redacted]' });
    expect(line).to.include({ clientSecret: '[redacted]' });
    expect(line.asp).to.deep.equal({ accessToken: '[redacted]', token: '[redacted]' });
  });

  it('/metrics: transitions, step times, route-pattern labels, webhook and ASP outcomes; no ids in labels', async () => {
    const res = await call('GET', '/metrics');
    expect(res.status).to.equal(200);
    const text = res.text;
    for (const [from, to] of [
      ['queued', 'transformed'],
      ['transformed', 'validated'],
      ['validated', 'delivered'],
      ['delivered', 'acknowledged'],
    ]) {
      expect(text).to.match(new RegExp(`^einvoice_invoice_status_transitions_total\\{from="${from}",to="${to}"\\} [1-9]`, 'm'));
    }
    for (const activity of ['prepareInvoiceDocument', 'deliverInvoice', 'confirmAspVerdict', 'attemptWebhookDelivery']) {
      expect(text).to.match(new RegExp(`^einvoice_activity_duration_seconds_count\\{activity="${activity}",result="ok"\\} [1-9]`, 'm'));
    }
    expect(text).to.match(/^http_requests_total\{method="POST",route="\/v1\/partner\/invoices",status="201"\} [1-9]/m);
    expect(text).to.match(/^http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/v1\/partner\/invoices\/:id",status="200"\} [1-9]/m);
    expect(text).to.match(/^einvoice_webhook_attempts_total\{outcome="delivered",kind="partner_webhook"\} [1-9]/m);
    expect(text).to.match(/^einvoice_asp_calls_total\{mode="test",call="submit",outcome="accepted"\} [1-9]/m);
    expect(text).to.match(/^# TYPE einvoice_activity_failures_total counter/m);
    expect(text).to.not.contain(invoiceId);
  });

  it('METRICS_TOKEN set: /metrics answers 401 without the bearer token or with a wrong one, 200 with it', async () => {
    await withMetricsToken('m-token-1', async () => {
      expect((await call('GET', '/metrics')).status).to.equal(401);
      expect((await call('GET', '/metrics', { headers: { Authorization: 'Bearer wrong' } })).status).to.equal(401);
      const ok = await call('GET', '/metrics', { headers: { Authorization: 'Bearer m-token-1' } });
      expect(ok.status).to.equal(200);
      expect(ok.text).to.contain('einvoice_invoice_status_transitions_total');
    });
    expect((await call('GET', '/metrics')).status, 'unset: open again').to.equal(200);
  });

  it("the worker's /metrics (WORKER_METRICS_PORT) serves its registry and the Temporal SDK's metrics, behind the same token", async () => {
    const server: Server = await serveWorkerMetrics({ port: 0, host: '127.0.0.1', sdkMetricsUrl: sdkMetricsUrl() });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
      const text = await (await fetch(url)).text();
      expect(text).to.match(/^einvoice_activity_duration_seconds_count\{activity="deliverInvoice",result="ok"\} [1-9]/m);
      expect(text, 'the SDK exporter').to.match(/^temporal_\w+/m);
      await withMetricsToken('m-token-2', async () => {
        expect((await fetch(url)).status).to.equal(401);
        expect((await fetch(url, { headers: { Authorization: 'Bearer m-token-2' } })).status).to.equal(200);
      });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('src/worker.ts with WORKER_METRICS_PORT serves /metrics with the SDK exporter wired by Runtime.install', async () => {
    const port = await freePort();
    const env = { ...process.env, WORKER_METRICS_PORT: String(port), TEMPORAL_TASK_QUEUE: `obs-${randomUUID().slice(0, 8)}`, LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/worker.ts'], { cwd: path.resolve(__dirname, '../..'), env, stdio: ['ignore', 'ignore', 'inherit'] });
    killOnExit(child);
    try {
      let text = '';
      const up = await waitUntil(
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => null);
          text = res?.ok ? await res.text() : '';
          return /^temporal_\w+/m.test(text);
        },
        90_000,
        250,
      );
      expect(up, `worker /metrics with temporal_* lines; last scrape:\n${text.slice(0, 500)}`).to.equal(true);
      expect(text).to.match(/^# TYPE einvoice_invoice_status_transitions_total counter/m);
      expect(text).to.match(/^process_cpu_user_seconds_total /m);
    } finally {
      await stopChild(child);
    }
  });
});
