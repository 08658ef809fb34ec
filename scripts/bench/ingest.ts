// npm run bench:ingest — Partner API ingest throughput and latency, and end-to-end pipeline time.
//
// Provisions its own throw-away Temporal dev server and MongoDB-compatible server (scripts/infra, as the tests
// do), runs the API and one worker in this process, and prints:
//   1. POST /v1/partner/invoices and POST /v1/partner/invoices/bulk (100 items) at 1, 16 and 64 concurrent
//      clients: requests/s, invoices/s, p50 and p99 latency. The ingest phase starts workflows on a task queue
//      no worker polls, so it measures the API's own work (auth, rate limit, idempotency, joi, pre-submit,
//      insert, workflow start) without the pipeline competing for the CPU.
//   2. A bare Koa endpoint that only parses the JSON body and inserts it into MongoDB, under the same load,
//      and our invoices/s as a fraction of its requests/s.
//   3. End to end in test mode: 1,000 invoices POSTed (bulk, 100 a request, 4 clients) with the worker running;
//      time until all are acknowledged, and each invoice's created -> acknowledged latency (from its stored status
//      history). Capped at BENCH_E2E_LIMIT_S (240 s): a slow storage backend then prints how far it got.
// Load generator, API and worker share this process (and its event loop), for ours and for the baseline alike.
// Each row starts from empty invoice and idempotency collections (so rows compare alike), and ends at its deadline:
// requests still in flight are abandoned, not counted, and the server drains before the next row.
import './quiet-logs';
import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import mongoose from 'mongoose';
import { setMaxListeners } from 'node:events';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DefaultLogger, Runtime, type Worker } from '@temporalio/worker';
import { provisionInfra } from '../infra';
import { createApp } from '../../src/api/app';
import { config, resetConfig } from '../../src/config';
import { connectMongo, disconnectMongo } from '../../src/db/connection';
import { IdempotencyRecord, Invoice } from '../../src/db/models';
import { connectSme, createPartner, updatePartner } from '../../src/services/admin';
import { closeTemporalClient } from '../../src/temporal/client';
import { createWorker } from '../../src/temporal/worker-factory';

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

/**
 * `clients` loops send requests until the deadline; then requests still in flight are aborted and not counted.
 * `send` gets the abort signal and returns how many invoices the request carried and whether it succeeded.
 */
async function load(label: string, clients: number, send: (signal: AbortSignal) => Promise<{ invoices: number; ok: boolean }>, seconds = SECONDS_PER_RUN): Promise<Run> {
  const latencies: number[] = [];
  let invoices = 0;
  let errors = 0;
  const stop = new AbortController();
  // Every request of the row listens on this one signal, and fetch lets go of its listener only when the response is
  // collected: thousands per row at 64 clients, which is expected here, not a leak warning worth a screenful.
  setMaxListeners(0, stop.signal);
  const start = performance.now();
  const deadline = setTimeout(() => stop.abort(), seconds * 1000);
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!stop.signal.aborted) {
        const t = performance.now();
        try {
          const res = await send(stop.signal);
          latencies.push(performance.now() - t);
          if (res.ok) invoices += res.invoices;
          else errors++;
        } catch (err) {
          if (!stop.signal.aborted) throw err;
        }
      }
    }),
  );
  clearTimeout(deadline);
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { label, clients, requests: latencies.length, invoices, seconds: elapsed, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), errors };
}

/**
 * Counts requests whose handler has not finished (a request the client abandoned still runs to its end), so a
 * row can wait for the abandoned ones of the previous row before it cleans the collections.
 */
function trackInFlight(app: Koa): () => number {
  let open = 0;
  app.middleware.unshift(async (_ctx, next) => {
    open++;
    try {
      await next();
    } finally {
      open--;
    }
  });
  return () => open;
}

async function drained(...counters: (() => number)[]): Promise<void> {
  while (counters.some((c) => c() > 0)) await new Promise((r) => setTimeout(r, 50));
}

/** Empty invoice, idempotency and baseline collections (deleteMany: FerretDB cannot re-create dropped indexes), so each row starts alike. */
async function freshCollections(): Promise<void> {
  await Invoice.deleteMany({});
  await IdempotencyRecord.deleteMany({});
  await mongoose.connection.db!.collection('bench_bare').deleteMany({});
}

async function listen(app: Koa): Promise<{ server: Server; base: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The baseline: parse the JSON body, insert it, answer 201. Nothing else. */
function bareApp(): Koa {
  const app = new Koa();
  const router = new Router();
  const collection = mongoose.connection.db!.collection('bench_bare');
  router.post('/bare', async (ctx) => {
    await collection.insertOne({ ...(ctx.request.body as object) });
    ctx.status = 201;
    ctx.body = { ok: true };
  });
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '1mb' })).use(router.routes());
  return app;
}

