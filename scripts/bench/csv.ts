// npm run bench:csv — the Tenant API's CSV bulk import and what follows it, as deployed: API and worker as separate
// processes, a sandbox tenant, the ASP simulator (in this process) acknowledging through signed callbacks.
//
// Provisions throw-away Temporal and MongoDB-compatible servers (scripts/infra), starts the ASP simulator here and
// `tsx src/server.ts` / `tsx src/worker.ts` as children (their output in files in a temp dir), creates an approved
// sandbox tenant through the services and gets its token over HTTP. Then:
//   (a) uploads one CSV of 1,000 invoices (Arabic-name variant, as many lines per invoice as fit under the 5 MB
//       limit, BENCH_CSV_LINES to choose) with 5 bad rows, skipErrors true: wall time of the request, and the API
//       process's resident memory, sampled every 20 ms from /proc during the request (and before it);
//   (b) submits every created draft, 200 ids per call, and times the calls;
//   (c) waits (BENCH_ACK_LIMIT_S, 180 s at most) until every submitted invoice is in a final status: time from the
//       first submit call to the last acknowledgement (from each invoice's stored history).
// CPU seconds per process group (from /proc) and the warnings/errors of the API and worker logs for each phase.
// Ends with the figures beside the targets. Exits non-zero only if the bench itself failed, never for a target.
import './quiet-logs';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { provisionInfra, type Infra } from '../infra';
import { freePort } from '../infra/net';
import { connectMongo, disconnectMongo } from '../../src/db/connection';
import { Invoice } from '../../src/db/models';
import { numberScope } from '../../src/domain/owner';
import { logger } from '../../src/logger';
import type { AspSimulator } from '../../src/provider/simulator';
import { Client } from 'pg';
import { createTenant } from '../../src/services/tenants';
import { TENANT_ARABIC_NAME } from '../../test/helpers/tenants';
import { tenantCsv, type BadRow } from '../../test/helpers/tenant-csv';
import { logIssuesSince, logSize, startChild, waitForApi, waitForWorker, type Child, type LogIssues } from './e2e-procs';
import { waitOutOfPipeline } from './pipeline-wait';
import { cmdlineOf, cpuReading, cpuUsed, type CpuGroup } from './proc-cpu';

const env = process.env;
const INVOICES = 1000;
const MAX_BYTES = 5 * 1024 * 1024; // SPEC 8, the upload limit
const ACK_LIMIT_MS = Number(env.BENCH_ACK_LIMIT_S || 180) * 1000;
const SUBMIT_BATCH = 200; // SPEC 8: ids per submit call
const SELLER_TRN = '100777777700003';
const SANDBOX = { clientId: 'bench-csv-sandbox', clientSecret: 'bench-csv-sandbox-secret', callbackSecret: 'bench-csv-callback-secret' };
const BAD_ROWS: BadRow[] = [
  { invoice: 3, line: 1, column: 'lineQty', value: 'abc' },
  { invoice: 150, column: 'buyerTrn', value: '12345' },
  { invoice: 400, column: 'lineTaxCategory', value: '' },
  { invoice: 650, line: 2, column: 'lineUnitPrice', value: 'x' },
  { invoice: 900, column: 'issueDate', value: '2025-13-45' },
];
const TARGETS = { importS: 5, rssMb: 150, ackS: 60 };

let children: Child[] = [];
let cpuGroups: CpuGroup[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const mb = (kb: number) => kb / 1024;
const note = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
/** Fails as soon as a child process dies, instead of waiting for invoices that will never move. */
const guarded = <T>(p: Promise<T>) => Promise.race([p, ...children.map((c) => c.died)]);

/** The largest lines-per-invoice whose file stays within the limit (Arabic-name variant), or BENCH_CSV_LINES. */
function buildCsv(): { csv: string; lines: number; bytes: number } {
  const make = (lines: number) => tenantCsv(INVOICES, lines, { sellerTrn: SELLER_TRN, badRows: BAD_ROWS, arabic: true });
  if (env.BENCH_CSV_LINES) {
    const lines = Number(env.BENCH_CSV_LINES);
    const csv = make(lines);
    return { csv, lines, bytes: Buffer.byteLength(csv) };
  }
  let best = { csv: make(1), lines: 1, bytes: 0 };
  for (let lines = 1; lines <= 40; lines++) {
    const csv = make(lines);
    const bytes = Buffer.byteLength(csv);
    if (bytes > MAX_BYTES) break;
    best = { csv, lines, bytes };
  }
  return best;
}

/** VmRSS and VmHWM of a process in kB (null once it is gone). */
function memoryKb(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return null;
  }
}

