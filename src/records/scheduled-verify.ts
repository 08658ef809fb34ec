// The maintenance schedule's chain check: every seller TRN's new links since its last verified head, and a full pass
// over every chain once a day (a changed old document shows within a day, without re-reading every document every
// ten minutes). A run has a time budget: a full pass it cannot finish stops where it is and the next run goes on from
// there, so the check keeps within its activity's timeout however large the store grows. Breaks are logged and
// counted (records-metrics.ts); nothing is repaired.
import { EvidenceChainCheck, EvidenceChainEntry } from '../db/models/evidence-chain-entry';
import { logger } from '../logger';
import { verifyTrnChain, type ChainBreak, type ChainReport } from './chain-verify';
import { chainBreaks, chainEntriesVerified, chainsBroken } from './records-metrics';

export const FULL_PASS_EVERY_MS = 24 * 60 * 60_000;
/** A status written this recently may be waiting for its chain append: not yet reported. */
export const APPEND_GRACE_MS = 5 * 60_000;
/** One run's time (its activity may take 8 minutes; runs are 10 minutes apart): what is left waits for the next run. */
export const RUN_BUDGET_MS = 4 * 60_000;

export interface ChainCheckSummary {
  chains: number;
  entriesVerified: number;
  fullPasses: number;
  /** Full passes due or under way that this run's budget left for the next run. */
  unfinished: number;
  breaks: ChainBreak[];
}

type Check = { seq?: number | null; hash?: string | null; fullAt?: Date | null; pass?: { seq?: number | null; hash?: string | null; startedAt?: Date | null } | null };

export async function verifyEvidenceChains(opts: { now?: Date; trns?: string[]; budgetMs?: number } = {}): Promise<ChainCheckSummary> {
  const now = opts.now ?? new Date();
  const deadline = Date.now() + (opts.budgetMs ?? RUN_BUDGET_MS);
  const trns = opts.trns ?? ((await EvidenceChainEntry.distinct('trn')) as string[]);
  const checks = new Map<string, Check | null>();
  for (const trn of trns) checks.set(trn, await EvidenceChainCheck.findById(trn).lean<Check>());
  const summary: ChainCheckSummary = { chains: trns.length, entriesVerified: 0, fullPasses: 0, unfinished: 0, breaks: [] };
  const broken = (report: ChainReport): report is ChainBreak => {
    summary.entriesVerified += report.entries;
    chainEntriesVerified.inc(report.entries);
    if (report.ok) return false;
    summary.breaks.push(report);
    chainBreaks.inc();
    logger.error({ trn: report.trn, seq: report.seq, kind: report.kind, invoiceId: report.invoiceId, number: report.number, reason: report.reason }, 'evidence chain break: a stored record no longer matches its chain entry');
    return true;
  };
  // New links first, for every TRN: they are few, and a long full pass must not hold them back.
  for (const trn of trns) {
    const check = checks.get(trn);
    if (check?.seq == null || !check.hash) continue; // its first full pass covers them
    const report = await verifyTrnChain(trn, { after: { seq: check.seq, hash: check.hash }, graceMs: APPEND_GRACE_MS, now, deadline });
    if (broken(report)) {
      checks.delete(trn); // reported once a run; its full pass would stop at the same break
      continue;
    }
    if (report.head && report.head.seq !== check.seq) {
      await EvidenceChainCheck.updateOne({ _id: trn }, { $set: { seq: report.head.seq, hash: report.head.hash } });
      Object.assign(check, report.head);
    }
  }
  // Then full passes, the longest waiting first: a chain a budget cannot cover goes on in the next run. Each run
  // moves at least one pass forward, even when new links took the whole budget.
  let advanced = false;
  for (const trn of fullPassesDue(checks, now)) {
    if (advanced && Date.now() >= deadline) {
      summary.unfinished += 1;
      continue;
    }
    advanced = true;
    const check = checks.get(trn) ?? null;
    const pass = check?.pass?.seq != null && check.pass.hash ? { seq: check.pass.seq, hash: check.pass.hash } : undefined;
    const report = await verifyTrnChain(trn, { after: pass, graceMs: APPEND_GRACE_MS, now, deadline });
    if (broken(report)) continue; // the pass stays where it was: the next run meets the break again until it is repaired
    const startedAt = check?.pass?.startedAt ?? now;
    if (report.unfinished) {
      summary.unfinished += 1;
      await EvidenceChainCheck.updateOne({ _id: trn }, { $set: { pass: { ...report.head!, startedAt } } }, { upsert: true });
      continue;
    }
    summary.fullPasses += 1;
    // A chain checked to its end: its head moves there unless new links were verified further already.
    const head = report.head && (check?.seq == null || report.head.seq > check.seq) ? { seq: report.head.seq, hash: report.head.hash } : {};
    if (report.head || check) await EvidenceChainCheck.updateOne({ _id: trn }, { $set: { ...head, fullAt: startedAt }, $unset: { pass: '' } }, { upsert: true });
  }
  if (!opts.trns) chainsBroken.set(summary.breaks.length);
  return summary;
}


/** The TRNs whose full pass is under way or due, the longest waiting first (never checked: first of all). */
function fullPassesDue(checks: Map<string, Check | null>, now: Date): string[] {
  const waitingSince = (c: Check | null): number => (c?.pass?.startedAt ? new Date(c.pass.startedAt).getTime() : c?.fullAt ? new Date(c.fullAt).getTime() + FULL_PASS_EVERY_MS : 0);
  return [...checks.entries()]
    .filter(([, c]) => !c || c.pass || !c.fullAt || now.getTime() - new Date(c.fullAt).getTime() >= FULL_PASS_EVERY_MS)
    .sort(([, a], [, b]) => waitingSince(a) - waitingSince(b))
    .map(([trn]) => trn);
}
