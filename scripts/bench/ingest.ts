// npm run bench:ingest — Partner API ingest throughput and latency, and end-to-end pipeline time.
//
// Provisions its own throw-away Temporal dev server and MongoDB-compatible server (scripts/infra, as the tests
// do), runs the API (src/server.ts) and, for the last part, a worker (src/worker.ts) as processes of their own, as
// bench:e2e does, with this process only generating the load. It prints:
//   1. POST /v1/partner/invoices and POST /v1/partner/invoices/bulk (100 items) at 1, 16 and 64 concurrent
//      clients: requests/s, invoices/s, p50 and p99 latency, and the CPU each process spent per invoice. The ingest
//      phase starts workflows on a task queue no worker polls, so it measures the API's own work (auth, rate limit,
//      idempotency, joi, pre-submit, insert, workflow start) without the pipeline competing for the CPU.
//   2. A bare Koa endpoint in its own process (scripts/bench/bare-koa.ts) that only parses the JSON body and
//      inserts it into MongoDB, under the same load, and our invoices/s as a fraction of its requests/s.
//   3. End to end in test mode: 1,000 invoices POSTed (bulk, 100 a request, 4 clients) with the worker running;
//      time until all are acknowledged, and each invoice's created -> acknowledged latency (from its stored status
//      history). Capped at BENCH_E2E_LIMIT_S (240 s): a slow storage backend then prints how far it got.
// Each row starts from empty invoice and idempotency collections (so rows compare alike). At its deadline the
// clients stop sending; requests still in flight are awaited (so the servers are idle before the next row) but
// not counted in the row's throughput.
import './quiet-logs';
import mongoose from 'mongoose';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { provisionInfra } from '../infra';
import { freePort } from '../infra/net';
import { connectMongo, disconnectMongo } from '../../src/db/connection';
import { IdempotencyRecord, Invoice } from '../../src/db/models';
import { connectSme, createPartner, updatePartner } from '../../src/services/admin';
import { startChild, waitForApi, waitForWorker, type Child } from './e2e-procs';
import { waitOutOfPipeline } from './pipeline-wait';
import { cmdlineOf, cpuReading, cpuUsed, type CpuGroup } from './proc-cpu';

const SECONDS_PER_RUN = Number(process.env.BENCH_SECONDS || 5);
const BULK_SECONDS_PER_RUN = Number(process.env.BENCH_BULK_SECONDS || 8);
const CONCURRENCY = [1, 16, 64];
const E2E_INVOICES = Number(process.env.BENCH_E2E_INVOICES || 1000);
const E2E_CLIENTS = 4;
/** BENCH_ROWS=bulk (or single,bare) runs only those ingest rows; BENCH_SKIP_E2E=1 skips the end-to-end phase. */
const ROWS = new Set((process.env.BENCH_ROWS || 'single,bulk,bare').split(','));
const SKIP_E2E = process.env.BENCH_SKIP_E2E === '1';
const E2E_LIMIT_MS = Number(process.env.BENCH_E2E_LIMIT_S || 240) * 1000;
const SME_TRN = '100123456700003';
const TEMPLATE = JSON.parse(fs.readFileSync(path.join(__dirname, '../../test/fixtures/bodies/01-tax-invoice-minimal.json'), 'utf8'));

interface Run {
  label: string;
  clients: number;
  requests: number;
  invoices: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU seconds per process group over the row's timed window. */
  cpu: Record<string, number>;
}

let serial = 0;
function body(): Record<string, unknown> {
  const b = structuredClone(TEMPLATE);
  b.trn = b.seller.trn = SME_TRN;
  b.number = `B-${process.pid}-${++serial}`;
  return b;
}

function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))] : NaN;
}

let cpuGroups: CpuGroup[] = [];
const cpuNow = () => cpuReading(cpuGroups);

/**
 * `clients` loops send requests until the deadline. A request answered after it still runs to its end (so the
 * servers are idle when the next row starts) but counts in neither throughput nor latency.
 * `send` returns how many invoices the request carried and whether it succeeded.
 */
async function load(label: string, clients: number, send: () => Promise<{ invoices: number; ok: boolean }>, seconds = SECONDS_PER_RUN): Promise<Run> {
  const latencies: number[] = [];
  let invoices = 0;
  let errors = 0;
  const cpu0 = cpuNow();
  const start = performance.now();
  const end = start + seconds * 1000;
  let cpu1: Record<string, number> | null = null;
  const timer = setTimeout(() => (cpu1 = cpuNow()), seconds * 1000);
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const res = await send();
        const done = performance.now();
        if (done > end) break;
        latencies.push(done - t);
        if (res.ok) invoices += res.invoices;
        else errors++;
      }
    }),
  );
  clearTimeout(timer);
  cpu1 ??= cpuNow();
  latencies.sort((a, b) => a - b);
  return { label, clients, requests: latencies.length, invoices, seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), errors, cpu: cpuUsed(cpu0, cpu1, 'rest') };
}