/**
 * The process that serves the API: `tsx src/server.ts` runs node as its child, so the deepest process of the tree
 * under the child we started (the one whose command line names the entry point and has no children of its own).
 */
function servingPid(root: number, entry: string): number {
  const parentOf = new Map<number, number>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      parentOf.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const inTree = (pid: number) => {
    for (let p: number | undefined = pid; p && p > 1; p = parentOf.get(p)) if (p === root) return true;
    return false;
  };
  const tree = [...parentOf.keys()].filter(inTree);
  const leaves = tree.filter((p) => ![...parentOf.values()].includes(p) && cmdlineOf(p).includes(entry));
  return leaves[0] ?? root;
}

/** Samples a process's VmRSS every `everyMs` until stopped; returns the peak and the sample count. */
function sampleRss(pid: number, everyMs = 20): { stop(): { peakKb: number; samples: number } } {
  let peakKb = 0;
  let samples = 0;
  const take = () => {
    const m = memoryKb(pid);
    if (m) (peakKb = Math.max(peakKb, m.rss)), samples++;
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { peakKb, samples };
    },
  };
}

const minus = <T extends Record<string, number>>(a: T, b: T): T => Object.fromEntries(Object.keys(a).map((k) => [k, a[k] - b[k]])) as T;
const cpuNow = () => cpuReading(cpuGroups);

/** The machine's irq, softirq and steal seconds (/proc/stat): busy time no process is charged with. */
function unchargedSeconds(): { irq: number; softirq: number; steal: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { irq: f[5] / 100, softirq: f[6] / 100, steal: f[7] / 100 };
}

type TableStats = Map<string, { seqScan: number; seqRead: number; idxScan: number; ins: number; upd: number }>;

