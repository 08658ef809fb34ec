import { ServiceError } from '../domain/errors';

// The MongoDB driver's and mongoose's ways of saying "the database cannot be reached right now" (server down,
// restarting, connection pool cleared, commands buffered past their timeout). Not a client mistake and not a bug:
// a 503 with Retry-After, so clients retry (with the same Idempotency-Key) instead of reporting a 500.
const UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
]);

/** A socket that could not connect or was cut: how a write batch (MongoBulkWriteError) reports a lost server. */
const NETWORK_FAILURE = /\b(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH)\b|connection .*closed/i;

export function isStoreUnavailable(err: unknown, depth = 0): boolean {
  const e = err as { name?: string; message?: string; cause?: unknown } | null;
  if (!e || typeof e !== 'object' || depth > 3) return false;
  if (e.name && UNREACHABLE.has(e.name)) return true;
  if (e.name === 'MongooseError' && /buffering timed out/i.test(e.message ?? '')) return true;
  if (e.name?.startsWith('Mongo') && NETWORK_FAILURE.test(e.message ?? '')) return true;
  // The driver can also let the socket's own error through (a write after the server closed it: EPIPE).
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_FAILURE.test(code)) return true;
  return isStoreUnavailable(e.cause, depth + 1);
}

export const RETRY_AFTER_STORE_S = 5;

export function storeUnavailable(): ServiceError {
  return new ServiceError(
    503,
    'store_unavailable',
    'Service unavailable',
    `Our database cannot be reached for the moment. Retry after ${RETRY_AFTER_STORE_S} seconds with the same Idempotency-Key: a request that did complete is then answered from its stored result, never done twice.`,
    undefined,
    { 'Retry-After': String(RETRY_AFTER_STORE_S) },
  );
}
