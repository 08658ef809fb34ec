import type { Context, Middleware } from 'koa';
import { config } from '../config';
import { verifyJwt } from '../credentials/jwt';
import { ServiceError } from '../domain/errors';
import { logger } from '../logger';
import { consumeBudget, usesInWindow } from '../services/rate-budget';
import { clientAddressKey } from './client-address';

/** Which refusals are guesses at a secret (counted), as opposed to a missing header or a token we signed. */
export type FailureCounts = (err: ServiceError, ctx: Context) => boolean;

/**
 * Failed authentications per client address (config: AUTH_FAILURE_LIMIT in AUTH_FAILURE_WINDOW_MS, 30 in 15
 * minutes). Mount before authentication: once an address is over, every request from it that would authenticate is
 * 429 with Retry-After before any credential is looked at (the right secret too), so guessing stops at the limit.
 * Counters live in the store's rate-limit windows, shared by every API process; one read per request. A success does
 * not reset the count: an attacker holding one valid credential could otherwise interleave it to keep guessing.
 */
export function authFailureLimit(counts: FailureCounts): Middleware {
  return async (ctx, next) => {
    const { authFailureLimit: limit, authFailureWindowMs: windowMs } = config();
    const bucket = `auth-failures:${clientAddressKey(ctx.ip)}`;
    const seen = await usesInWindow(bucket, windowMs);
    if (seen.used >= limit) throw tooManyFailures(limit, windowMs, seen.retryAfterSeconds);
    try {
      await next();
    } catch (err) {
      if (err instanceof ServiceError && err.status === 401 && counts(err, ctx)) await recordFailure(bucket, limit, windowMs);
      throw err;
    }
  };
}

/**
 * Partner API: a key and secret, or a connection secret, that match nothing. Not a missing header, nor a revoked
 * connection's real secret: one revoked SME must not lock its partner's whole server (one address) out.
 */
const GUESSED_PARTNER_CODES = new Set(['invalid_credentials', 'invalid_connection_secret']);
export const wrongPartnerCredentials: FailureCounts = (err) => GUESSED_PARTNER_CODES.has(err.code);

/** POST /v1/auth/token: every 401 is a client id and secret that do not match. */
export const wrongClientSecret: FailureCounts = () => true;

/**
 * Tenant API: a bearer token we did not sign. One we signed that has expired (or names a deleted tenant) is not a
 * guess; counting it would lock a busy connector out of the token route just when it needs a new token.
 */
export const forgedBearer: FailureCounts = (_err, ctx) => {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'))?.[1];
  if (!token) return false;
  const { jwtSecret, jwtPreviousSecret } = config();
  // nowSeconds 0: checks signature and shape only, whatever the expiry.
  return ![jwtSecret, jwtPreviousSecret].some((secret) => secret && verifyJwt(token, secret, 0));
};

async function recordFailure(bucket: string, limit: number, windowMs: number): Promise<void> {
  try {
    const use = await consumeBudget({ bucket, limit, windowMs });
    if (use.allowed && use.remaining === 0) logger.warn({ bucket, limit }, 'client address reached its failed-authentication limit');
  } catch (err) {
    // The request is refused either way; a store hiccup must not turn a 401 into a 500.
    logger.warn({ err, bucket }, 'could not count a failed authentication');
  }
}

function tooManyFailures(limit: number, windowMs: number, retryAfterSeconds: number): ServiceError {
  const minutes = Math.round(windowMs / 60_000);
  return new ServiceError(
    429,
    'too_many_failed_authentications',
    'Too many requests',
    `This address sent ${limit} or more wrong credentials in ${minutes} minutes, so no credential from it is checked until retry-after ${retryAfterSeconds} seconds; then send the credentials exactly as they were issued (or ask for new ones).`,
    { limit, windowSeconds: Math.round(windowMs / 1000), retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}
