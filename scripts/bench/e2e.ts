// npm run bench:e2e — the whole pipeline as users run it: API and worker as separate processes, test mode, the
// partner's webhooks on, a durable store.
//
// Provisions throw-away Temporal and MongoDB-compatible servers (scripts/infra, as the tests do) but with a durable
// PostgreSQL database (synchronous_commit as PostgreSQL's default, not the tests' `off`), starts `src/server.ts` and
// `src/worker.ts` on a fresh task queue (their output goes to files in a temp dir), `npm start`'s webhook receiver in
// a process of its own (e2e-receiver.ts: every signature verified; the partner's webhook URL points at it, so the
// API and worker run with EINVOICE_DEV_ALLOW_PRIVATE_URLS=true as `npm start` sets it), and the bare floor
// (e2e-floor.ts: one trivial Temporal workflow per invoice that receives one signal and completes, plus as many store
// writes, with nothing in them, as one of our invoices made in (a), counted by PostgreSQL). After an unreported
// warm-up of 100 invoices (and 100 floor invoices), it measures (each phase with its own SME, to tell them apart),
// each followed by the same phase on the floor, in the same run:
//   (a) burst:  BENCH_BURST_INVOICES (2,000) POSTed in bulk requests of 100 by 4 clients, until all are acknowledged;
//   (b) steady: single POSTs at 10 a second, open loop, for BENCH_STEADY_SECONDS (60), until all are acknowledged;
//   (c) growth: BENCH_GROWTH_INVOICES (100,000) acknowledged invoices inserted straight into the store, then (a) again
//       (BENCH_SKIP_GROWTH=1 skips it; BENCH_GROWTH_INVOICES=0 makes it a second burst with nothing added, which tells
//       the store's growth from what the servers accumulate over a run).
// Per phase: accepted and acknowledged invoices/s, created -> acknowledged p50/p99 (from each invoice's stored
// history), webhooks received and verified by the receiver (a phase ends only when every accepted invoice's event has
// arrived with a good signature, or at the cap), warnings/errors/activity failures in the API and worker logs,
// invoices lost or duplicated, and CPU by process (store, Temporal, API, worker, receiver, floor, this load generator,
// rest of the machine) from /proc, with CPU per invoice beside the floor's and their ratio. Waiting is capped
// at BENCH_PHASE_LIMIT_S (300 s) per phase. Ends with the figures beside their targets. Exits non-zero only if the
// bench itself failed (a child died, provisioning failed), never for a missed target.
//   BENCH_BURST_INVOICES=200 BENCH_STEADY_SECONDS=10 BENCH_SKIP_GROWTH=1 npm run bench:e2e   (a quick look)
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
import { logIssuesSince, logSize, startChild, waitForApi, waitForWorker, type Child, type LogIssues } from './e2e-procs';
import { waitOutOfPipeline } from './pipeline-wait';
import { cmdlineOf, cpuReading, cpuUsed, type CpuGroup } from './proc-cpu';
import { FLOOR, msPer, printBesideFloor, runFloor, type FloorPhase } from './e2e-floor-phase';
import { postgresUrlOf, rowWrites, synchronousCommit } from './e2e-store-writes';
import { waitUntil } from '../infra/net';
import { PARTNER_WEBHOOK_PATH } from '../../src/dev/webhook-receiver';

const env = process.env;
const BURST = Number(env.BENCH_BURST_INVOICES || 2000);
const STEADY_SECONDS = Number(env.BENCH_STEADY_SECONDS || 60);
const STEADY_INTERVAL_MS = 100; // 10 invoices/s
const GROWTH = Number(env.BENCH_GROWTH_INVOICES || 100_000);
const SKIP_GROWTH = env.BENCH_SKIP_GROWTH === '1';
const LIMIT_MS = Number(env.BENCH_PHASE_LIMIT_S || 300) * 1000;
const TRNS = ['100123456700003', '100223456700003', '100323456700003', '100423456700003'];
const WARM_UP = 100; // invoices through the pipeline before (a), not reported: JIT, connection pools, Temporal caches
const TEMPLATE = JSON.parse(fs.readFileSync(path.join(__dirname, '../../test/fixtures/bodies/01-tax-invoice-minimal.json'), 'utf8'));

