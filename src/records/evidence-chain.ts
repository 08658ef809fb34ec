// What the evidence chain records (issue 34): each hand-over (the SHA-256 of the exact XML sent), each ASP status
// with its time and the acknowledgement reference, each deletion. Called after the evidence record is written,
// so the chain never names a fact the store does not hold; every call is idempotent (chain-append.ts keys), and
// a repeated answer re-chains whatever a crash left unchained.
import { AspSubmission, Invoice, type AspSubmissionDoc } from '../db/models';
import { EvidenceChainEntry } from '../db/models/evidence-chain-entry';
import { recentMap } from '../domain/recent-map';
import { appendChainEntry, chainKey } from './chain-append';
import { sha256Hex, type ChainEntry } from './chain-hash';

/** The pseudo-status of an entry recording an acknowledgement reference that came without a new status. */
export const ACK_REF_STATUS = 'ACK_REF';

/** What every entry of an invoice names: its seller's chain and its number. */
export interface InvoiceFacts { sellerTrn: string; number: string }

/**
 * The facts of invoices this process handed over lately. A handed-over invoice's seller and number never change
 * and it cannot be deleted until its retention ends, so the answers that follow (the simulated ASP's, a poll's)
 * chain without reading the invoice again. Bounded; forgotten at a deletion.
 */
const handedOver = recentMap<string, InvoiceFacts>(10_000);

async function invoiceFacts(invoiceId: string): Promise<InvoiceFacts | null> {
  return handedOver.get(invoiceId) ?? Invoice.findById(invoiceId, { sellerTrn: 1, number: 1 }).lean<InvoiceFacts>();
}

/** The hand-over of run `run`: the hash of the exact XML sent. (`seller`: the caller read the invoice already.) */
export async function chainHandOver(h: { invoiceId: string; run: number; xml: string; documentUuid: string; seller?: InvoiceFacts }): Promise<void> {
  const inv = h.seller ?? (await invoiceFacts(h.invoiceId));
  if (!inv) return; // deleted meanwhile: a hand-over never happens to a deleted invoice (its workflow stops)
  handedOver.set(h.invoiceId, { sellerTrn: inv.sellerTrn, number: inv.number });
  await appendChainEntry(
    {
      trn: inv.sellerTrn, kind: 'handover', invoiceId: h.invoiceId, number: inv.number, at: new Date().toISOString(),
      data: { run: h.run, sha256: sha256Hex(Buffer.from(h.xml, 'utf8')), documentUuid: h.documentUuid },
    },
    chainKey(h.invoiceId, h.run, 'handover'),
  );
}

/** Every ASP status (and acknowledgement reference) the evidence record of the run holds and the chain does not yet. */
export async function chainAnswers(invoiceId: string, run: number, source: string): Promise<void> {
  const [inv, record, chained] = await Promise.all([
    invoiceFacts(invoiceId),
    AspSubmission.findById(`${invoiceId}-${run}`, { statusAt: 1, ackRef: 1, submissionId: 1 }).lean<AspSubmissionDoc>(),
    EvidenceChainEntry.find({ invoiceId, kind: 'asp_answer' }, { key: 1, data: 1 }).lean<(ChainEntry & { key: string })[]>(),
  ]);
  if (!inv || !record) return;
  const keys = new Set(chained.map((e) => e.key));
  const entries: Pick<ChainEntry, 'data'>[] = [...chained];
  const answeredAt = new Date().toISOString();
  const statusAt = (record.statusAt ?? {}) as Record<string, string>;
  const ackRef = record.ackRef ?? null;
  const fact = (status: string, at: string) => ({
    trn: inv.sellerTrn, kind: 'asp_answer' as const, invoiceId, number: inv.number, at,
    data: { run, status, ackRef, submissionId: record.submissionId ?? null, source, answeredAt },
  });
  // In the order the ASP reached them, so the chain reads as the submission's history.
  for (const [status, at] of Object.entries(statusAt).sort((a, b) => a[1].localeCompare(b[1]))) {
    const key = chainKey(invoiceId, run, 'asp_answer', status);
    if (!keys.has(key)) entries.push(await appendChainEntry(fact(status, at), key));
  }
  if (ackRef) {
    const ackChained = entries.some((e) => Number(e.data.run) === run && e.data.ackRef === ackRef);
    if (!ackChained) await appendChainEntry(fact(ACK_REF_STATUS, answeredAt), chainKey(invoiceId, run, 'asp_answer', `${ACK_REF_STATUS}:${ackRef}`));
  }
}

/** Statuses an evidence writer has just stored for the first time, with what the record says after its write. */
export interface FreshAnswers {
  invoiceId: string;
  run: number;
  source: string;
  /** status -> the time the ASP reached it: exactly the statuses this write added. */
  fresh: Record<string, string>;
  ackRef: string | null;
  /** True when this write set or changed the acknowledgement reference. */
  ackRefChanged: boolean;
  submissionId: string | null;
  seller?: InvoiceFacts;
}

/**
 * The usual case of chainAnswers, without its three reads: a writer that has just added statuses chains exactly
 * those. What a crash between an earlier write and its append left unchained is caught by chainAnswers when the same
 * answer comes again (a retried step, a repeated callback, the fallback poll: each finds nothing new and re-chains).
 */
export async function chainFreshAnswers(a: FreshAnswers): Promise<void> {
  const inv = a.seller ?? (await invoiceFacts(a.invoiceId));
  if (!inv) return;
  const answeredAt = new Date().toISOString();
  const fact = (status: string, at: string) => ({
    trn: inv.sellerTrn, kind: 'asp_answer' as const, invoiceId: a.invoiceId, number: inv.number, at,
    data: { run: a.run, status, ackRef: a.ackRef, submissionId: a.submissionId, source: a.source, answeredAt },
  });
  const statuses = Object.entries(a.fresh).sort((x, y) => x[1].localeCompare(y[1]));
  for (const [status, at] of statuses) await appendChainEntry(fact(status, at), chainKey(a.invoiceId, a.run, 'asp_answer', status));
  // A new reference with no new status gets an entry of its own; with one, that entry carries it.
  if (a.ackRef && a.ackRefChanged && !statuses.length) {
    await appendChainEntry(fact(ACK_REF_STATUS, answeredAt), chainKey(a.invoiceId, a.run, 'asp_answer', `${ACK_REF_STATUS}:${a.ackRef}`));
  }
}

/** A deletion (DELETE of a never-handed-over invoice, or a purge after retention), written before the removal. */
export async function chainDeletion(d: { trn: string; invoiceId: string; number: string; by: string; bodySha256: string; status: string; reason?: string }): Promise<ChainEntry> {
  handedOver.delete(d.invoiceId);
  return appendChainEntry(
    {
      trn: d.trn, kind: 'deletion', invoiceId: d.invoiceId, number: d.number, at: new Date().toISOString(),
      data: { by: d.by, bodySha256: d.bodySha256, status: d.status, ...(d.reason ? { reason: d.reason } : {}) },
    },
    chainKey(d.invoiceId, null, 'deletion', d.reason ?? ''),
  );
}
