import { purgeExpiredIdempotencyRecords } from './idempotency';
import { purgeExpiredRateLimitWindows } from './rate-budget';
import { purgeExpiredTrnCache } from './trn-validation';

export interface PurgeCounts {
  idempotencyRecords: number;
  trnCache: number;
  rateLimitWindows: number;
}

/**
 * Removes everything past its expiresAt (FerretDB 1.x has no TTL indexes, so nothing expires by itself). Never tax
 * records: invoices, their documents, hand-over evidence, deletion records and the evidence chain leave only
 * through `einvoice records purge` after their retention (src/records/records-purge.ts; issue 34).
 */
export async function purgeExpiredRecords(now = new Date()): Promise<PurgeCounts> {
  const [idempotencyRecords, trnCache, rateLimitWindows] = await Promise.all([
    purgeExpiredIdempotencyRecords(now),
    purgeExpiredTrnCache(now),
    purgeExpiredRateLimitWindows(now),
  ]);
  return { idempotencyRecords, trnCache, rateLimitWindows };
}