/** Empty invoice, idempotency and baseline collections (deleteMany: FerretDB cannot re-create dropped indexes), so each row starts alike. */
async function freshCollections(): Promise<void> {
  await Invoice.deleteMany({});
  await IdempotencyRecord.deleteMany({});
  await mongoose.connection.db!.collection('bench_bare').deleteMany({});
}

function post(url: string, headers: Record<string, string>, payload: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(payload) });
}

function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '-';
}

function printRuns(runs: Run[]): void {
  console.log(`${'endpoint'.padEnd(46)}${'clients'.padStart(8)}${'requests'.padStart(10)}${'req/s'.padStart(9)}${'invoices/s'.padStart(12)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}`);
  for (const r of runs) {
    console.log(
      `${r.label.padEnd(46)}${String(r.clients).padStart(8)}${String(r.requests).padStart(10)}${fmt(r.requests / r.seconds, 1).padStart(9)}${fmt(r.invoices / r.seconds, 1).padStart(12)}${fmt(r.p50, 1).padStart(9)}${fmt(r.p99, 1).padStart(9)}${String(r.errors).padStart(8)}`,
    );
  }
  const groups = Object.keys(runs[0]?.cpu ?? {});
  console.log(`\nCPU per invoice (ms) over each row, ${os.cpus().length} cores ("bench" is the load generator, "rest" what is not ours)`);
  console.log(`${'endpoint'.padEnd(46)}${'clients'.padStart(8)}${groups.map((g) => g.padStart(10)).join('')}${'busy %'.padStart(8)}`);
  for (const r of runs) {
    const busy = Object.values(r.cpu).reduce((x, y) => x + y, 0) / r.seconds / os.cpus().length;
    console.log(`${r.label.padEnd(46)}${String(r.clients).padStart(8)}${groups.map((g) => fmt((1000 * r.cpu[g]) / r.invoices, 2).padStart(10)).join('')}${fmt(100 * busy, 0).padStart(8)}`);
  }
}

