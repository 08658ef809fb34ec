// npm run bench:records — the audit export (issue 34 point 4) of 1,000 and then 10,000 handed-over invoices of one
// Partner SME, through a real API process (src/server.ts) over HTTP, with that process's memory sampled.
//
// Provisions throw-away servers as the tests do (scripts/infra), fills the store in bulk as bench:reads does: per
// invoice the stored invoice, its hand-over record, the exact XML sent (rendered once from the minimal fixture,
// number and date changed: ~5 KB) and three chain entries (hand-over, UPLOADED, REPORTED with its ackRef) linked
// with the real chain hash. The small period (one month, BENCH_RECORDS_SMALL = 1,000) and the large one (a quarter,
// BENCH_RECORDS_LARGE = 10,000) are exported in turn by GET /v1/partner/records, the archive read as it streams and
// written to a file, then checked with `records verify --archive`'s code. Prints per export: time, archive size, the
// API's RSS before, its peak while streaming (sampled every 50 ms) and after, beside the targets (10,000 invoices
// in under 60 s; peak RSS growth at 10,000 no more than at 1,000 + 32 MB: flat). Never fails for a missed target.
import './quiet-logs';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { provisionInfra, type Infra } from '../infra';
import { freePort } from '../infra/net';
import { resetConfig } from '../../src/config';
import { connectMongo, disconnectMongo } from '../../src/db/connection';
import { AspSubmission, AspSubmissionDocument, Invoice } from '../../src/db/models';
import { renderInvoice } from '@einvoice/pint-ae';
import { nextChainEntry, sha256Hex, type ChainEntry } from '../../src/records/chain-hash';
import { verifyArchive } from '../../src/records/archive-verify';
import { connectSme, createPartner } from '../../src/services/admin';
import { startChild, waitForApi, type Child } from './e2e-procs';

const env = process.env;
const SMALL = Number(env.BENCH_RECORDS_SMALL || 1000);
const LARGE = Number(env.BENCH_RECORDS_LARGE || 10_000);
const TARGET_SECONDS = 60;
const FLAT_MB = 32;
const TEMPLATE = JSON.parse(fs.readFileSync(path.join(__dirname, '../../test/fixtures/bodies/01-tax-invoice-minimal.json'), 'utf8'));
const TRN = '100555000111203';
const SMALL_PERIOD = { from: '2026-05-01', to: '2026-05-31' };
const LARGE_PERIOD = { from: '2026-07-01', to: '2026-09-29' };

const note = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
const mb = (kb: number) => (kb / 1024).toFixed(0);

function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

let head: { seq: number; hash: string } | null = null;

