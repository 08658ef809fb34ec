import { log } from '@temporalio/activity';
import { purgeExpiredRecords, type PurgeCounts } from '../src/services/purge-expired';
import { verifyEvidenceChains, type ChainCheckSummary } from '../src/records/scheduled-verify';

/** Deletes expired idempotency records, TRN cache entries and rate-limit windows; idempotent, safe to retry. */
export async function purgeExpired(): Promise<PurgeCounts> {
  const counts = await purgeExpiredRecords();
  log.info('purged expired records', { ...counts });
  return counts;
}

/** Verifies the evidence chains (src/records/scheduled-verify.ts); breaks are logged and counted there. Read-only. */
export async function verifyEvidenceChainsStep(): Promise<{ chains: number; entriesVerified: number; fullPasses: number; breaks: number }> {
  const summary: ChainCheckSummary = await verifyEvidenceChains();
  log.info('verified evidence chains', { chains: summary.chains, entriesVerified: summary.entriesVerified, fullPasses: summary.fullPasses, unfinished: summary.unfinished, breaks: summary.breaks.length });
  return { chains: summary.chains, entriesVerified: summary.entriesVerified, fullPasses: summary.fullPasses, breaks: summary.breaks.length };
}
