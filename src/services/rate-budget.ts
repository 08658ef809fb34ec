import { RateLimitWindow } from '../db/models';
import { isDuplicateKeyError } from '../db/duplicate-key';

export interface BudgetRequest {
  /** What is limited, e.g. `partner:<id>` or `retry:<invoiceId>`. */
  bucket: string;
  /** Uses allowed per window. */
  limit: number;
  windowMs: number;
}

export interface BudgetResult {
  allowed: boolean;
  /** Uses left in this window after this one (0 when refused). */
  remaining: number;
  /** Whole seconds until the window resets; 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Consumes one use of a budget with a fixed window: one counter document per bucket and window, incremented with
 * an atomic $inc upsert, so every API process counts together and no transaction is needed. Refused uses count
 * too (a client hammering a closed budget does not get extra room). Fixed windows allow up to twice the limit
 * across a window boundary; we accept that for a single atomic write per request and an exact Retry-After.
 */
export async function consumeBudget(req: BudgetRequest, now = Date.now()): Promise<BudgetResult> {
  const windowStart = Math.floor(now / req.windowMs) * req.windowMs;
  const windowEnd = windowStart + req.windowMs;
  const count = await increment(req.bucket, windowStart, windowEnd);
  return budgetResult(count, req.limit, windowEnd, now);
}

/** Pure: what a window count means for the caller. */
export function budgetResult(count: number, limit: number, windowEnd: number, now: number): BudgetResult {
  const allowed = count <= limit;
  return {
    allowed,
    remaining: Math.max(0, limit - count),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowEnd - now) / 1000)),
  };
}

async function increment(bucket: string, windowStart: number, windowEnd: number): Promise<number> {
  const _id = `${bucket}@${windowStart}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const doc = await RateLimitWindow.findOneAndUpdate(
        { _id },
        { $inc: { count: 1 }, $setOnInsert: { bucket, windowStart: new Date(windowStart), expiresAt: new Date(windowEnd) } },
        { upsert: true, returnDocument: 'after' },
      ).lean();
      return doc!.count;
    } catch (err) {
      // Two first requests of a window both upsert: one inserts, the other hits the unique _id; it then increments.
      if (!isDuplicateKeyError(err) || attempt >= 3) throw err;
    }
  }
}

/** Periodic cleanup: windows that have ended. */
export async function purgeExpiredRateLimitWindows(now = new Date()): Promise<number> {
  const res = await RateLimitWindow.deleteMany({ expiresAt: { $lte: now } });
  return res.deletedCount ?? 0;
}
