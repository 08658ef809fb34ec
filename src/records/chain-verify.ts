// `einvoice records verify --trn` and the scheduled check: walks a seller TRN's evidence chain in order, checks
// each link (chain-hash.ts) and each entry against what the store holds now: the hand-over's XML re-hashed (the
// evidence copy and GET …/document's), the ASP statuses with their times, the acknowledgement reference, the
// deletion records. The first entry that does not match is the answer.
import { AspSubmission, AspSubmissionDocument, Invoice, InvoiceDocument, type AspSubmissionDoc } from '../db/models';
import { EvidenceChainEntry } from '../db/models/evidence-chain-entry';
import { canonicalJson, chainEntryHash, GENESIS_HASH, sha256Hex, type ChainEntry } from './chain-hash';
import { ACK_REF_STATUS } from './evidence-chain';

export type ChainBreak = { trn: string; ok: false; seq: number; kind: string | null; invoiceId: string | null; number: string | null; reason: string; entries: number };
/** `unfinished`: the walk stopped at its deadline; `head` is the last entry verified, where the next walk starts. */
export type ChainReport = { trn: string; ok: true; entries: number; head: { seq: number; hash: string } | null; unfinished?: true } | ChainBreak;

export interface VerifyOptions {
  /** Start after this verified head (the scheduled check between full passes); default: the whole chain. */
  after?: { seq: number; hash: string };
  /** Statuses written this recently may not be chained yet (the append follows the write): not yet a break. */
  graceMs?: number;
  now?: Date;
  /** Stop between entries once this time (epoch ms) has passed, after at least one entry: the rest is another walk's. */
  deadline?: number;
}

type StoredEntry = ChainEntry & { key?: string };

interface InvoiceEvidence {
  submissions: Map<number, AspSubmissionDoc>;
  chained: StoredEntry[];
}

const CACHE_LIMIT = 500;

export async function verifyTrnChain(trn: string, opts: VerifyOptions = {}): Promise<ChainReport> {
  const now = opts.now ?? new Date();
  const graceMs = opts.graceMs ?? 0;
  // Records purged after their retention: their entries stay, their documents are gone on purpose.
  const purged = new Set<string>(await EvidenceChainEntry.distinct('invoiceId', { trn, kind: 'deletion', 'data.reason': 'retention_expired' }));
  const cache = new Map<string, InvoiceEvidence>();
  const evidenceOf = async (invoiceId: string): Promise<InvoiceEvidence> => {
    let found = cache.get(invoiceId);
    if (!found) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      const [subs, chained] = await Promise.all([
        AspSubmission.find({ invoiceId }, { xml: 0, answers: 0, refusedSignals: 0 }).lean<AspSubmissionDoc[]>(),
        EvidenceChainEntry.find({ invoiceId }, { _id: 0 }).lean<StoredEntry[]>(),
      ]);
      found = { submissions: new Map(subs.map((s) => [s.run, s])), chained };
      cache.set(invoiceId, found);
    }
    return found;
  };

  let prevHash = opts.after?.hash ?? GENESIS_HASH;
  let expectedSeq = (opts.after?.seq ?? 0) + 1;
  let count = 0;
  let unfinished = false;
  const cursor = EvidenceChainEntry.find({ trn, seq: { $gte: expectedSeq } }, { _id: 0, key: 0 }).sort({ seq: 1 }).lean<StoredEntry[]>().cursor({ batchSize: 500 });
  try {
    for await (const e of cursor as AsyncIterable<StoredEntry>) {
      if (opts.deadline !== undefined && count > 0 && Date.now() >= opts.deadline) {
        unfinished = true;
        break;
      }
      const broken = (reason: string): ChainBreak => ({ trn, ok: false, seq: e.seq, kind: e.kind, invoiceId: e.invoiceId, number: e.number, reason, entries: count });
      if (e.seq !== expectedSeq) return { ...broken(`entry ${expectedSeq} is missing (the next stored entry is ${e.seq})`), seq: expectedSeq };
      if (e.prevHash !== prevHash) return broken(`broken link: prevHash ${e.prevHash} is not the hash of entry ${e.seq - 1} (${prevHash})`);
      const recomputed = chainEntryHash(e);
      if (recomputed !== e.hash) return broken(`entry altered: stored hash ${e.hash}, its content hashes to ${recomputed}`);
      const mismatch = await checkStored(e, purged.has(e.invoiceId), evidenceOf, now, graceMs);
      if (mismatch) return broken(mismatch);
      prevHash = e.hash;
      expectedSeq += 1;
      count += 1;
    }
  } finally {
    await cursor.close().catch(() => undefined);
  }
  const headSeq = expectedSeq - 1;
  return { trn, ok: true, entries: count, head: headSeq > 0 ? { seq: headSeq, hash: prevHash } : null, ...(unfinished && { unfinished: true as const }) };
}

