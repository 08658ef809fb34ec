import { RateLimitWindow } from '../db/models';
import { isDuplicateKeyError } from '../db/duplicate-key';
import { deleteExpired } from '../db/delete-expired';

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
 * Consumes one use of a budget with a fixed window: one counter document per bucket and window in MongoDB,
 * incremented with $inc, so every API process counts together; no transaction. Refused uses count too (a client
 * hammering a closed budget gets no extra room). Fixed windows allow up to twice the limit across a window
 * boundary; we accept that for one cheap write per request and an exact Retry-After.
 */
export async function consumeBudget(req: BudgetRequest, now = Date.now()): Promise<BudgetResult> {
  const windowStart = Math.floor(now / req.windowMs) * req.windowMs;
  const windowEnd = windowStart + req.windowMs;
  const use = await nextUse({ _id: `${req.bucket}@${windowStart}`, bucket: req.bucket, windowStart, expiresAt: new Date(windowEnd) });
  return budgetResult(use, req.limit, windowEnd, now);
}

/**
 * How many uses the current window of a budget has had, without consuming one (one read by _id): for limits that
 * count only some outcomes (failed authentications) but must refuse before the work that decides the outcome.
 */
export async function usesInWindow(bucket: string, windowMs: number, now = Date.now()): Promise<{ used: number; retryAfterSeconds: number }> {
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const doc = await RateLimitWindow.findOne({ _id: `${bucket}@${windowStart}` }, { count: 1 }).lean<{ count: number }>();
  return { used: doc?.count ?? 0, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
}

/** Pure: what the use number within a window means for the caller. */
function budgetResult(use: number, limit: number, windowEnd: number, now: number): BudgetResult {
  const allowed = use <= limit;
  return {
    allowed,
    remaining: allowed ? limit - use : 0,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowEnd - now) / 1000)),
  };
}

interface WindowRef {
  _id: string;
  bucket: string;
  windowStart: number;
  expiresAt: Date;
}

interface Waiter {
  resolve: (use: number) => void;
  reject: (err: unknown) => void;
}

/**
 * Concurrent uses of one window within this process are coalesced into a single `$inc: k` and numbered from its
 * result. Two reasons: one write per burst instead of one per request, and exact counts on FerretDB 1.x, whose
 * updates are read-modify-write without isolation (concurrent $inc on one document lose increments there; on
 * MongoDB $inc is atomic, so counts are exact across processes too). See docs/decisions/0010-fixed-window-rate-limit.md.
 */
const queues = new Map<string, { waiting: Waiter[] }>();

function nextUse(win: WindowRef): Promise<number> {
  return new Promise((resolve, reject) => {
    const queue = queues.get(win._id);
    if (queue) {
      queue.waiting.push({ resolve, reject });
      return;
    }
    const fresh = { waiting: [{ resolve, reject }] };
    queues.set(win._id, fresh);
    void drain(win, fresh);
  });
}

async function drain(win: WindowRef, queue: { waiting: Waiter[] }): Promise<void> {
  try {
    while (queue.waiting.length > 0) {
      const batch = queue.waiting.splice(0);
      try {
        const total = await incrementBy(win, batch.length);
        batch.forEach((w, i) => w.resolve(total - batch.length + 1 + i));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
  } finally {
    queues.delete(win._id);
  }
}

/** Increment-then-insert rather than an upsert, which on FerretDB 1.x loses even more increments. */
async function incrementBy(win: WindowRef, by: number): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const doc = await RateLimitWindow.findOneAndUpdate({ _id: win._id }, { $inc: { count: by } }, { returnDocument: 'after' }).lean();
    if (doc) return doc.count;
    try {
      await RateLimitWindow.create({ _id: win._id, bucket: win.bucket, windowStart: new Date(win.windowStart), count: by, expiresAt: win.expiresAt });
      return by;
    } catch (err) {
      // Another process inserted this window's counter first: increment it instead.
      if (!isDuplicateKeyError(err) || attempt >= 3) throw err;
    }
  }
}

/** Periodic cleanup: counters of windows that have ended. */
export async function purgeExpiredRateLimitWindows(now = new Date()): Promise<number> {
  return deleteExpired(RateLimitWindow, now);
}

/**
 * The X-RateLimit-* headers of a refusal by a budget other than the caller's request budget (the per-invoice retry
 * limit): they describe that budget, so a client does not read the 429 as its minute budget being spent. Policy
 * follows the IETF RateLimit-Policy form `<limit>;w=<window seconds>`.
 */
export function budgetHeaders(req: Pick<BudgetRequest, 'limit' | 'windowMs'>, result: BudgetResult, scope: string): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(req.limit),
    'X-RateLimit-Remaining': String(result.remaining),
    'X-RateLimit-Reset': String(result.retryAfterSeconds),
    'X-RateLimit-Policy': `${req.limit};w=${Math.round(req.windowMs / 1000)}`,
    'X-RateLimit-Scope': scope,
  };
}
