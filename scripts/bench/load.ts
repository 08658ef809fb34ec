// npm run bench:load — a steady mixed load for LOAD_SECONDS (60) against the API and worker as separate processes
// (test mode, throw-away servers, as bench:e2e starts them: scripts/bench/e2e-procs.ts). Open loop: each kind of
// request (scripts/bench/load-mix.ts: Partner single POST, bulk, GET, list, validate-trn; Tenant drafts and submits)
// is sent on its own fixed schedule (RATES x LOAD_SCALE a second) whatever the answers do. Reports per kind the
// requests, throughput, p50/p99 latency and errors, the warnings/errors in the children's logs, then PASS/FAIL
// beside the target: zero errors. Exits 1 on FAIL (or when the bench itself fails).
//   LOAD_SECONDS=20 LOAD_SCALE=0.5 npm run bench:load   (a quick look)
import './quiet-logs';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { provisionInfra, type Infra } from '../infra';
import { freePort } from '../infra/net';
import { connectMongo, disconnectMongo } from '../../src/db/connection';
import { Invoice } from '../../src/db/models';
import { connectSme, createPartner, updatePartner } from '../../src/services/admin';
import { createTenant } from '../../src/services/tenants';
import { logIssuesSince, logSize, startChild, waitForApi, waitForWorker, type Child } from './e2e-procs';
import { closeAgent, KINDS, RATES, type Caller, type Kind, type Made, type Outcome } from './load-mix';

const SECONDS = Number(process.env.LOAD_SECONDS || 60);
const SCALE = Number(process.env.LOAD_SCALE || 1);
const ARABIC_NAME = 'شركة الحمل للتجارة ذ.م.م';

interface Sample extends Outcome {
  kind: Kind;
  ms: number;
}

const note = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))] : NaN);

/** One kind on its schedule for `seconds`: request i leaves at start + i / rate, answered or not. */
async function drive(kind: Kind, rate: number, seconds: number, caller: Caller, made: Made, samples: Sample[]): Promise<void> {
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < rate * seconds; i++) {
    await sleep(start + (i * 1000) / rate - performance.now());
    const t0 = performance.now();
    inFlight.push(
      KINDS[kind](caller, made).then(
        (o) => void (o.status && samples.push({ ...o, kind, ms: performance.now() - t0 })),
        (err: Error) => void samples.push({ ok: false, status: 0, why: `no answer: ${err.message}`, kind, ms: performance.now() - t0 }),
      ),
    );
  }
  await Promise.all(inFlight);
}