/** The [throughput] issue's ingest targets beside what this run measured. */
function printTargets(runs: Run[]): void {
  const row = (label: string, clients: number) => runs.find((r) => r.label.startsWith(label) && r.clients === clients)!;
  const bestBulk = Math.max(...CONCURRENCY.map((c) => row('POST /v1/partner/invoices/bulk', c)).map((r) => r.invoices / r.seconds));
  const single16 = row('POST /v1/partner/invoices', 16);
  const lines: [string, string, string, boolean][] = [
    ['bulk(100) invoices/s (best concurrency)', fmt(bestBulk, 1), '>= 300', bestBulk >= 300],
    ['single POST invoices/s at 16 clients', fmt(single16.invoices / single16.seconds, 1), '>= 150', single16.invoices / single16.seconds >= 150],
    ['single POST p99 at 16 clients', `${fmt(single16.p99, 0)} ms`, '< 150 ms', single16.p99 < 150],
  ];
  console.log(`
${'target'.padEnd(42)}${'measured'.padEnd(14)}${'target'.padEnd(12)}met`);
  for (const [what, measured, target, met] of lines) console.log(`${what.padEnd(42)}${measured.padEnd(14)}${target.padEnd(12)}${met ? 'yes' : 'NO'}`);
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const infra = await provisionInfra('test');
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
  const ingestQueue = `bench-ingest-${randomUUID().slice(0, 8)}`; // no worker polls it
  const pipelineQueue = `bench-pipeline-${randomUUID().slice(0, 8)}`;
  const children: Child[] = [];
  try {
    await connectMongo(infra.mongo.uri);
    const childEnv = (queue: string, port: number) => ({ ...process.env, MONGODB_URI: infra.mongo.uri, TEMPORAL_ADDRESS: infra.temporal.address, TEMPORAL_TASK_QUEUE: queue, PORT: String(port), LOG_LEVEL: 'warn' });
    const [apiPort, barePort] = [await freePort(), await freePort()];
    const apiBase = `http://127.0.0.1:${apiPort}`;
    const bareBase = `http://127.0.0.1:${barePort}`;
    // BENCH_PROFILE=1: a V8 CPU profile of the API (.cpuprofile in the log folder, written at exit); BENCH_PERF=1:
    // the API with --perf-basic-prof, for `perf record -p <pid>` (V8's profile counts time preempted as busy).
    const profiled = (name: string) => (process.env.BENCH_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${logDir}/${name}-profile`] : process.env.BENCH_PERF === '1' ? ['--perf-basic-prof'] : []);
    let api = startChild('api', 'src/server.ts', childEnv(ingestQueue, apiPort), logDir, profiled('api'));
    const bare = startChild('bare-koa', 'scripts/bench/bare-koa.ts', childEnv(ingestQueue, barePort), logDir);
    children.push(api, bare);
    await waitForApi(apiBase, api);
    await waitForApi(bareBase, bare);
    // PostgreSQL backends name their database in their process title (as in bench:e2e).
    const pgDatabase = /postgresql-url=\S*\/([^/?\s]+)/.exec(cmdlineOf(infra.mongo.pid))?.[1];
    cpuGroups = [
      { name: 'API', roots: [api.proc.pid] },
      { name: 'bare Koa', roots: [bare.proc.pid] },
      { name: 'FerretDB', roots: [infra.mongo.pid] },
      ...(pgDatabase ? [{ name: 'postgres', comm: 'postgres', cmdline: ` ${pgDatabase} ` }] : []),
      { name: 'Temporal', roots: [infra.temporal.pid] },
      { name: 'bench', self: true },
    ];

    const partner = await createPartner({ name: 'Bench ERP', mode: 'test' });
    await updatePartner(partner.partnerId, { rateLimitPerMinute: 1_000_000_000 }); // measure the work, not the budget
    const sme = await connectSme({ partnerId: partner.partnerId, trn: SME_TRN, name: 'Bench SME LLC' });
    const headers = { 'X-API-Key': partner.apiKey, 'X-API-Secret': partner.apiSecret, 'x-erp-partner-secret': sme.connectionSecret };

    const single = async () => {
      const res = await post(`${apiBase}/v1/partner/invoices`, { ...headers, 'Idempotency-Key': randomUUID() }, body());
      await res.arrayBuffer();
      return { invoices: 1, ok: res.status === 201 };
    };
    const bulk = async () => {
      const res = await post(`${apiBase}/v1/partner/invoices/bulk`, { ...headers, 'Idempotency-Key': randomUUID() }, { invoices: Array.from({ length: 100 }, body) });
      const parsed = (await res.json()) as { summary?: { ok: number; failed: number } };
      return { invoices: parsed.summary?.ok ?? 0, ok: res.status === 207 && parsed.summary?.failed === 0 };
    };
    const baseline = async () => {
      const res = await post(`${bareBase}/bare`, {}, body());
      await res.arrayBuffer();
      return { invoices: 1, ok: res.status === 201 };
    };
    const row = async (label: string, clients: number, send: typeof single, seconds = SECONDS_PER_RUN) => {
      await freshCollections();
      await load('settle', Math.min(clients, 4), send, 1); // untimed: lets the storage settle after the clean-up
      await freshCollections();
      const r = await load(label, clients, send, seconds);
      process.stderr.write(`[bench] ${label} x${clients}: ${r.requests} requests\n`);
      return r;
    };

    console.log(`\nStorage: ${infra.mongo.how}\nLogs of the API and the baseline: ${logDir}`);
    console.log(`Ingest (${SECONDS_PER_RUN} s per row, bulk ${BULK_SECONDS_PER_RUN} s; pipeline not running: its task queue is not polled)\n`);
    await load('warm-up', 4, single, 2);
    await load('warm-up', 2, baseline, 1);
    const runs: Run[] = [];
    if (ROWS.has('single')) for (const c of CONCURRENCY) runs.push(await row('POST /v1/partner/invoices', c, single));
    if (ROWS.has('bulk')) for (const c of CONCURRENCY) runs.push(await row('POST /v1/partner/invoices/bulk (100 per request)', c, bulk, BULK_SECONDS_PER_RUN));
    if (ROWS.has('bare')) for (const c of CONCURRENCY) runs.push(await row('bare Koa: parse JSON + insertOne', c, baseline));
    printRuns(runs);
    if (ROWS.size < 3) {
      console.log(`\nPartial run (BENCH_ROWS=${[...ROWS].join(',')}): the comparison, the targets and end to end are not printed.`);
      return;
    }
    const rate = (label: string, c: number) => {
      const r = runs.find((x) => x.label.startsWith(label) && x.clients === c)!;
      return r.invoices / r.seconds;
    };
    console.log('\nOur invoices/s as a fraction of the bare endpoint at the same concurrency:');
    for (const c of CONCURRENCY) {
      const b = rate('bare', c);
      console.log(`  ${String(c).padStart(2)} clients: single ${fmt((100 * rate('POST /v1/partner/invoices', c)) / b, 1)}%, bulk ${fmt((100 * rate('POST /v1/partner/invoices/bulk', c)) / b, 1)}%`);
    }
    printTargets(runs);
    if (SKIP_E2E) return;

    // End to end: a worker on its own queue, and an API (restarted) starting workflows there.
    await freshCollections();
    await api.stop();
    api = startChild('api-e2e', 'src/server.ts', childEnv(pipelineQueue, apiPort), logDir);
    const worker = startChild('worker', 'src/worker.ts', childEnv(pipelineQueue, await freePort()), logDir);
    children.push(api, worker);
    await waitForApi(apiBase, api);
    await waitForWorker(infra.temporal.address, pipelineQueue, worker);
    const e2ePartner = await createPartner({ name: 'Bench ERP e2e', mode: 'test' });
    await updatePartner(e2ePartner.partnerId, { rateLimitPerMinute: 1_000_000_000 });
    const e2eSme = await connectSme({ partnerId: e2ePartner.partnerId, trn: SME_TRN, name: 'Bench SME LLC' });
    const e2eHeaders = { 'X-API-Key': e2ePartner.apiKey, 'X-API-Secret': e2ePartner.apiSecret, 'x-erp-partner-secret': e2eSme.connectionSecret };
    console.log(`\nEnd to end (test mode, worker running): ${E2E_INVOICES} invoices POSTed in bulk requests of 100 by ${E2E_CLIENTS} clients (posting stops after ${E2E_LIMIT_MS / 2000} s, waiting after ${E2E_LIMIT_MS / 1000} s)`);
    const started = Date.now();
    const batches = Array.from({ length: Math.ceil(E2E_INVOICES / 100) }, (_, i) => Math.min(100, E2E_INVOICES - i * 100));
    let submitted = 0;
    let postErrors = 0;
    const ids: string[] = [];
    const postingEnds = started + E2E_LIMIT_MS / 2; // leave the other half for the pipeline to finish
    await Promise.all(
      Array.from({ length: E2E_CLIENTS }, async () => {
        for (let size = batches.shift(); size !== undefined && Date.now() < postingEnds; size = batches.shift()) {
          const res = await post(`${apiBase}/v1/partner/invoices/bulk`, { ...e2eHeaders, 'Idempotency-Key': randomUUID() }, { invoices: Array.from({ length: size }, body) });
          const parsed = (await res.json()) as { summary?: { ok: number; failed: number }; results?: { invoiceId?: string }[] };
          submitted += parsed.summary?.ok ?? 0;
          postErrors += size - (parsed.summary?.ok ?? 0);
          for (const r of parsed.results ?? []) if (r.invoiceId) ids.push(r.invoiceId);
        }
      }),
    );
    const postedMs = Date.now() - started;
    process.stderr.write(`[bench] ${submitted} invoices accepted after ${fmt(postedMs / 1000, 1)} s; waiting for acknowledgements\n`);
    await waitOutOfPipeline(ids, started + E2E_LIMIT_MS, { pollMs: 250, note: (progress) => process.stderr.write(`[bench] ${progress}\n`) });
    const docs = await Invoice.find({ partnerId: e2ePartner.partnerId, status: 'acknowledged' }, { createdAt: 1, history: 1 }).lean();
    const acknowledged = docs.length;
    const ackAt = (d: (typeof docs)[number]) => new Date(d.history.find((h) => h.status === 'acknowledged')!.at).getTime();
    const allMs = acknowledged ? Math.max(...docs.map(ackAt)) - started : Date.now() - started;
    const latencies = docs
      .map((d) => ackAt(d) - new Date(d.createdAt as Date).getTime())
      .sort((a, b) => a - b);
    console.log(`  ${submitted} of ${E2E_INVOICES} accepted after ${fmt(postedMs / 1000, 1)} s (${fmt(submitted / (postedMs / 1000), 1)} invoices/s while the pipeline ran), ${postErrors} refused or failed`);
    console.log(`  ${acknowledged} acknowledged after ${fmt(allMs / 1000, 1)} s: ${fmt(acknowledged / (allMs / 1000), 1)} invoices/s through the whole pipeline${acknowledged < submitted || submitted < E2E_INVOICES ? ' (time limit reached: BENCH_E2E_LIMIT_S)' : ''}`);
    console.log(`  per invoice, created -> acknowledged: p50 ${fmt(percentile(latencies, 0.5))} ms, p99 ${fmt(percentile(latencies, 0.99))} ms, max ${fmt(latencies[latencies.length - 1])} ms`);
    console.log(`\nTotal benchmark time ${fmt((Date.now() - t0) / 1000)} s on ${os.cpus().length} CPUs.`);
  } finally {
    for (const c of children) await c.stop();
    await disconnectMongo();
    await infra.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