/** n invoices of the SME issued over `period`, each handed over with its XML and three chain entries. */
async function fill(scope: { partnerId: string; smeId: string }, n: number, period: { from: string; to: string }): Promise<void> {
  const xmlTemplate = renderInvoice({ ...TEMPLATE, trn: TRN, seller: { ...TEMPLATE.seller, trn: TRN } });
  const start = Date.parse(`${period.from}T00:00:00Z`);
  const days = (Date.parse(`${period.to}T00:00:00Z`) - start) / 86_400_000 + 1;
  const chain = mongoose.connection.collection('evidence_chain');
  for (let done = 0; done < n; done += 500) {
    const batch = Array.from({ length: Math.min(500, n - done) }, (_, k) => {
      const i = done + k;
      const issueDate = new Date(start + (i % days) * 86_400_000).toISOString().slice(0, 10);
      const number = `REC-${period.from}-${i}`;
      const xml = xmlTemplate.replace(`<cbc:ID>${TEMPLATE.number}</cbc:ID>`, `<cbc:ID>${number}</cbc:ID>`).replace(`<cbc:IssueDate>${TEMPLATE.issueDate}</cbc:IssueDate>`, `<cbc:IssueDate>${issueDate}</cbc:IssueDate>`);
      return { id: randomUUID(), number, issueDate, xml, createdAt: new Date(Date.parse(`${issueDate}T08:00:00Z`) + i) };
    });
    await Invoice.collection.insertMany(batch.map((b) => ({
      _id: b.id, ...scope, tenantId: null, mode: 'live', number: b.number, numberScope: `sme:${scope.smeId}`, numberPeriod: 2026, issueDate: b.issueDate, sellerTrn: TRN, status: 'acknowledged', listStatus: 'acknowledged', reason: null, run: 1,
      history: [], body: { ...TEMPLATE, number: b.number, issueDate: b.issueDate }, externalRef: null, originKey: null, documentUuid: randomUUID(), heldReason: null,
      aspSubmissionId: `SUB-${b.number}`, ackRef: `ACK-${b.number}`, source: null, tenantInvoiceType: null, tenantInput: null, creditChargedRun: null, createdAt: b.createdAt, updatedAt: b.createdAt,
    })) as never[], { ordered: false });
    await AspSubmissionDocument.collection.insertMany(batch.map((b) => ({ _id: `${b.id}-1`, xml: b.xml, createdAt: b.createdAt, updatedAt: b.createdAt })) as never[], { ordered: false });
    await AspSubmission.collection.insertMany(batch.map((b) => ({
      _id: `${b.id}-1`, invoiceId: b.id, run: 1, submissionId: `SUB-${b.number}`, documentUuid: randomUUID(), documentSha256: sha256Hex(Buffer.from(b.xml, 'utf8')),
      statusAt: { UPLOADED: b.createdAt.toISOString(), REPORTED: b.createdAt.toISOString() }, mls: null, ackRef: `ACK-${b.number}`,
      answers: [{ at: b.createdAt, source: 'callback', body: { submissionId: `SUB-${b.number}`, status: 'REPORTED', ackRef: `ACK-${b.number}` } }], createdAt: b.createdAt, updatedAt: b.createdAt,
    })) as never[], { ordered: false });
    const entries: (ChainEntry & { key: string })[] = [];
    for (const b of batch) {
      const at = b.createdAt.toISOString();
      const facts = [
        { kind: 'handover' as const, data: { run: 1, sha256: sha256Hex(Buffer.from(b.xml, 'utf8')), documentUuid: randomUUID() }, key: `${b.id}:1:handover` },
        { kind: 'asp_answer' as const, data: { run: 1, status: 'UPLOADED', ackRef: null, submissionId: `SUB-${b.number}`, source: 'handover', answeredAt: at }, key: `${b.id}:1:asp_answer:UPLOADED` },
        { kind: 'asp_answer' as const, data: { run: 1, status: 'REPORTED', ackRef: `ACK-${b.number}`, submissionId: `SUB-${b.number}`, source: 'callback', answeredAt: at }, key: `${b.id}:1:asp_answer:REPORTED` },
      ];
      for (const f of facts) {
        const e = nextChainEntry(head, { trn: TRN, kind: f.kind, invoiceId: b.id, number: b.number, at, data: f.data });
        head = { seq: e.seq, hash: e.hash };
        entries.push({ ...e, key: f.key });
      }
    }
    await chain.insertMany(entries as never[], { ordered: false });
  }
}

interface Measured {
  invoices: number;
  seconds: number;
  bytes: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
  verified: string;
}

async function exportOnce(base: string, headers: Record<string, string>, api: Child, period: { from: string; to: string }, invoices: number, dir: string): Promise<Measured> {
  const pid = api.proc.pid!;
  const file = path.join(dir, `records-${period.from}.tar`);
  const rssBefore = rssKb(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssKb(pid))), 50);
  const t = performance.now();
  const res = await fetch(`${base}/v1/partner/records?from=${period.from}&to=${period.to}`, { headers });
  if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  const out = fs.createWriteStream(file);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, rssKb(pid));
  await new Promise((r) => setTimeout(r, 1000));
  const rssAfter = rssKb(pid);
  const v = await verifyArchive(file);
  const verified = v.ok && v.documents === invoices ? `ok (${v.documents} documents, ${v.chainEntries} chain entries)` : `NOT OK: ${v.documents} documents, ${v.problems.slice(0, 3).join('; ')}`;
  return { invoices, seconds, bytes, rssBefore, rssPeak, rssAfter, verified };
}

let infra: Infra | undefined;
let api: Child | undefined;