async function setUp(base: string): Promise<Caller> {
  const partner = await createPartner({ name: 'Bench ERP load', mode: 'test' });
  await updatePartner(partner.partnerId, { rateLimitPerMinute: 1_000_000 }); // measure the work, not the budget
  const trn = '100523456700003';
  const sme = await connectSme({ partnerId: partner.partnerId, trn, name: 'Bench SME load' });
  const tenantTrn = '100623456700003';
  const tenant = await createTenant({ trn: tenantTrn, name: 'Load Trading LLC', nameArabic: ARABIC_NAME, mode: 'test', kyb: 'approved', statusUrl: null, address: { line1: 'Office 1', city: 'Dubai', emirate: 'DXB', country: 'AE' }, tradeLicenseNumber: 'DED-1' });
  const token = await fetch(`${base}/v1/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ clientId: tenant.clientId, clientSecret: tenant.clientSecret }) });
  if (token.status !== 200) throw new Error(`tenant token: ${token.status} ${await token.text()}`);
  const { accessToken } = (await token.json()) as { accessToken: string };
  return {
    base,
    partner: { trn, headers: { 'X-API-Key': partner.apiKey, 'X-API-Secret': partner.apiSecret, 'x-erp-partner-secret': sme.connectionSecret } },
    tenant: { trn: tenantTrn, nameArabic: ARABIC_NAME, headers: { Authorization: `Bearer ${accessToken}`, 'X-Service-Source': 'bench-load/1.0' } },
  };
}

function report(samples: Sample[], seconds: number): number {
  const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-');
  console.log(`\n${'kind'.padEnd(24)}${'requests'.padStart(9)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}`);
  for (const kind of Object.keys(KINDS) as Kind[]) {
    const of = samples.filter((s) => s.kind === kind);
    const ms = of.map((s) => s.ms).sort((a, b) => a - b);
    console.log(`${kind.padEnd(24)}${String(of.length).padStart(9)}${fmt(of.length / seconds, 1).padStart(8)}${fmt(percentile(ms, 0.5)).padStart(9)}${fmt(percentile(ms, 0.99)).padStart(9)}${String(of.filter((s) => !s.ok).length).padStart(8)}`);
  }
  const all = samples.map((s) => s.ms).sort((a, b) => a - b);
  const errors = samples.filter((s) => !s.ok);
  console.log(`${'all'.padEnd(24)}${String(samples.length).padStart(9)}${fmt(samples.length / seconds, 1).padStart(8)}${fmt(percentile(all, 0.5)).padStart(9)}${fmt(percentile(all, 0.99)).padStart(9)}${String(errors.length).padStart(8)}`);
  const reasons = new Map<string, number>();
  for (const e of errors) reasons.set(`${e.kind}: ${e.why}`, (reasons.get(`${e.kind}: ${e.why}`) ?? 0) + 1);
  for (const [why, n] of [...reasons].slice(0, 10)) console.log(`  ${n} x ${why}`);
  return errors.length;
}

let infra: Infra | undefined;
let children: Child[] = [];

async function main(): Promise<boolean> {
  infra = await provisionInfra('test');
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'));
  await connectMongo(infra.mongo.uri);
  const port = await freePort();
  const taskQueue = `bench-load-${randomUUID().slice(0, 8)}`;
  const env = { ...process.env, MONGODB_URI: infra.mongo.uri, TEMPORAL_ADDRESS: infra.temporal.address, TEMPORAL_TASK_QUEUE: taskQueue, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', WORKER_METRICS_PORT: 'off' };
  const base = `http://127.0.0.1:${port}`;
  const worker = startChild('worker', 'src/worker.ts', env, logDir);
  const api = startChild('api', 'src/server.ts', env, logDir);
  children = [api, worker];
  await waitForApi(base, api);
  await waitForWorker(infra.temporal.address, taskQueue, worker);
  const caller = await setUp(base);
  console.log(`\nStorage: ${infra.mongo.how}\nTemporal: ${infra.temporal.how}\nLogs of the API and worker: ${logDir}\nCPUs: ${os.cpus().length}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  const made: Made = { partnerInvoices: [], tenantDrafts: [] };
  note('warm-up: 5 s at the same mix (not reported)');
  await Promise.race([Promise.all((Object.keys(KINDS) as Kind[]).map((k) => drive(k, RATES[k] * SCALE, 5, caller, made, []))), ...children.map((c) => c.died)]);

  const rates = (Object.keys(KINDS) as Kind[]).map((k) => `${k} ${RATES[k] * SCALE}/s`).join(', ');
  note(`steady load for ${SECONDS} s: ${rates}`);
  const offsets = children.map(logSize);
  const samples: Sample[] = [];
  const started = performance.now();
  await Promise.race([Promise.all((Object.keys(KINDS) as Kind[]).map((k) => drive(k, RATES[k] * SCALE, SECONDS, caller, made, samples))), ...children.map((c) => c.died)]);
  const seconds = (performance.now() - started) / 1000;

  console.log(`\nSteady mixed load, ${SECONDS} s (scale ${SCALE}): ${rates}`);
  const errors = report(samples, seconds);
  const issues = logIssuesSince(children, offsets);
  console.log(`\nAPI and worker log warnings/errors during the load: ${issues.entries}${issues.samples.length ? '' : ' (none)'}`);
  for (const s of issues.samples) console.log(`  ${s}`);
  const stored = await Invoice.aggregate<{ _id: string; n: number }>([{ $group: { _id: '$status', n: { $sum: 1 } } }]);
  console.log(`Invoices stored, by status at the end: ${stored.map((s) => `${s._id} ${s.n}`).join(', ')}`);
  const pass = errors === 0;
  console.log(`\n${'target'.padEnd(26)}${'measured'.padEnd(12)}${'target'.padEnd(10)}result`);
  console.log(`${'errors under the load'.padEnd(26)}${String(errors).padEnd(12)}${'0'.padEnd(10)}${pass ? 'PASS' : 'FAIL'}`);
  return pass;
}

async function stopAll(): Promise<void> {
  closeAgent();
  await Promise.all(children.map((c) => c.stop()));
  await disconnectMongo().catch(() => {});
  await infra?.stop();
}

main().then(
  async (pass) => {
    await stopAll();
    process.exit(pass ? 0 : 1);
  },
  async (err) => {
    console.error(err);
    await stopAll().catch(() => {});
    process.exit(1);
  },
);
