// Appends facts to their seller TRN's evidence chain: insert the next seqs after the head; the unique {trn, seq}
// index lets exactly one of two racing appends take a seq, and the loser reads the new head and tries again.
// Single-document atomicity only (FerretDB: no transactions). The unique key makes a repeated fact a no-op.
// The head this process last wrote is remembered, so an append is one insert: the indexes, not a read before
// it, catch a stale head (another process appended) or a fact chained already. Entries are never removed.
import { EvidenceChainEntry } from '../db/models/evidence-chain-entry';
import { recentMap } from '../domain/recent-map';
import { nextChainEntry, type ChainEntry, type ChainEntryBody } from './chain-hash';

export type ChainFact = Omit<ChainEntryBody, 'seq' | 'prevHash'>;

/** The identity of a fact: one hand-over per run, one answer per (run, status), one deletion per invoice. */
export const chainKey = (invoiceId: string, run: number | null, kind: ChainEntryBody['kind'], status = ''): string =>
  `${invoiceId}:${run ?? ''}:${kind}:${status}`;

/** Tries without progress (each lost a seq to another process) before an append gives up. */
const MAX_ATTEMPTS = 100;
/** Facts written by one insert at most. */
const MAX_BATCH = 100;
/** TRNs whose head is remembered; the oldest is forgotten beyond this (it is read again when next needed). */
const MAX_HEADS = 10_000;

type Head = { seq: number; hash: string } | null;
const heads = recentMap<string, Head>(MAX_HEADS);

interface Pending {
  fact: ChainFact;
  key: string;
  resolve(entry: ChainEntry): void;
  reject(err: unknown): void;
}

/** Per TRN with an insert in flight: the appends that came meanwhile, written together by the next insert. */
const waiting = new Map<string, Pending[]>();

/**
 * Appends the fact unless its key is chained already; returns the stored entry either way. The appends of one TRN
 * are written one insert at a time in this process, and those that arrive while an insert is in flight go
 * together in the next (racing them only made all but one retry, round after round; one insert each made an SME's
 * burst queue behind its own chain). Other processes still race, rarely.
 */
export function appendChainEntry(fact: ChainFact, key: string): Promise<ChainEntry> {
  return new Promise<ChainEntry>((resolve, reject) => {
    const queue = waiting.get(fact.trn);
    if (queue) return void queue.push({ fact, key, resolve, reject });
    waiting.set(fact.trn, [{ fact, key, resolve, reject }]);
    void drain(fact.trn);
  });
}

async function drain(trn: string): Promise<void> {
  const queue = waiting.get(trn)!;
  while (queue.length) {
    const batch = queue.splice(0, MAX_BATCH);
    await appendInOrder(trn, batch).catch((err: unknown) => batch.forEach((p) => p.reject(err)));
  }
  waiting.delete(trn);
}

/** Chains the facts in their order, settling each as it is stored or found chained already. */
async function appendInOrder(trn: string, facts: Pending[]): Promise<void> {
  let rest = facts;
  for (let fruitless = 0; rest.length && fruitless < MAX_ATTEMPTS; ) {
    const head = heads.has(trn) ? (heads.get(trn) ?? null) : await readHead(trn);
    const entries: ChainEntry[] = [];
    for (const p of rest) entries.push(nextChainEntry(entries.length ? entries[entries.length - 1] : head, p.fact));
    // Ordered: a refused entry stops the insert there, so the stored ones are exactly those before it.
    const refusal = await EvidenceChainEntry.insertMany(
      entries.map((e, i) => ({ ...e, key: rest[i].key })),
      { ordered: true },
    ).then(() => null, (err: unknown) => err as { writeErrors?: { index: number; code?: number }[] });
    const stored = refusal ? (refusal.writeErrors?.[0]?.index ?? 0) : entries.length;
    rest.slice(0, stored).forEach((p, i) => p.resolve(entries[i]));
    if (!refusal) {
      const last = entries[entries.length - 1];
      return heads.set(trn, { seq: last.seq, hash: last.hash });
    }
    heads.delete(trn);
    if (refusal.writeErrors?.[0]?.code !== 11000) throw refusal;
    // This very fact is chained already (a repeat), or another process took its seq: look again.
    const refused = rest[stored];
    const existing = await EvidenceChainEntry.findOne({ key: refused.key }).lean<ChainEntry>();
    if (existing) refused.resolve(existing);
    fruitless = stored > 0 || existing ? 0 : fruitless + 1;
    rest = rest.slice(stored + (existing ? 1 : 0));
  }
  const exhausted = new Error(`evidence chain of TRN ${trn}: no free position after ${MAX_ATTEMPTS} attempts`);
  rest.forEach((p) => p.reject(exhausted));
}

async function readHead(trn: string): Promise<Head> {
  return EvidenceChainEntry.findOne({ trn }, { seq: 1, hash: 1 }).sort({ seq: -1 }).lean<{ seq: number; hash: string }>();
}
