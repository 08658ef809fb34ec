import { createHash, randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { IdempotencyRecord } from '../db/models';
import { isDuplicateKeyError } from '../db/duplicate-key';
import { insertEach } from '../db/insert-each';
import { ServiceError, serviceErrors } from '../domain/errors';
import { logger } from '../logger';
import { deleteExpired } from '../db/delete-expired';

/** What a replay sends back: the status and the exact bytes of the first answer. */
export interface StoredResponse {
  status: number;
  /** Exact bytes sent (UTF-8 text). */
  body: string;
  contentType: string;
}

export interface IdempotentResult extends StoredResponse {
  replayed: boolean;
}

export interface RunIdempotentOptions {
  /** Whose key space, e.g. the partner id (and SME id): one partner's keys never collide with another's. */
  scope: string;
  key: string;
  /** Fingerprint of the request (see hashRequest); the same key with another hash is a 409. */
  requestHash: string;
  execute: () => Promise<StoredResponse>;
  /** The surface's wire shape of a refusal, stored so a replay answers with the same bytes. */
  renderError: ErrorRenderer;
}

export type ErrorRenderer = (err: ServiceError) => StoredResponse;

/** DESIGN: records are kept 24 hours. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * An in-flight record not renewed for this long is abandoned (its process died): a resent request takes it over.
 * A running request renews its records every LEASE_RENEW_MS (keepLeases), so the lease only has to outlast one
 * renewal, and a client resending after an API crash waits seconds, not minutes.
 */
export const IN_FLIGHT_LEASE_MS = 30 * 1000;
const LEASE_RENEW_MS = 10 * 1000;

/**
 * Runs execute at most once per (scope, key) within 24 hours and replays its stored response afterwards.
 *
 * Insert-first: an in_flight record is created by a unique (scope, key) insert before execute runs, so of two
 * concurrent requests exactly one executes; the other sees the record in flight (409 idempotency_in_progress) or,
 * later, completed (replayed). No transactions (FerretDB has none): each step is one atomic single-document write.
 *
 * Outcomes of execute:
 * - a response: stored and returned (replayed: false).
 * - a client-error ServiceError (4xx) raised after the handler started: stored and returned as a StoredResponse
 *   with the problem body, so a replay answers the same. Not stored (the record is released so the client can
 *   retry with the same key): validation_failed (nothing was executed, Stripe's rule: fix the body, keep the key),
 *   409 idempotency_* problems, 429 (retry later) and 5xx or unexpected errors; those are rethrown.
 */
export async function runIdempotent(opts: RunIdempotentOptions): Promise<IdempotentResult> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const owner = randomUUID();
    const now = Date.now();
    let recordId: unknown;
    try {
      ({ _id: recordId } = await IdempotencyRecord.create(inFlightRecord(opts.scope, opts, owner, now)));
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const existing = await existingOutcome(opts, now);
      if (existing === 'retry') continue;
      return existing;
    }
    return executeAndStore(opts, { _id: recordId, owner });
  }
  // Only reachable when records keep vanishing and reappearing under us: a busy key, answer as in flight.
  throw inProgress(opts.key);
}

function inFlightRecord(scope: string, claim: KeyClaim, owner: string, now: number) {
  return {
    scope,
    key: claim.key,
    requestHash: claim.requestHash,
    state: 'in_flight' as const,
    owner,
    lockedUntil: new Date(now + IN_FLIGHT_LEASE_MS),
    expiresAt: new Date(now + IDEMPOTENCY_TTL_MS),
  };
}

type ExistingOutcome = IdempotentResult | 'retry';

/** The key is taken: replay, refuse, or clear a dead record and let the caller insert again. */
async function existingOutcome(opts: RunIdempotentOptions, now: number): Promise<ExistingOutcome> {
  const record = await IdempotencyRecord.findOne({ scope: opts.scope, key: opts.key }).lean();
  if (!record) return 'retry'; // released or purged since our insert failed
  if (record.expiresAt.getTime() <= now) {
    // Expired records count as absent; the condition on expiresAt leaves a fresh record of a racing request alone.
    await IdempotencyRecord.deleteOne({ _id: record._id, expiresAt: record.expiresAt });
    return 'retry';
  }
  if (record.requestHash !== opts.requestHash) {
    throw serviceErrors.conflict(
      'idempotency_key_mismatch',
      `Idempotency-Key "${opts.key}" was already used with a different request (method, path or body). Use a fresh key, for example a UUID, for a new request.`,
    );
  }
  if (record.state === 'in_flight') {
    if (record.lockedUntil && record.lockedUntil.getTime() <= now) {
      await IdempotencyRecord.deleteOne({ _id: record._id, owner: record.owner, state: 'in_flight' });
      return 'retry';
    }
    throw inProgress(opts.key);
  }
  const response = record.response!;
  return { status: response.status, body: response.body ?? '', contentType: response.contentType ?? '', replayed: true };
}

