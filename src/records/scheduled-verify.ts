// The maintenance schedule's chain check: every seller TRN's new links since its last verified head, and the
// whole chain again once a day (a changed old document shows within a day, without re-reading every document
// every ten minutes). Breaks are logged and counted (records-metrics.ts); nothing is repaired.
import { EvidenceChainCheck, EvidenceChainEntry } from '../db/models/evidence-chain-entry';
import { logger } from '../logger';
import { verifyTrnChain, type ChainBreak } from './chain-verify';
import { chainBreaks, chainEntriesVerified, chainsBroken } from './records-metrics';

export const FULL_PASS_EVERY_MS = 24 * 60 * 60_000;
/** A status written this recently may be waiting for its chain append: not yet reported. */
export const APPEND_GRACE_MS = 5 * 60_000;

export interface ChainCheckSummary {
  chains: number;
  entriesVerified: number;
  fullPasses: number;
  breaks: ChainBreak[];
}

export async function verifyEvidenceChains(opts: { now?: Date; trns?: string[] } = {}): Promise<ChainCheckSummary> {
  const now = opts.now ?? new Date();
  const trns = opts.trns ?? ((await EvidenceChainEntry.distinct('trn')) as string[]);
  const summary: ChainCheckSummary = { chains: trns.length, entriesVerified: 0, fullPasses: 0, breaks: [] };
  for (const trn of trns) {
    const check = await EvidenceChainCheck.findById(trn).lean();
    const full = !check || now.getTime() - new Date(check.fullAt).getTime() >= FULL_PASS_EVERY_MS;
    const report = await verifyTrnChain(trn, { after: full || !check ? undefined : { seq: check.seq, hash: check.hash }, graceMs: APPEND_GRACE_MS, now });
    summary.entriesVerified += report.entries;
    chainEntriesVerified.inc(report.entries);
    if (!report.ok) {
      summary.breaks.push(report);
      chainBreaks.inc();
      logger.error({ trn, seq: report.seq, kind: report.kind, invoiceId: report.invoiceId, number: report.number, reason: report.reason }, 'evidence chain break: a stored record no longer matches its chain entry');
      continue;
    }
    if (full) summary.fullPasses += 1;
    if (report.head) {
      await EvidenceChainCheck.updateOne({ _id: trn }, { $set: { seq: report.head.seq, hash: report.head.hash, fullAt: full ? now : check!.fullAt } }, { upsert: true });
    }
  }
  if (!opts.trns) chainsBroken.set(summary.breaks.length);
  return summary;
}
