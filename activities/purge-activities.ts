import { log } from '@temporalio/activity';
import { purgeExpiredRecords, type PurgeCounts } from '../src/services/purge-expired';

/** Deletes expired idempotency records, TRN cache entries and rate-limit windows; idempotent, safe to retry. */
export async function purgeExpired(): Promise<PurgeCounts> {
  const counts = await purgeExpiredRecords();
  log.info('purged expired records', { ...counts });
  return counts;
}
