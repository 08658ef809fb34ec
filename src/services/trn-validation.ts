import { TrnCache, type TrnCacheDoc } from '../db/models';
import { isDuplicateKeyError } from '../db/duplicate-key';
import type { TrnLookup, TrnStatus } from '../provider/trn-lookup';
import { deleteExpired } from '../db/delete-expired';

/** SPEC 8: TRN validation answers are cached 24 hours. */
const TRN_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

/** SPEC 2.1 TrnValidateResponse. */
export interface TrnValidation {
  trn: string;
  status: TrnStatus;
  legalName?: string;
  reason?: string;
  cachedAt: string;
}

/** The cached answer for a TRN, or a fresh lookup cached for 24 h; cachedAt is when the answer was first cached. */
export async function validateTrn(lookup: TrnLookup, trn: string, now = new Date()): Promise<TrnValidation> {
  const _id = `${lookup.source}:${trn}`;
  const hit = await TrnCache.findById(_id).lean<TrnCacheDoc>();
  if (hit && hit.expiresAt > now) return view(hit);
  const result = await lookup.lookup(trn);
  if (hit) await TrnCache.deleteOne({ _id, expiresAt: hit.expiresAt }); // expired: replace it
  const entry = {
    _id,
    trn,
    source: lookup.source,
    status: result.status,
    legalName: result.status === 'verified' ? (result.legalName ?? null) : null,
    reason: result.status === 'rejected' ? (result.reason ?? null) : null,
    cachedAt: now,
    expiresAt: new Date(now.getTime() + TRN_CACHE_TTL_MS),
  };
  try {
    await TrnCache.create(entry);
    return view(entry);
  } catch (err) {
    // A concurrent first lookup cached its answer first: answer with that one, so everyone sees one cachedAt.
    if (!isDuplicateKeyError(err)) throw err;
    const winner = await TrnCache.findById(_id).lean<TrnCacheDoc>();
    return view(winner ?? entry);
  }
}

function view(doc: Pick<TrnCacheDoc, 'trn' | 'status' | 'legalName' | 'reason' | 'cachedAt'>): TrnValidation {
  return {
    trn: doc.trn,
    status: doc.status as TrnStatus,
    ...(doc.status === 'verified' && doc.legalName ? { legalName: doc.legalName } : {}),
    ...(doc.status === 'rejected' && doc.reason ? { reason: doc.reason } : {}),
    cachedAt: new Date(doc.cachedAt).toISOString(),
  };
}

/** Periodic cleanup: cache entries past their 24 h. */
export async function purgeExpiredTrnCache(now = new Date()): Promise<number> {
  return deleteExpired(TrnCache, now);
}