function post(url: string, headers: Record<string, string>, payload: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(payload), signal });
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
  const ingestQueue = `bench-ingest-${randomUUID().slice(0, 8)}`; // no worker polls it
  const pipelineQueue = `bench-pipeline-${randomUUID().slice(0, 8)}`;
  Object.assign(process.env, { MONGODB_URI: infra.mongo.uri, TEMPORAL_ADDRESS: infra.temporal.address, TEMPORAL_TASK_QUEUE: ingestQueue, LOG_LEVEL: 'warn' });
  resetConfig();
  await connectMongo(infra.mongo.uri);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  let worker: Worker | undefined;
  let workerDone: Promise<void> | undefined;
  const servers: Server[] = [];
  try {
    const partner = await createPartner({ name: 'Bench ERP', mode: 'test' });
    await updatePartner(partner.partnerId, { rateLimitPerMinute: 1_000_000_000 }); // measure the work, not the budget
    const sme = await connectSme({ partnerId: partner.partnerId, trn: SME_TRN, name: 'Bench SME LLC' });
    const headers = { 'X-API-Key': partner.apiKey, 'X-API-Secret': partner.apiSecret, 'x-erp-partner-secret': sme.connectionSecret };
    const apiApp = createApp();
    const bareKoa = bareApp();
    const inFlight = [trackInFlight(apiApp), trackInFlight(bareKoa)];
    const api = await listen(apiApp);
    const bare = await listen(bareKoa);
    servers.push(api.server, bare.server);

    const single = async (signal: AbortSignal) => {
      const res = await post(`${api.base}/v1/partner/invoices`, { ...headers, 'Idempotency-Key': randomUUID() }, body(), signal);
      await res.arrayBuffer();
      return { invoices: 1, ok: res.status === 201 };
    };
    const bulk = async (signal: AbortSignal) => {
      const res = await post(`${api.base}/v1/partner/invoices/bulk`, { ...headers, 'Idempotency-Key': randomUUID() }, { invoices: Array.from({ length: 100 }, body) }, signal);
      const parsed = (await res.json()) as { summary?: { ok: number; failed: number } };
      return { invoices: parsed.summary?.ok ?? 0, ok: res.status === 207 && parsed.summary?.failed === 0 };
    };
    const baseline = async (signal: AbortSignal) => {
      const res = await post(`${bare.base}/bare`, {}, body(), signal);
      await res.arrayBuffer();
      return { invoices: 1, ok: res.status === 201 };
    };
    const row = async (label: string, clients: number, send: typeof single, seconds = SECONDS_PER_RUN) => {
      await drained(...inFlight);
      await freshCollections();
      await load('settle', Math.min(clients, 4), send, 1); // untimed: lets the storage settle after the clean-up
      // (requests cut off at the settle's end are still running in the API: emptying their collections under them
      // made their final write miss, logged as "idempotency record was taken over before completion")
      await drained(...inFlight);
      await freshCollections();
      const r = await load(label, clients, send, seconds);
      process.stderr.write(`[bench] ${label} x${clients}: ${r.requests} requests\n`);
      return r;
    };

    console.log(`\nStorage: ${infra.mongo.how}`);
    console.log(`Ingest (${SECONDS_PER_RUN} s per row, bulk ${BULK_SECONDS_PER_RUN} s; pipeline not running: its task queue is not polled)\n`);
    await load('warm-up', 4, single, 2);
    await load('warm-up', 2, baseline, 1);
    const runs: Run[] = [];
    if (ROWS.has('single')) for (const c of CONCURRENCY) runs.push(await row('POST /v1/partner/invoices', c, single));
    if (ROWS.has('bulk')) for (const c of CONCURRENCY) runs.push(await row('POST /v1/partner/invoices/bulk (100 per request)', c, bulk, BULK_SECONDS_PER_RUN));
    if (ROWS.has('bare')) for (const c of CONCURRENCY) runs.push(await row('bare Koa: parse JSON + insertOne', c, baseline));
    await drained(...inFlight);
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

    // End to end: the worker on its own queue, the API starting workflows there.
    await freshCollections();
    process.env.TEMPORAL_TASK_QUEUE = pipelineQueue;
    resetConfig();
    worker = await createWorker({ address: config().temporalAddress, namespace: config().temporalNamespace, taskQueue: pipelineQueue });
    workerDone = worker.run();
    const e2ePartner = await createPartner({ name: 'Bench ERP e2e', mode: 'test' });
    await updatePartner(e2ePartner.partnerId, { rateLimitPerMinute: 1_000_000_000 });
    const e2eSme = await connectSme({ partnerId: e2ePartner.partnerId, trn: SME_TRN, name: 'Bench SME LLC' });
    const e2eHeaders = { 'X-API-Key': e2ePartner.apiKey, 'X-API-Secret': e2ePartner.apiSecret, 'x-erp-partner-secret': e2eSme.connectionSecret };
    console.log(`\nEnd to end (test mode, worker running): ${E2E_INVOICES} invoices POSTed in bulk requests of 100 by ${E2E_CLIENTS} clients (posting stops after ${E2E_LIMIT_MS / 2000} s, waiting after ${E2E_LIMIT_MS / 1000} s)`);
    const started = Date.now();
    const batches = Array.from({ length: Math.ceil(E2E_INVOICES / 100) }, (_, i) => Math.min(100, E2E_INVOICES - i * 100));
    let submitted = 0;
    let postErrors = 0;
    const stopPosting = new AbortController();
    const cap = setTimeout(() => stopPosting.abort(), E2E_LIMIT_MS / 2); // leave the other half for the pipeline to finish
    await Promise.all(
      Array.from({ length: E2E_CLIENTS }, async () => {
        for (let size = batches.shift(); size !== undefined && !stopPosting.signal.aborted; size = batches.shift()) {
          try {
            const res = await post(`${api.base}/v1/partner/invoices/bulk`, { ...e2eHeaders, 'Idempotency-Key': randomUUID() }, { invoices: Array.from({ length: size }, body) }, stopPosting.signal);
            const parsed = (await res.json()) as { summary?: { ok: number; failed: number } };
            submitted += parsed.summary?.ok ?? 0;
            postErrors += size - (parsed.summary?.ok ?? 0);
          } catch (err) {
            if (!stopPosting.signal.aborted) throw err;
          }
        }
      }),
    );
    clearTimeout(cap);
    const postedMs = Date.now() - started;
    submitted = await Invoice.countDocuments({ partnerId: e2ePartner.partnerId }); // includes items of requests cut off at the deadline
    process.stderr.write(`[bench] ${submitted} invoices accepted after ${fmt(postedMs / 1000, 1)} s; waiting for acknowledgements\n`);
    let acknowledged = 0;
    let lastReport = Date.now();
    while (acknowledged < submitted && Date.now() - started < E2E_LIMIT_MS) {
      await new Promise((r) => setTimeout(r, 500));
      acknowledged = await Invoice.countDocuments({ partnerId: e2ePartner.partnerId, status: 'acknowledged' });
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        process.stderr.write(`[bench] ${acknowledged} acknowledged after ${fmt((Date.now() - started) / 1000)} s\n`);
      }
    }
    const allMs = Date.now() - started;
    const docs = await Invoice.find({ partnerId: e2ePartner.partnerId, status: 'acknowledged' }, { createdAt: 1, history: 1 }).lean();
    acknowledged = docs.length;
    const latencies = docs
      .map((d) => new Date(d.history.find((h) => h.status === 'acknowledged')!.at).getTime() - new Date(d.createdAt as Date).getTime())
      .sort((a, b) => a - b);
    console.log(`  ${submitted} of ${E2E_INVOICES} accepted after ${fmt(postedMs / 1000, 1)} s (${fmt(submitted / (postedMs / 1000), 1)} invoices/s while the pipeline ran), ${postErrors} refused or failed`);
    console.log(`  ${acknowledged} acknowledged after ${fmt(allMs / 1000, 1)} s: ${fmt(acknowledged / (allMs / 1000), 1)} invoices/s through the whole pipeline${acknowledged < submitted || submitted < E2E_INVOICES ? ' (time limit reached: BENCH_E2E_LIMIT_S)' : ''}`);
    console.log(`  per invoice, created -> acknowledged: p50 ${fmt(percentile(latencies, 0.5))} ms, p99 ${fmt(percentile(latencies, 0.99))} ms, max ${fmt(latencies[latencies.length - 1])} ms`);
    console.log(`\nTotal benchmark time ${fmt((Date.now() - t0) / 1000)} s on ${(await import('node:os')).cpus().length} CPUs.`);
  } finally {
    for (const s of servers) s.closeAllConnections(), s.close();
    if (worker) {
      worker.shutdown();
      await workerDone?.catch(() => {});
    }
    await closeTemporalClient();
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