interface Sme { smeId: string; trn: string; headers: Record<string, string> }
interface Load { ids: string[]; refused: number; lastResponseAt: number; postMs: number[] }
interface Phase {
  name: string; requested: number; accepted: number; refused: number; acknowledged: number; capped: boolean;
  acceptedPerS: number; acknowledgedPerS: number; p50: number; p99: number; postP50: number; postP99: number;
  /** Where the time between created and acknowledged goes: p50/p99 in s of each leg, from the stored history. */
  legs: { name: string; p50: number; p99: number }[];
  lost: number; dupNumbers: number; dupDelivered: number; seconds: number; cpu: Record<string, number>; issues: LogIssues;
  webhooks: Webhooks;
}
/** The receiver's count over a phase: verified events, refused signatures, accepted invoices whose event never came. */
interface Webhooks { ok: number; refused: number; missing: number }
interface ReceiverCounts { ok: number; refused: number; invoiceIds: string[] }

let base = '';
let children: Child[] = [];
let cpuGroups: CpuGroup[] = [];
let receiverStats = '';
let serial = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const percentile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))] : NaN);
const note = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
/** Fails as soon as a child process dies, instead of waiting for invoices that will never move. */
const guarded = <T>(p: Promise<T>) => Promise.race([p, ...children.map((c) => c.died)]);

function invoiceBody(sme: Sme, phase: string): Record<string, unknown> {
  const b = structuredClone(TEMPLATE);
  b.trn = b.seller.trn = sme.trn;
  b.number = `E2E-${phase}-${process.pid}-${++serial}`;
  return b;
}

