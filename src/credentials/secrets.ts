import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares a presented secret with a stored SHA-256 hash in constant time. */
export function secretMatches(presented: string, storedHashHex: string): boolean {
  const a = Buffer.from(sha256Hex(presented), 'hex');
  const b = Buffer.from(storedHashHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Compares a presented secret with the configured one (ADMIN_TOKEN, METRICS_TOKEN) in constant time: both are
 * hashed first, so neither the content nor the length of the expected secret shows in the time taken (comparing
 * the raw bytes would have to return early on a length mismatch).
 */
export function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(sha256Hex(presented), 'hex');
  const b = Buffer.from(sha256Hex(expected), 'hex');
  return timingSafeEqual(a, b) && expected.length > 0;
}

export function randomToken(prefix: string, bytes = 24): string {
  return prefix + randomBytes(bytes).toString('base64url');
}
