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

export function randomToken(prefix: string, bytes = 24): string {
  return prefix + randomBytes(bytes).toString('base64url');
}
