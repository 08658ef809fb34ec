// Appends a fact to its seller TRN's evidence chain: insert the next seq after the head; the unique {trn, seq}
// index lets exactly one of two racing appends take a seq, and the loser reads the new head and tries again.
// Single-document writes only (FerretDB: no transactions). The unique key makes a repeated fact a no-op.
// The head this process last wrote is remembered, so an append is one insert: the indexes, not a read before
// it, catch a stale head (another process appended) or a fact chained already. Entries are never removed.
import { EvidenceChainEntry } from '../db/models/evidence-chain-entry';
import { nextChainEntry, type ChainEntry, type ChainEntryBody } from './chain-hash';

export type ChainFact = Omit<ChainEntryBody, 'seq' | 'prevHash'>;

/** The identity of a fact: one hand-over per run, one answer per (run, status), one deletion per invoice. */
export const chainKey = (invoiceId: string, run: number | null, kind: ChainEntryBody['kind'], status = ''): string =>
  `${invoiceId}:${run ?? ''}:${kind}:${status}`;

const MAX_ATTEMPTS = 100;
/** TRNs whose head is remembered; the oldest is forgotten beyond this (it is read again when next needed). */
const MAX_HEADS = 10_000;

type Head = { seq: number; hash: string } | null;
const heads = new Map<string, Head>();

function remember(trn: string, head: Head): void {
  heads.delete(trn);
  heads.set(trn, head);
  if (heads.size > MAX_HEADS) heads.delete(heads.keys().next().value as string);
}

/** The appends in flight in this process, per TRN: each waits for the one before. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Appends the fact unless its key is chained already; returns the stored entry either way. Appends of one TRN run one
 * at a time in this process: racing them only made all but one retry, round after round (an SME's burst of 2,000
 * invoices spent more time retrying its chain than on the rest of the pipeline). Other processes still race, rarely.
 */
export function appendChainEntry(fact: ChainFact, key: string): Promise<ChainEntry> {
  const before = queues.get(fact.trn) ?? Promise.resolve();
  const append = before.then(() => appendNow(fact, key));
  const settled = append.catch(() => undefined);
  queues.set(fact.trn, settled);
  void settled.then(() => {
    if (queues.get(fact.trn) === settled) queues.delete(fact.trn);
  });
  return append;
}

async function appendNow(fact: ChainFact, key: string): Promise<ChainEntry> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const known = heads.has(fact.trn);
    const head = known ? (heads.get(fact.trn) ?? null) : await readHead(fact.trn);
    const entry = nextChainEntry(head, fact);
    try {
      await EvidenceChainEntry.create({ ...entry, key });
      remember(fact.trn, { seq: entry.seq, hash: entry.hash });
      return entry;
    } catch (err) {
      heads.delete(fact.trn);
      if ((err as { code?: number }).code !== 11000) throw err;
      // This very fact is chained already (a repeat), or another append took this seq: look again.
      const existing = await EvidenceChainEntry.findOne({ key }).lean<ChainEntry>();
      if (existing) return existing;
    }
  }
  throw new Error(`evidence chain of TRN ${fact.trn}: no free position after ${MAX_ATTEMPTS} attempts`);
}

async function readHead(trn: string): Promise<Head> {
  return EvidenceChainEntry.findOne({ trn }, { seq: 1, hash: 1 }).sort({ seq: -1 }).lean<{ seq: number; hash: string }>();
}