/** What does not match between an entry and the store, or null. */
async function checkStored(e: StoredEntry, purged: boolean, evidenceOf: (id: string) => Promise<InvoiceEvidence>, now: Date, graceMs: number): Promise<string | null> {
  if (e.kind === 'deletion') return purged ? null : checkDeletion(e);
  const run = Number(e.data.run);
  const ev = await evidenceOf(e.invoiceId);
  const record = ev.submissions.get(run);
  if (!record) return purged ? null : `the evidence record of run ${run} (${e.invoiceId}-${run}) is missing`;
  if (e.kind === 'handover') return checkHandOver(e, record, ev, now, graceMs);
  return checkAnswer(e, record, ev, now, graceMs);
}

async function checkHandOver(e: StoredEntry, record: AspSubmissionDoc, ev: InvoiceEvidence, now: Date, graceMs: number): Promise<string | null> {
  const { run, sha256, documentUuid } = e.data as { run: number; sha256: string; documentUuid: string };
  if (record.documentSha256 !== sha256) return `the evidence record's SHA-256 of run ${run} is ${record.documentSha256}, the chain says ${sha256}`;
  if (record.documentUuid !== documentUuid) return `the evidence record's document UUID of run ${run} is ${record.documentUuid}, the chain says ${documentUuid}`;
  const stored = await AspSubmissionDocument.findById(record._id, { xml: 1 }).lean();
  const xml = stored?.xml ?? (await AspSubmission.findById(record._id, { xml: 1 }).lean())?.xml;
  if (xml == null) return `the XML handed over in run ${run} is missing`;
  const actual = sha256Hex(Buffer.from(xml, 'utf8'));
  if (actual !== sha256) return `the stored XML handed over in run ${run} hashes to ${actual}, the chain says ${sha256} (changed after the hand-over)`;
  // GET …/document serves the latest run's copy: the one of this run must be the same bytes.
  const served = await InvoiceDocument.findById(e.invoiceId, { xml: 1, run: 1 }).lean();
  if (served && served.run === run) {
    const servedHash = sha256Hex(Buffer.from(served.xml, 'utf8'));
    if (servedHash !== sha256) return `the document GET …/document serves for run ${run} hashes to ${servedHash}, the chain says ${sha256}`;
  }
  // With no answer chained yet, the record must hold none either.
  if (!ev.chained.some((c) => c.kind === 'asp_answer' && Number(c.data.run) === run)) return unchainedInRecord(record, run, ev, now, graceMs);
  return null;
}

/** What the record holds that no answer of its run chained (checked at the run's last chained answer). */
function unchainedInRecord(record: AspSubmissionDoc, run: number, ev: InvoiceEvidence, now: Date, graceMs: number): string | null {
  if (record.updatedAt && now.getTime() - new Date(record.updatedAt).getTime() < graceMs) return null; // its append may be in flight
  const answers = ev.chained.filter((c) => c.kind === 'asp_answer' && Number(c.data.run) === run);
  for (const status of Object.keys((record.statusAt ?? {}) as Record<string, string>)) {
    if (!answers.some((c) => c.data.status === status)) return `the evidence record of run ${run} holds status ${status}, which the chain never recorded`;
  }
  if (record.ackRef && !answers.some((c) => c.data.ackRef === record.ackRef)) return `the evidence record of run ${run} holds ackRef ${record.ackRef}, which the chain never recorded`;
  return null;
}

function checkAnswer(e: StoredEntry, record: AspSubmissionDoc, ev: InvoiceEvidence, now: Date, graceMs: number): string | null {
  const { run, status, ackRef, submissionId } = e.data as { run: number; status: string; ackRef: string | null; submissionId: string | null };
  if (status !== ACK_REF_STATUS) {
    const at = ((record.statusAt ?? {}) as Record<string, string>)[status];
    if (at === undefined) return `status ${status} of run ${run} is no longer in the evidence record`;
    if (at !== e.at) return `the evidence record says status ${status} of run ${run} was reached at ${at}, the chain says ${e.at}`;
  }
  if (submissionId && record.submissionId !== submissionId) return `the evidence record's submission id of run ${run} is ${record.submissionId}, the chain says ${submissionId}`;
  if (ackRef && record.ackRef !== ackRef) {
    // Only a later chained answer may have changed it.
    const later = ev.chained.some((c) => c.kind === 'asp_answer' && Number(c.data.run) === run && c.seq > e.seq && c.data.ackRef === record.ackRef);
    if (!later) return `the evidence record's ackRef of run ${run} is ${record.ackRef ?? 'null'}, the chain says ${ackRef}`;
  }
  const lastOfRun = !ev.chained.some((c) => c.kind === 'asp_answer' && Number(c.data.run) === run && c.seq > e.seq);
  return lastOfRun ? unchainedInRecord(record, run, ev, now, graceMs) : null;
}

async function checkDeletion(e: StoredEntry): Promise<string | null> {
  const archive = await Invoice.db.collection('deleted_invoices').findOne({ _id: e.invoiceId } as never, { projection: { body: 1 } });
  if (!archive) return `the deletion record of ${e.invoiceId} is missing from deleted_invoices`;
  const actual = sha256Hex(canonicalJson(archive.body));
  if (actual !== e.data.bodySha256) return `the archived body of deleted invoice ${e.invoiceId} hashes to ${actual}, the chain says ${e.data.bodySha256}`;
  return null;
}