/** Our record: its _id (writes by _id lock one document in the store, not the collection) and our owner token. */
export interface OwnRecord {
  _id: unknown;
  owner: string;
}

async function executeAndStore(opts: RunIdempotentOptions, mine: OwnRecord): Promise<IdempotentResult> {
  let response: StoredResponse;
  const renewing = keepLeases([mine]);
  try {
    response = await opts.execute();
  } catch (err) {
    const problem = storableProblem(err, opts.renderError);
    if (!problem) {
      await release(mine);
      throw err;
    }
    response = problem;
  } finally {
    renewing.stop();
  }
  await completeClaims([{ mine, response }]);
  return { ...response, replayed: false };
}

/** What a key records when its handler threw: a replayable client error in the surface's shape, else null (release the key). */
export function storableProblem(err: unknown, render: ErrorRenderer): StoredResponse | null {
  return isReplayableProblem(err) ? render(err) : null;
}

export interface KeyClaim {
  key: string;
  requestHash: string;
}

/**
 * The fingerprint a created invoice keeps of the idempotent request (scope, key, body hash) that created it. After
 * a crash between the insert and the stored answer, the resent request meets its own invoice (number taken, same
 * origin) and adopts it instead of answering 409 invoice_number_duplicate.
 */
export function originKey(scope: string, claim: KeyClaim): string {
  return createHash('sha256').update(`${scope}\u0000${claim.key}\u0000${claim.requestHash}`).digest('hex');
}

/**
 * Claims many keys of one scope with one write (a bulk request's items). Per claim, in order: our record, or null
 * when the key is already taken; run those through runIdempotent, which replays, refuses or takes over.
 */
export async function claimKeys(scope: string, claims: KeyClaim[]): Promise<(OwnRecord | null)[]> {
  if (!claims.length) return [];
  const now = Date.now();
  const records = claims.map((c) => ({ _id: new Types.ObjectId(), ...inFlightRecord(scope, c, randomUUID(), now) }));
  const refused = await insertEach(IdempotencyRecord, records);
  return records.map((r, i) => {
    if (refused[i] === null) return { _id: r._id, owner: r.owner };
    if (isDuplicateKeyError(refused[i])) return null;
    throw refused[i];
  });
}

/** Stores the responses of claimed keys in one write; a record taken over meanwhile (lease expired) is left alone. */
export async function completeClaims(done: { mine: OwnRecord; response: StoredResponse }[]): Promise<void> {
  if (!done.length) return;
  const res = await IdempotencyRecord.bulkWrite(
    done.map(({ mine, response }) => ({
      updateOne: { filter: { _id: mine._id, owner: mine.owner, state: 'in_flight' }, update: { $set: { state: 'completed', response, lockedUntil: null } } },
    })),
    { ordered: false },
  );
  if (res.matchedCount < done.length) {
    // Our lease ran out and another request took the key over; our answer is still the truthful one for this call.
    logger.warn({ taken: done.length - res.matchedCount }, 'idempotency record was taken over before completion');
  }
}

/**
 * Renews the leases of records this process is executing, every LEASE_RENEW_MS until stop(): a slow request keeps
 * its keys, a crashed one loses them within IN_FLIGHT_LEASE_MS. A failed renewal is only logged (the next one may
 * succeed; at worst a resent request takes the key over, and the invoice's origin key makes that harmless).
 */
export function keepLeases(records: OwnRecord[]): { stop(): void } {
  const timer = setInterval(() => {
    if (!records.length) return;
    const lockedUntil = new Date(Date.now() + IN_FLIGHT_LEASE_MS);
    IdempotencyRecord.bulkWrite(
      records.map((r) => ({ updateOne: { filter: { _id: r._id, owner: r.owner, state: 'in_flight' }, update: { $set: { lockedUntil } } } })),
      { ordered: false },
    ).catch((err) => logger.warn({ err }, 'idempotency lease renewal failed'));
  }, LEASE_RENEW_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

export async function release(mine: OwnRecord): Promise<void> {
  await IdempotencyRecord.deleteOne({ _id: mine._id, owner: mine.owner, state: 'in_flight' }).catch(() => {});
}

function isReplayableProblem(err: unknown): err is ServiceError {
  if (!(err instanceof ServiceError)) return false;
  if (err.status < 400 || err.status >= 500) return false;
  if (err.status === 429) return false;
  if (err.code === 'validation_failed') return false;
  if (err.code.startsWith('idempotency_')) return false;
  return true;
}

function inProgress(key: string): ServiceError {
  return serviceErrors.conflict(
    'idempotency_in_progress',
    `A request with Idempotency-Key "${key}" is still being processed. Retry after it finishes to receive its result.`,
  );
}

/** Periodic cleanup: removes records past their 24 h (reads already treat them as absent). Returns how many. */
export async function purgeExpiredIdempotencyRecords(now = new Date()): Promise<number> {
  return deleteExpired(IdempotencyRecord, now);
}