/** PostgreSQL's per-table counters of the bench's database (FerretDB's tables are `<collection>_<hash>`), or null. */
async function pgTables(url: string | undefined): Promise<TableStats | null> {
  if (!url) return null;
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query('SELECT relname, seq_scan, seq_tup_read, idx_scan, n_tup_ins, n_tup_upd FROM pg_stat_user_tables');
    return new Map(rows.map((r) => [String(r.relname).replace(/_[0-9a-f]{8}$/, ''), { seqScan: Number(r.seq_scan), seqRead: Number(r.seq_tup_read), idxScan: Number(r.idx_scan ?? 0), ins: Number(r.n_tup_ins), upd: Number(r.n_tup_upd) }]));
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The tables the phase worked most, from two snapshots of pg_stat_user_tables (counters lag up to ~0.5 s). */
function printTables(before: TableStats | null, after: TableStats | null): void {
  if (!before || !after) return;
  const diff = [...after.entries()].map(([name, a]) => {
    const b = before.get(name) ?? { seqScan: 0, seqRead: 0, idxScan: 0, ins: 0, upd: 0 };
    return { name, seqScan: a.seqScan - b.seqScan, seqRead: a.seqRead - b.seqRead, idxScan: a.idxScan - b.idxScan, ins: a.ins - b.ins, upd: a.upd - b.upd };
  });
  const busy = diff.filter((d) => d.seqScan + d.idxScan + d.ins + d.upd > 0).sort((x, y) => y.seqRead + y.upd + y.ins - (x.seqRead + x.upd + x.ins)).slice(0, 6);
  console.log(`  PostgreSQL tables (FerretDB collections): ${'seq scans'.padStart(10)}${'rows read'.padStart(12)}${'idx scans'.padStart(11)}${'inserts'.padStart(9)}${'updates'.padStart(9)}`);
  for (const d of busy) console.log(`    ${d.name.padEnd(40)}${String(d.seqScan).padStart(10)}${String(d.seqRead).padStart(12)}${String(d.idxScan).padStart(11)}${String(d.ins).padStart(9)}${String(d.upd).padStart(9)}`);
}

function printCpu(title: string, seconds: number, cpu: Record<string, number>, uncharged: { irq: number; softirq: number; steal: number }, issues: LogIssues): void {
  console.log(`  ${`CPU over ${fmt(seconds, 2)} s (${title}), ${os.cpus().length} cores`.padEnd(52)}${'cpu-s'.padStart(8)}${'% core'.padStart(9)}`);
  for (const [k, v] of Object.entries(cpu)) console.log(`    ${k.padEnd(50)}${fmt(v, 2).padStart(8)}${fmt((100 * v) / seconds, 0).padStart(9)}`);
  console.log(`      of which softirq ${fmt(uncharged.softirq, 2)} s, irq ${fmt(uncharged.irq, 2)} s, steal (hypervisor) ${fmt(uncharged.steal, 2)} s`);
  console.log(`  log warnings/errors ${issues.entries}, activity failures ${issues.activityFailures} (storage-related ${issues.storageActivityFailures})`);
  for (const s of issues.samples) console.log(`    ${s}`);
}

async function http(base: string, method: string, pathname: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; json: any; ms: number }> {
  const t = performance.now();
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  return { status: res.status, json, ms: performance.now() - t };
}

let infra: Infra | undefined;
let simulator: AspSimulator | undefined;
let stopping: Promise<void> | undefined;
let interrupted = false;

/** Children first (they use the servers), then the simulator and the servers; every caller waits for the same run. */
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    await Promise.all(children.map((c) => c.stop()));
    await simulator?.stop().catch(() => {});
    await disconnectMongo().catch(() => {});
    await infra?.stop();
  })();
  return stopping;
}

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    interrupted = true;
    note(`${signal}: stopping the API, the worker, the simulator and the servers`);
    void stopAll().finally(() => process.exit(code));
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const { csv, lines, bytes } = buildCsv();
  if (bytes > MAX_BYTES) throw new Error(`the CSV is ${bytes} bytes, over the ${MAX_BYTES}-byte limit (BENCH_CSV_LINES=${lines})`);
  infra = await provisionInfra('test');
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-csv-'));
  try {
    await connectMongo(infra.mongo.uri);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // The simulator logs one warning per callback the API refuses, into this process's output, where it would
    // drown the figures: its logger (a child made when its module loads) is set to errors only. The API log
    // counts the same refusals ("provider callback for an unknown submission").
    logger.level = 'error';
    const { createAspSimulator } = await import('../../src/provider/simulator');
    simulator = await createAspSimulator({
      clients: [{ clientId: SANDBOX.clientId, clientSecret: SANDBOX.clientSecret }],
      callbackUrl: `${base}/v1/provider/callbacks`,
      callbackSecret: SANDBOX.callbackSecret,
    });
    const taskQueue = `bench-csv-${randomUUID().slice(0, 8)}`;
    const childEnv = {
      ...env,
      MONGODB_URI: infra.mongo.uri,
      TEMPORAL_ADDRESS: infra.temporal.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      PROVIDER_SANDBOX_URL: simulator.url,
      PROVIDER_SANDBOX_CLIENT_ID: SANDBOX.clientId,
      PROVIDER_SANDBOX_CLIENT_SECRET: SANDBOX.clientSecret,
      PROVIDER_SANDBOX_CALLBACK_SECRET: SANDBOX.callbackSecret,
    };
    const worker = startChild('worker', 'src/worker.ts', childEnv, logDir);
    const api = startChild('api', 'src/server.ts', childEnv, logDir);
    children = [api, worker];
    await waitForApi(base, api);
    await waitForWorker(infra.temporal.address, taskQueue, worker);
    const apiPid = servingPid(api.proc.pid!, 'src/server.ts');
    const pgUrl = /postgresql-url=(\S+)/.exec(cmdlineOf(infra.mongo.pid))?.[1];
    const pgDatabase = /\/([^/?\s]+)(\?|$)/.exec(pgUrl ?? '')?.[1];
    cpuGroups = [
      { name: 'store: FerretDB', roots: [infra.mongo.pid] },
      ...(pgDatabase ? [{ name: 'store: postgres, our database', comm: 'postgres', cmdline: ` ${pgDatabase} ` }] : []),
      { name: 'postgres: shared + other databases', comm: 'postgres' },
      { name: 'Temporal', roots: [infra.temporal.pid] },
      { name: 'API', roots: [api.proc.pid] },
      { name: 'worker', roots: [worker.proc.pid] },
      { name: 'bench (upload, ASP simulator, polling)', self: true },
    ];
    console.log(`\nStorage: ${infra.mongo.how}\nTemporal: ${infra.temporal.how}\nASP simulator: ${simulator.url} (in the bench process)\nLogs of the API and worker: ${logDir}\nCPUs: ${os.cpus().length}`);

    const tenant = await createTenant({
      trn: SELLER_TRN,
      name: 'Tenant Trading LLC',
      nameArabic: TENANT_ARABIC_NAME,
      mode: 'sandbox',
      kyb: 'approved',
      statusUrl: null,
      address: { line1: 'Office 1204, Bay Square 3', city: 'Dubai', emirate: 'DXB', country: 'AE' },
      tradeLicenseNumber: 'DED-778812',
    });
    const token = await http(base, 'POST', '/v1/auth/token', {}, { clientId: tenant.clientId, clientSecret: tenant.clientSecret });
    if (token.status !== 200) throw new Error(`token: ${token.status} ${JSON.stringify(token.json)}`);
    const auth = { Authorization: `Bearer ${token.json.accessToken}` };
    const scope = numberScope({ kind: 'tenant', tenantId: tenant.tenantId, mode: 'sandbox' });

    // (a) the import
    const rows = INVOICES * lines;
    console.log(`\nCSV: ${INVOICES} invoices x ${lines} lines = ${rows} rows (Arabic-name variant), ${bytes} bytes (${fmt(bytes / 1e6, 2)} MB; limit ${MAX_BYTES}), ${BAD_ROWS.length} bad rows`);
    await sleep(1000); // let the API settle after start-up before the "before" figure
    const before = memoryKb(apiPid)!;
    const offsetsA = children.map(logSize);
    const tablesA0 = await pgTables(pgUrl);
    const irqA0 = unchargedSeconds();
    const cpuA0 = cpuNow();
    const sampler = sampleRss(apiPid);
    const form = new FormData();
    form.append('options', JSON.stringify({ mode: 'sandbox', skipErrors: true }));
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'invoices.csv');
    const t0 = performance.now();
    const res = await guarded(fetch(`${base}/v1/invoices/bulk`, { method: 'POST', headers: { ...auth, 'Idempotency-Key': randomUUID() }, body: form }));
    const text = await res.text();
    const importS = (performance.now() - t0) / 1000;
    const rss = sampler.stop();
    const cpuA = cpuUsed(cpuA0, cpuNow(), 'rest of the machine (not ours)');
    const irqA = minus(unchargedSeconds(), irqA0);
    const after = memoryKb(apiPid)!;
    const issuesA = logIssuesSince(children, offsetsA);
    const report = JSON.parse(text);
    if (res.status !== 200) throw new Error(`import: HTTP ${res.status} ${text.slice(0, 500)}`);
    const inv = report.invoices as { received: number; created: number; updated: number; rejected: number };
    const reportOk = inv.created === INVOICES - BAD_ROWS.length && inv.rejected === BAD_ROWS.length && inv.updated === 0;
    const createdIds = (report.results as { status: string; id?: string }[]).filter((r) => r.status === 'created').map((r) => r.id!);
    console.log(`\n(a) import: HTTP ${res.status} in ${fmt(importS, 2)} s; report: received ${inv.received}, created ${inv.created}, updated ${inv.updated}, rejected ${inv.rejected}, ${report.errors.length} row errors (${[...new Set(report.errors.map((e: any) => e.code))].join(', ')}) — ${reportOk ? 'as expected' : `EXPECTED ${INVOICES - BAD_ROWS.length} created / ${BAD_ROWS.length} rejected`}`);
    console.log(`  API process (pid ${apiPid}) RSS: before ${fmt(mb(before.rss))} MB, peak during the import ${fmt(mb(rss.peakKb))} MB (${rss.samples} samples), after ${fmt(mb(after.rss))} MB; VmHWM (peak since start) ${fmt(mb(after.hwm))} MB`);
    printCpu('import', importS, cpuA, irqA, issuesA);
    await sleep(600); // PostgreSQL publishes its table counters every 500 ms
    printTables(tablesA0, await pgTables(pgUrl));

    // (b) submit, (c) until acknowledged
    const offsetsB = children.map(logSize);
    const tablesB0 = await pgTables(pgUrl);
    const irqB0 = unchargedSeconds();
    const cpuB0 = cpuNow();
    const submitStart = Date.now();
    const callMs: number[] = [];
    let submitted = 0;
    for (let i = 0; i < createdIds.length; i += SUBMIT_BATCH) {
      const r = await guarded(http(base, 'POST', '/v1/invoices/submit', { ...auth, 'Idempotency-Key': randomUUID() }, { ids: createdIds.slice(i, i + SUBMIT_BATCH) }));
      if (r.status !== 200) throw new Error(`submit: HTTP ${r.status} ${JSON.stringify(r.json).slice(0, 500)}`);
      submitted += r.json.submitted;
      callMs.push(r.ms);
    }
    const submitS = (Date.now() - submitStart) / 1000;
    console.log(`\n(b) submit: ${submitted} of ${createdIds.length} drafts submitted in ${callMs.length} calls, ${fmt(submitS, 2)} s (calls ${callMs.map((ms) => fmt(ms / 1000, 2)).join(', ')} s)`);
    const deadline = submitStart + ACK_LIMIT_MS;
    await guarded(waitOutOfPipeline(createdIds, deadline, { pollMs: 250, note }));
    const waitedS = (Date.now() - submitStart) / 1000;
    const cpuB = cpuUsed(cpuB0, cpuNow(), 'rest of the machine (not ours)');
    const irqB = minus(unchargedSeconds(), irqB0);
    const issuesB = logIssuesSince(children, offsetsB);
    const docs = await Invoice.find({ numberScope: scope }, { status: 1, history: 1 }).lean();
    const byStatus = new Map<string, number>();
    for (const d of docs) byStatus.set(d.status, (byStatus.get(d.status) ?? 0) + 1);
    const acked = byStatus.get('acknowledged') ?? 0;
    const final = ['acknowledged', 'rejected', 'blocked_no_credit'].reduce((n, st) => n + (byStatus.get(st) ?? 0), 0);
    const at = (d: (typeof docs)[number], s: string) => {
      const h = d.history.find((x) => x.status === s);
      return h ? new Date(h.at).getTime() : NaN;
    };
    const ackTimes = docs.map((d) => at(d, 'acknowledged')).filter(Number.isFinite);
    const lastAckS = ackTimes.length ? (Math.max(...ackTimes) - submitStart) / 1000 : NaN;
    const firstAckS = ackTimes.length ? (Math.min(...ackTimes) - submitStart) / 1000 : NaN;
    const allAcked = acked === submitted && submitted === createdIds.length;
    const queuedToAck = docs.map((d) => at(d, 'acknowledged') - at(d, 'queued')).filter(Number.isFinite).sort((a, b) => a - b);
    const pct = (q: number) => (queuedToAck.length ? queuedToAck[Math.min(queuedToAck.length - 1, Math.floor(q * (queuedToAck.length - 1)))] / 1000 : NaN);
    console.log(`\n(c) acknowledgements: ${acked} of ${submitted} acknowledged; first after ${fmt(firstAckS, 2)} s, last after ${fmt(lastAckS, 2)} s from the first submit call (${fmt(acked / lastAckS)} acknowledged/s)${final < submitted ? ` — WAIT CAPPED at ${ACK_LIMIT_MS / 1000} s` : ''}`);
    console.log(`  queued -> acknowledged per invoice: p50 ${fmt(pct(0.5), 2)} s, p99 ${fmt(pct(0.99), 2)} s`);
    console.log(`  statuses at the end: ${[...byStatus.entries()].map(([s, n]) => `${s} ${n}`).join(', ')}`);
    printCpu('first submit call to the end of the wait', waitedS, cpuB, irqB, issuesB);
    await sleep(600);
    printTables(tablesB0, await pgTables(pgUrl));

    // the table
    const rowsOut: [string, string, string, boolean][] = [
      ['(a) import request wall time', `${fmt(importS, 2)} s`, `< ${TARGETS.importS} s`, importS < TARGETS.importS],
      ['(a) API peak RSS during the import', `${fmt(mb(rss.peakKb))} MB`, `< ${TARGETS.rssMb} MB`, mb(rss.peakKb) < TARGETS.rssMb],
      ['(c) first submit -> all acknowledged', allAcked ? `${fmt(lastAckS, 2)} s` : `${acked}/${createdIds.length} in ${fmt(waitedS, 0)} s`, `< ${TARGETS.ackS} s`, allAcked && lastAckS < TARGETS.ackS],
    ];
    console.log(`\n${'figure'.padEnd(40)}${'measured'.padEnd(20)}${'target'.padEnd(10)}`);
    for (const [what, got, want, met] of rowsOut) console.log(`${what.padEnd(40)}${got.padEnd(20)}${want.padEnd(10)}${met ? 'met' : 'NOT met'}`);
    console.log(`file ${bytes} bytes (${fmt(bytes / 1e6, 2)} MB), ${INVOICES} invoices, ${lines} lines each (${rows} rows), ${BAD_ROWS.length} bad rows; report ${inv.created} created / ${inv.rejected} rejected${reportOk ? '' : ' (UNEXPECTED)'}; API RSS before the import ${fmt(mb(before.rss))} MB; submit ${fmt(submitS, 2)} s for ${callMs.length} calls`);
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
    void stopAll().finally(() => process.exit(1));
  },
);
