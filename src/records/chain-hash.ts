import { createHash } from 'node:crypto';

// The per-seller-TRN evidence chain (issue 34): every hand-over, ASP answer and deletion is one link whose
// hash covers the previous link's hash, so changing, removing or reordering any stored fact breaks every
// later link. Pure: the store and the append live in chain-append.ts.

export const GENESIS_HASH = '0'.repeat(64);

export type ChainEntryKind = 'handover' | 'asp_answer' | 'deletion';

/** One link of a seller TRN's chain, without its own hash. */
export interface ChainEntryBody {
  trn: string;            // seller TRN (Partner: the SME's TRN; Tenant: the tenant's TRN)
  seq: number;            // 1-based position in this TRN's chain
  kind: ChainEntryKind;
  invoiceId: string;
  number: string;         // invoice number
  at: string;             // ISO time the fact happened
  data: Record<string, unknown>; // handover: {run, sha256 (of the exact XML sent), documentUuid};
                          // asp_answer: {run, status, ackRef?, submissionId?, source, answeredAt};
                          // deletion: {by, bodySha256, status}
  prevHash: string;       // hash of entry seq-1, GENESIS_HASH for seq 1
}
export interface ChainEntry extends ChainEntryBody { hash: string }

/** Canonical JSON: object keys sorted recursively, no whitespace; undefined members dropped as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonicalJson: non-finite number');
    return JSON.stringify(value) ?? 'null';
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const members = Object.keys(obj).sort()
    .filter((k) => obj[k] !== undefined && typeof obj[k] !== 'function')
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`);
  return `{${members.join(',')}}`;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The body fields only: a stored document's extra fields (_id, hash, createdAt) never enter the hash. */
export function entryBody(e: ChainEntryBody): ChainEntryBody {
  return { trn: e.trn, seq: e.seq, kind: e.kind, invoiceId: e.invoiceId, number: e.number, at: e.at, data: e.data, prevHash: e.prevHash };
}

/** sha256 hex of the canonical JSON (keys sorted recursively, no whitespace) of the body. */
export function chainEntryHash(body: ChainEntryBody): string {
  return sha256Hex(canonicalJson(entryBody(body)));
}

/** Builds the next link after `prev` (null: the chain's first link). */
export function nextChainEntry(prev: { seq: number; hash: string } | null,
  fact: Omit<ChainEntryBody, 'seq' | 'prevHash'>): ChainEntry {
  const body: ChainEntryBody = { ...fact, seq: prev ? prev.seq + 1 : 1, prevHash: prev ? prev.hash : GENESIS_HASH };
  return { ...entryBody(body), hash: chainEntryHash(body) };
}

export type ChainVerdict = { ok: true; count: number; head: string | null } | { ok: false; seq: number; reason: string };

/** Checks links and hashes in order; startPrevHash defaults to GENESIS_HASH (pass the first entry's prevHash
 *  to verify a segment that does not start at seq 1). */
export function verifyChainSegment(entries: ChainEntry[], startPrevHash: string = GENESIS_HASH): ChainVerdict {
  let prevHash = startPrevHash;
  let prevSeq: number | null = null;
  for (const e of entries) {
    if (prevSeq !== null && e.seq !== prevSeq + 1) {
      return { ok: false, seq: e.seq, reason: `sequence gap: entry ${e.seq} follows ${prevSeq} (entry ${prevSeq + 1} is missing or out of order)` };
    }
    if (prevSeq === null && startPrevHash === GENESIS_HASH && e.seq !== 1) {
      return { ok: false, seq: e.seq, reason: `chain starts at entry ${e.seq}, not 1 (earlier entries are missing)` };
    }
    if (e.prevHash !== prevHash) {
      return { ok: false, seq: e.seq, reason: `broken link: prevHash ${e.prevHash} is not the previous entry's hash ${prevHash}` };
    }
    const recomputed = chainEntryHash(e);
    if (recomputed !== e.hash) {
      return { ok: false, seq: e.seq, reason: `entry altered: stored hash ${e.hash} but its content hashes to ${recomputed}` };
    }
    prevHash = e.hash;
    prevSeq = e.seq;
  }
  return { ok: true, count: entries.length, head: entries.length ? prevHash : null };
}