async function main(): Promise<void> {
  infra = await provisionInfra('test');
  note(`store: ${infra.mongo.how}`);
  process.env.MONGODB_URI = infra.mongo.uri;
  process.env.TEMPORAL_ADDRESS = infra.temporal.address;
  resetConfig();
  await connectMongo(infra.mongo.uri);
  const partner = await createPartner({ name: 'Bench ERP records', mode: 'live', webhookUrl: null });
  const sme = await connectSme({ partnerId: partner.partnerId, trn: TRN, name: 'Bench SME records' });
  const scope = { partnerId: partner.partnerId, smeId: sme.smeId };
  const headers = { 'X-API-Key': partner.apiKey, 'X-API-Secret': partner.apiSecret, 'x-erp-partner-secret': sme.connectionSecret };
  let t = Date.now();
  note(`filling ${SMALL} invoices in ${SMALL_PERIOD.from}..${SMALL_PERIOD.to} and ${LARGE} in ${LARGE_PERIOD.from}..${LARGE_PERIOD.to}`);
  await fill(scope, SMALL, SMALL_PERIOD);
  await fill(scope, LARGE, LARGE_PERIOD);
  note(`filled in ${((Date.now() - t) / 1000).toFixed(0)} s`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-records-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // node itself with tsx's loader (startChild's form with node flags): one process, whose RSS is the API's
  // BENCH_RECORDS_API_FLAGS: node flags of the API, e.g. --max-old-space-size=192 to show the export needs no heap
  // that grows with the period (it would die of it) rather than RSS that V8 grows lazily between collections.
  const apiFlags = (env.BENCH_RECORDS_API_FLAGS || '--enable-source-maps').split(/\s+/).filter(Boolean);
  api = startChild('api', 'src/server.ts', { ...env, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', ADMIN_TOKEN: '' }, dir, apiFlags);
  await waitForApi(base, api);
  await exportOnce(base, headers, api, { from: SMALL_PERIOD.from, to: SMALL_PERIOD.from }, Math.ceil(SMALL / 31), dir); // warm-up: JIT, plans (not reported)
  t = Date.now();
  const small = await exportOnce(base, headers, api, SMALL_PERIOD, SMALL, dir);
  const large = await exportOnce(base, headers, api, LARGE_PERIOD, LARGE, dir);

  console.log(`\nGET /v1/partner/records through the API process (node ${apiFlags.join(' ')}; store: ${infra.mongo.how}; ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  console.log(`${'invoices'.padEnd(10)}${'time s'.padStart(8)}${'archive MB'.padStart(12)}${'RSS before'.padStart(12)}${'peak'.padStart(8)}${'after'.padStart(8)}${'growth'.padStart(8)}   verify --archive`);
  for (const m of [small, large]) {
    console.log(`${String(m.invoices).padEnd(10)}${m.seconds.toFixed(1).padStart(8)}${(m.bytes / 1048576).toFixed(1).padStart(12)}${`${mb(m.rssBefore)} MB`.padStart(12)}${mb(m.rssPeak).padStart(8)}${mb(m.rssAfter).padStart(8)}${mb(m.rssPeak - m.rssBefore).padStart(8)}   ${m.verified}`);
  }
  const growthSmall = (small.rssPeak - small.rssBefore) / 1024;
  const growthLarge = (large.rssPeak - large.rssBefore) / 1024;
  console.log(`\ntarget: ${LARGE} invoices in under ${TARGET_SECONDS} s: ${large.seconds.toFixed(1)} s, ${large.seconds < TARGET_SECONDS ? 'met' : 'NOT MET'}`);
  console.log(`target: memory flat (peak RSS growth at ${LARGE} within that at ${SMALL} + ${FLAT_MB} MB): ${growthLarge.toFixed(0)} MB vs ${growthSmall.toFixed(0)} MB, ${growthLarge <= growthSmall + FLAT_MB ? 'met' : 'NOT MET'}`);
  fs.rmSync(dir, { recursive: true, force: true });
}

process.once('SIGINT', () => void Promise.all([api?.stop(), infra?.stop()]).finally(() => process.exit(130)));

main()
  .catch((err) => {
    process.exitCode = 1;
    console.error(err);
  })
  .finally(async () => {
    await api?.stop().catch(() => {});
    await disconnectMongo().catch(() => {});
    await infra?.stop();
  });