async function post(pathname: string, sme: Sme, payload: unknown): Promise<{ status: number; json: any; ms: number }> {
  const t = performance.now();
  const res = await fetch(`${base}${pathname}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID(), ...sme.headers },
    body: JSON.stringify(payload),
  });
  const json = await res.json().catch(() => null);
  return { status: res.status, json, ms: performance.now() - t };
}

/** Bulk requests of 100 from 4 clients; no new request after the deadline. */
async function burstLoad(sme: Sme, phase: string, total: number, deadline: number): Promise<Load> {
  const load: Load = { ids: [], refused: 0, lastResponseAt: Date.now(), postMs: [] };
  const batches = Array.from({ length: Math.ceil(total / 100) }, (_, i) => Math.min(100, total - i * 100));
  const client = async () => {
    for (let size = batches.shift(); size !== undefined && Date.now() < deadline; size = batches.shift()) {
      const res = await post('/v1/partner/invoices/bulk', sme, { invoices: Array.from({ length: size }, () => invoiceBody(sme, phase)) }).catch(() => null);
      if (!res) {
        load.refused += size; // network error: counted, not fatal (a dead API ends the bench through `guarded`)
        continue;
      }
      const ok = ((res.json?.results ?? []) as { ok: boolean; invoiceId?: string; status?: string }[]).filter((r) => r.ok && r.status === 'queued');
      load.ids.push(...ok.map((r) => r.invoiceId!));
      load.refused += size - ok.length;
      load.postMs.push(res.ms);
      load.lastResponseAt = Date.now();
    }
  };
  await Promise.all(Array.from({ length: 4 }, client));
  return load;
}

/** Open loop: one single POST every STEADY_INTERVAL_MS whatever the responses do. */
async function steadyLoad(sme: Sme, phase: string, seconds: number): Promise<Load> {
  const load: Load = { ids: [], refused: 0, lastResponseAt: Date.now(), postMs: [] };
  const start = Date.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < (seconds * 1000) / STEADY_INTERVAL_MS; i++) {
    await sleep(start + i * STEADY_INTERVAL_MS - Date.now());
    const sent = post('/v1/partner/invoices', sme, invoiceBody(sme, phase)).then(
      (res) => {
        if (res.status === 201 && res.json?.status === 'queued') load.ids.push(res.json.invoiceId);
        else load.refused++;
        load.postMs.push(res.ms);
        load.lastResponseAt = Date.now();
      },
      () => void load.refused++,
    );
    inFlight.push(sent);
  }
  await Promise.all(inFlight);
  return load;
}

/** The legs of an invoice's way that the stored history times: the worker's first step, the hand-over, the ASP's verdict. */
const LEGS = [['created', 'validated'], ['validated', 'delivered'], ['delivered', 'acknowledged']] as const;

/** What the store says about the phase's SME: latencies, last acknowledgement, lost and duplicated invoices. */
async function inspect(smeId: string, ids: string[]) {
  const docs = await Invoice.find({ smeId }, { number: 1, status: 1, createdAt: 1, history: 1 }).lean();
  const byId = new Map(docs.map((d) => [d._id as string, d]));
  const acked = docs.filter((d) => d.status === 'acknowledged');
  const ackAt = (d: (typeof docs)[number]) => new Date(d.history.find((h) => h.status === 'acknowledged')!.at).getTime();
  const latencies = acked.map((d) => ackAt(d) - new Date(d.createdAt as Date).getTime()).sort((a, b) => a - b);
  const at = (d: (typeof docs)[number], status: string) => (status === 'created' ? new Date(d.createdAt as Date).getTime() : new Date(d.history.find((h) => h.status === status)!.at).getTime());
  const legs = LEGS.map(([from, to]) => {
    const ms = acked.map((d) => at(d, to) - at(d, from)).sort((a, b) => a - b);
    return { name: `${from} -> ${to}`, p50: percentile(ms, 0.5) / 1000, p99: percentile(ms, 0.99) / 1000 };
  });
  const perNumber = new Map<string, number>();
  for (const d of docs) perNumber.set(d.number, (perNumber.get(d.number) ?? 0) + 1);
  const deliveredTwice = docs.filter((d) => {
    const runs = d.history.filter((h) => h.status === 'delivered').map((h) => h.run);
    return new Set(runs).size < runs.length;
  });
  return {
    acknowledged: acked.length,
    lastAckAt: Math.max(...acked.map(ackAt)),
    latencies,
    legs,
    lost: ids.filter((id) => byId.get(id)?.status !== 'acknowledged').length,
    dupNumbers: [...perNumber.values()].reduce((n, c) => n + c - 1, 0),
    dupDelivered: deliveredTwice.length,
  };
}

const receiverCounts = async (): Promise<ReceiverCounts> => (await fetch(receiverStats)).json() as Promise<ReceiverCounts>;

/** Waits until the receiver has verified an event of each of `ids` (or the deadline); what it received since `before`. */
async function waitForWebhooks(ids: string[], before: ReceiverCounts, deadline: number): Promise<Webhooks> {
  let now = before;
  const missing = () => {
    const got = new Set(now.invoiceIds);
    return ids.filter((id) => !got.has(id)).length;
  };
  await waitUntil(async () => ((now = await receiverCounts()), missing() === 0), Math.max(0, deadline - Date.now()), 500);
  now = await receiverCounts();
  return { ok: now.ok - before.ok, refused: now.refused - before.refused, missing: missing() };
}

async function runPhase(name: string, sme: Sme, requested: number, load: (deadline: number) => Promise<Load>): Promise<Phase> {
  note(`${name}: starting`);
  const offsets = children.map(logSize);
  const received0 = await receiverCounts();
  const cpu0 = cpuReading(cpuGroups);
  const start = Date.now();
  const loaded = await guarded(load(start + LIMIT_MS));
  note(`${name}: ${loaded.ids.length} accepted in ${fmt((loaded.lastResponseAt - start) / 1000)} s; waiting for acknowledgements`);
  const capped = await guarded(waitOutOfPipeline(loaded.ids, loaded.lastResponseAt + LIMIT_MS, { pollMs: 1000, note }));
  const webhooks = await guarded(waitForWebhooks(loaded.ids, received0, loaded.lastResponseAt + LIMIT_MS));
  const cpu1 = cpuReading(cpuGroups);
  const seconds = (Date.now() - start) / 1000;
  const found = await inspect(sme.smeId, loaded.ids);
  const postMs = loaded.postMs.sort((a, b) => a - b);
  return {
    name, requested, capped, seconds, accepted: loaded.ids.length, refused: loaded.refused, acknowledged: found.acknowledged,
    acceptedPerS: loaded.ids.length / ((loaded.lastResponseAt - start) / 1000),
    acknowledgedPerS: found.acknowledged / ((found.lastAckAt - start) / 1000),
    p50: percentile(found.latencies, 0.5) / 1000, p99: percentile(found.latencies, 0.99) / 1000, legs: found.legs,
    postP50: percentile(postMs, 0.5), postP99: percentile(postMs, 0.99),
    lost: found.lost, dupNumbers: found.dupNumbers, dupDelivered: found.dupDelivered,
    cpu: cpuUsed(cpu0, cpu1, 'rest of the machine (not ours)'),
    issues: logIssuesSince(children, offsets),
    webhooks,
  };
}

function printPhase(p: Phase): void {
  console.log(`\n${p.name}`);
  console.log(`  ${p.accepted} of ${p.requested} accepted (${p.refused} refused or not queued): ${fmt(p.acceptedPerS)} invoices/s accepted; request latency p50 ${fmt(p.postP50, 0)} ms, p99 ${fmt(p.postP99, 0)} ms`);
  console.log(`  ${p.acknowledged} acknowledged: ${fmt(p.acknowledgedPerS)} invoices/s acknowledged${p.capped ? ` — WAIT CAPPED at BENCH_PHASE_LIMIT_S: ${p.acknowledged} of ${p.accepted} got there` : ''}`);
  console.log(`  created -> acknowledged: p50 ${fmt(p.p50, 2)} s, p99 ${fmt(p.p99, 2)} s`);
  console.log(`    by leg: ${p.legs.map((l) => `${l.name} p50 ${fmt(l.p50, 2)} s, p99 ${fmt(l.p99, 2)} s`).join('; ')}`);
  console.log(`  webhooks verified by the receiver ${p.webhooks.ok}, signatures refused ${p.webhooks.refused}, accepted invoices without a verified event ${p.webhooks.missing}`);
  console.log(`  lost ${p.lost} (accepted, not acknowledged at the end), duplicated numbers ${p.dupNumbers}, delivered twice in a run ${p.dupDelivered}`);
  console.log(`  log warnings/errors ${p.issues.entries}, activity failures ${p.issues.activityFailures} (storage-related ${p.issues.storageActivityFailures})`);
  for (const s of p.issues.samples) console.log(`    ${s}`);
  console.log(`  ${`CPU over ${fmt(p.seconds)} s, ${os.cpus().length} cores`.padEnd(38)}${'cpu-s'.padStart(8)}${'% core'.padStart(9)}${'ms/ack'.padStart(9)}`);
  for (const [k, v] of Object.entries(p.cpu)) console.log(`    ${k.padEnd(36)}${fmt(v, 2).padStart(8)}${fmt((100 * v) / p.seconds, 0).padStart(9)}${fmt((1000 * v) / p.acknowledged).padStart(9)}`);
}

/** BENCH_GROWTH_INVOICES acknowledged invoices, copies of a real one, over four SMEs (two of them ours). */
async function seedGrowth(template: Record<string, any>, owners: { partnerId: string; smeId: string }[]): Promise<number> {
  const start = Date.now();
  const now = Date.now();
  for (let done = 0; done < GROWTH; done += 1000) {
    const docs = Array.from({ length: Math.min(1000, GROWTH - done) }, (_, j) => {
      const i = done + j;
      const createdAt = new Date(now - Math.random() * 30 * 86_400_000);
      const shift = createdAt.getTime() - new Date(template.createdAt).getTime();
      const number = `SEED-${process.pid}-${i}`;
      const history = template.history.map((h: { at: Date }) => ({ ...h, at: new Date(new Date(h.at).getTime() + shift) }));
      const owner = owners[i % owners.length];
      return { ...template, ...owner, numberScope: `sme:${owner.smeId}`, _id: randomUUID(), number, body: { ...template.body, number }, history, createdAt, updatedAt: history[history.length - 1].at };
    });
    await Invoice.collection.insertMany(docs as any[], { ordered: false });
  }
  return (Date.now() - start) / 1000;
}

/** What the floor's CPU per invoice allows on this machine's cores: all of them busy, nothing else running. */
const floorCeiling = (floor: FloorPhase, factor: number) => (os.cpus().length * 1000) / (factor * msPer(floor.cpu, FLOOR, floor.count));

function printTargets(a: Phase, b: Phase, c: Phase | null, phases: Phase[], floors: FloorPhase[], ratios: number[]): void {
  const storage = phases.reduce((n, p) => n + p.issues.storageActivityFailures, 0);
  const lost = phases.reduce((n, p) => n + p.lost, 0);
  const dup = phases.reduce((n, p) => n + p.dupNumbers + p.dupDelivered, 0);
  const webhooksRefused = phases.reduce((n, p) => n + p.webhooks.refused, 0);
  const webhooksMissing = phases.reduce((n, p) => n + p.webhooks.missing, 0);
  const ratio = c ? (100 * c.acknowledgedPerS) / a.acknowledgedPerS : NaN;
  const rows: [string, string, string, boolean | null][] = [
    ['(a) burst acknowledged/s, webhooks on', fmt(a.acknowledgedPerS), '>= 30 (aim 50)', a.acknowledgedPerS >= 30],
    ['(a) CPU per invoice, ours / floor', `${fmt(ratios[0], 2)}x`, '<= 2x', ratios[0] <= 2],
    ['    floor burst completed/s', fmt(floors[0].perS), '-', null],
    ['    floor CPU allows at most (/s)', fmt(floorCeiling(floors[0], 1)), '>= 30', floorCeiling(floors[0], 1) >= 30],
    ['    2x floor CPU allows at most (/s)', fmt(floorCeiling(floors[0], 2)), '>= 30', floorCeiling(floors[0], 2) >= 30],
    ['(b) steady CPU per invoice, ours / floor', `${fmt(ratios[1], 2)}x`, '-', null],
    ...(c ? [['(c) growth CPU per invoice, ours / floor', `${fmt(ratios[2], 2)}x`, '-', null] as [string, string, string, null]] : []),
    ['(b) steady p50 created->acknowledged', `${fmt(b.p50, 2)} s`, '< 2 s', b.p50 < 2],
    ['(b) steady p99', `${fmt(b.p99, 2)} s`, '< 5 s', b.p99 < 5],
    ['(c) growth acknowledged/s vs (a)', c ? `${fmt(ratio, 0)} %` : 'skipped', '>= 80 %', c ? ratio >= 80 : null],
    ['activity failures caused by storage', String(storage), '0', storage === 0],
    ['lost / duplicated', `${lost} / ${dup}`, '0 / 0', lost === 0 && dup === 0],
    ['webhooks refused / never verified', `${webhooksRefused} / ${webhooksMissing}`, '0 / 0', webhooksRefused === 0 && webhooksMissing === 0],
  ];
  console.log(`\n${'target'.padEnd(41)}${'measured'.padEnd(14)}${'target'.padEnd(16)}met`);
  for (const [what, got, want, met] of rows) console.log(`${what.padEnd(41)}${got.padEnd(14)}${want.padEnd(16)}${met === null ? '-' : met ? 'yes' : 'NO'}`);
}

let infra: Infra | undefined;
let stopping: Promise<void> | undefined;
let interrupted = false;

/** Children first (they use the servers), then the servers; every caller waits for the same run. */
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    await Promise.all(children.map((c) => c.stop()));
    await disconnectMongo().catch(() => {});
    await infra?.stop();
  })();
  return stopping;
}

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    interrupted = true;
    note(`${signal}: stopping the API, the worker and the servers`);
    void stopAll().finally(() => process.exit(code)); // (during provisioning, exit handlers kill the servers)
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  // The partner's webhook URL is the local receiver's http://127.0.0.1: allowed here (createPartner checks it) and in
  // the API and worker, as `npm start` does (src/stack.ts).
  env.EINVOICE_DEV_ALLOW_PRIVATE_URLS = 'true';
  infra = await provisionInfra('test', env, { durable: true });
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-e2e-'));
  try {
    await connectMongo(infra.mongo.uri);
    const pgUrl = postgresUrlOf(infra.mongo.pid);
    const [port, receiverPort, receiverStatsPort, floorPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const taskQueue = `bench-e2e-${randomUUID().slice(0, 8)}`;
    // The API and the worker log at info, as `npm start` runs them (into the log folder, not this output).
    const childEnv = { ...env, MONGODB_URI: infra.mongo.uri, TEMPORAL_ADDRESS: infra.temporal.address, TEMPORAL_TASK_QUEUE: taskQueue, PORT: String(port), LOG_LEVEL: 'info' };
    base = `http://127.0.0.1:${port}`;
    receiverStats = `http://127.0.0.1:${receiverStatsPort}/`;
    const floorBase = `http://127.0.0.1:${floorPort}`;
    const partner = await createPartner({ name: 'Bench ERP e2e', mode: 'test', webhookUrl: `http://127.0.0.1:${receiverPort}${PARTNER_WEBHOOK_PATH}` });
    await updatePartner(partner.partnerId, { rateLimitPerMinute: 1_000_000_000 }); // measure the work, not the budget
    const receiver = startChild('receiver', 'scripts/bench/e2e-receiver.ts', { ...env, BENCH_RECEIVER_PORT: String(receiverPort), BENCH_RECEIVER_STATS_PORT: String(receiverStatsPort), BENCH_WEBHOOK_SECRET: partner.webhookSecret }, logDir);
    const floor = startChild('floor', 'scripts/bench/e2e-floor.ts', { ...childEnv, BENCH_FLOOR_PORT: String(floorPort) }, logDir);
    // BENCH_PROFILE=1: V8 CPU profiles of the API and the worker (.cpuprofile in the log folder, written at exit).
    const profiled = (name: string) => (env.BENCH_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${logDir}/${name}-profile`] : []);
    const worker = startChild('worker', 'src/worker.ts', childEnv, logDir, profiled('worker'));
    const api = startChild('api', 'src/server.ts', childEnv, logDir, profiled('api'));
    children = [api, worker, receiver, floor];
    await waitForApi(base, api);
    await waitForWorker(infra.temporal.address, taskQueue, worker);
    const answers = async (url: string) => (await fetch(url, { method: 'GET' }).catch(() => null)) !== null;
    if (!(await guarded(waitUntil(() => answers(receiverStats), 60_000, 250)))) throw new Error('the webhook receiver did not start');
    if (!(await guarded(waitUntil(() => answers(floorBase), 120_000, 500)))) throw new Error('the floor process did not start');
    // PostgreSQL backends name their database in their process title; the server's own processes (and other
    // databases' backends, e.g. tests running beside us) are shown apart.
    const pgDatabase = /postgresql-url=\S*\/([^/?\s]+)/.exec(cmdlineOf(infra.mongo.pid))?.[1];
    cpuGroups = [
      { name: 'store: FerretDB', roots: [infra.mongo.pid] },
      ...(pgDatabase ? [{ name: 'store: postgres, our database', comm: 'postgres', cmdline: ` ${pgDatabase} ` }] : []),
      // The server's own writers (shared with other databases on the server, so outside the per-invoice totals).
      // Their titles read `postgres: 15/main: walwriter`. The postmaster's time is mostly exited backends' (of any database).
      ...['walwriter', 'checkpointer', 'background writer'].map((p) => ({ name: `postgres: ${p} (shared)`, comm: 'postgres', cmdline: `: ${p}` })),
      { name: 'postgres: exited backends (shared)', comm: 'postgres', cmdline: ' -D ' },
      { name: 'postgres: other databases', comm: 'postgres' },
      { name: 'Temporal', roots: [infra.temporal.pid] },
      { name: 'API', roots: [api.proc.pid] },
      { name: 'worker', roots: [worker.proc.pid] },
      { name: 'webhook receiver', roots: [receiver.proc.pid] },
      { name: 'floor process', roots: [floor.proc.pid] },
      { name: 'bench (load generator)', self: true },
    ];
    const sme = async (trn: string): Promise<Sme> => {
      const s = await connectSme({ partnerId: partner.partnerId, trn, name: `Bench SME ${trn}` });
      return { smeId: s.smeId, trn, headers: { 'X-API-Key': partner.apiKey, 'X-API-Secret': partner.apiSecret, 'x-erp-partner-secret': s.connectionSecret } };
    };
    const durability = pgUrl ? `synchronous_commit=${await synchronousCommit(pgUrl)}` : 'SQLite, synchronous=normal';
    console.log(`\nStorage: ${infra.mongo.how}; ${durability}\nWebhooks: on, to a receiver process that verifies each signature\nTemporal: ${infra.temporal.how}\nLogs of the API and worker: ${logDir}\nCPUs: ${os.cpus().length}`);

    const [smeA, smeB, smeC, smeWarm] = [await sme(TRNS[0]), await sme(TRNS[1]), await sme(TRNS[2]), await sme(TRNS[3])];
    await runPhase(`warm-up: ${WARM_UP} invoices (not reported)`, smeWarm, WARM_UP, (d) => burstLoad(smeWarm, 'w', WARM_UP, d));
    await guarded(runFloor(floorBase, cpuGroups, { count: WARM_UP, writes: 1, concurrency: 100 }));
    const writes0 = pgUrl ? await rowWrites(pgUrl) : 0;
    const a = await runPhase(`(a) burst: ${BURST} invoices, bulk 100 per request, 4 clients`, smeA, BURST, (d) => burstLoad(smeA, 'a', BURST, d));
    printPhase(a);
    // The floor makes as many store writes per invoice as ours did in (a) (rows PostgreSQL wrote, warm-up excluded).
    const writes1 = pgUrl ? await rowWrites(pgUrl) : 0;
    const writes = Number(env.BENCH_FLOOR_WRITES) || Math.round((writes1 - writes0) / a.acknowledged);
    if (!writes) throw new Error('no store writes counted (FerretDB on SQLite?): set BENCH_FLOOR_WRITES');
    const floorA = await guarded(runFloor(floorBase, cpuGroups, { count: BURST, writes, concurrency: 400 }));
    const floorWrites = pgUrl ? ((await rowWrites(pgUrl)) - writes1) / floorA.count : NaN;
    console.log(`  store rows written per invoice: ours ${fmt((writes1 - writes0) / a.acknowledged)}, floor ${fmt(floorWrites)} (PostgreSQL pg_stat_user_tables)`);
    const ratios = [printBesideFloor(a, floorA)];
    const floors = [floorA];
    const steadyCount = (STEADY_SECONDS * 1000) / STEADY_INTERVAL_MS;
    const b = await runPhase(`(b) steady: single POSTs at ${1000 / STEADY_INTERVAL_MS}/s for ${STEADY_SECONDS} s`, smeB, steadyCount, () => steadyLoad(smeB, 'b', STEADY_SECONDS));
    printPhase(b);
    floors.push(await guarded(runFloor(floorBase, cpuGroups, { count: steadyCount, writes, intervalMs: STEADY_INTERVAL_MS })));
    ratios.push(printBesideFloor(b, floors[1]));
    let c: Phase | null = null;
    if (!SKIP_GROWTH) {
      const template = await Invoice.collection.findOne({ smeId: smeA.smeId, status: 'acknowledged' });
      if (!template) throw new Error('growth: no acknowledged invoice from (a) to copy');
      const owners = [smeA, smeB, { smeId: randomUUID() }, { smeId: randomUUID() }].map((s, i) => ({ partnerId: i < 2 ? partner.partnerId : randomUUID(), smeId: s.smeId }));
      note(`seeding ${GROWTH} invoices`);
      const seedS = await guarded(seedGrowth(template, owners));
      console.log(`\n(c) growth: ${GROWTH} acknowledged invoices (history of ${template.history.length}) inserted in ${fmt(seedS)} s (${fmt(GROWTH / seedS, 0)}/s); ${await Invoice.estimatedDocumentCount()} invoices stored`);
      c = await runPhase(`(c) burst again on the grown store: ${BURST} invoices`, smeC, BURST, (d) => burstLoad(smeC, 'c', BURST, d));
      printPhase(c);
      floors.push(await guarded(runFloor(floorBase, cpuGroups, { count: BURST, writes, concurrency: 400 })));
      ratios.push(printBesideFloor(c, floors[2]));
      console.log(`  floor vs floor (a): completed/s ${fmt((100 * floors[2].perS) / floorA.perS, 0)} %`);
      console.log(`  vs (a): acknowledged/s ${fmt((100 * c.acknowledgedPerS) / a.acknowledgedPerS, 0)} %, accepted/s ${fmt((100 * c.acceptedPerS) / a.acceptedPerS, 0)} %, p50 ${fmt(c.p50 / a.p50, 2)}x, p99 ${fmt(c.p99 / a.p99, 2)}x`);
    }
    printTargets(a, b, c, [a, b, ...(c ? [c] : [])], floors, ratios);
    console.log(`\nTotal benchmark time ${fmt((Date.now() - started) / 1000, 0)} s.`);
  } finally {
    await stopAll();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    if (interrupted) return; // the signal handler exits once everything is stopped
    console.error(err);
    process.exit(1);
  },
);
