import { secretMatches } from './secrets';

// A secret being rotated: the current one, and the previous one until its expiry. Pure.

export interface RotatingHash {
  hash: string;
  previousHash?: string | null;
  previousValidUntil?: Date | null;
}

/** True while a previous secret is kept and its expiry is still ahead. */
export function previousIsLive(validUntil: Date | null | undefined, now: Date): boolean {
  return !!validUntil && new Date(validUntil).getTime() > now.getTime();
}

/**
 * Which stored secret a presented one is: the current, the previous (only before its expiry), or neither.
 * Both comparisons run (constant time each), so the answer's timing does not tell which one matched.
 */
export function matchRotating(presented: string, stored: RotatingHash, now: Date): 'current' | 'previous' | null {
  const current = secretMatches(presented, stored.hash);
  const previous = !!stored.previousHash && secretMatches(presented, stored.previousHash);
  if (current) return 'current';
  return previous && previousIsLive(stored.previousValidUntil, now) ? 'previous' : null;
}

/** The webhook secrets to sign with: the current one first, then the previous one during its overlap. */
export function signingSecrets(current: string, previous: string | null | undefined, validUntil: Date | null | undefined, now: Date): string[] {
  return previous && previousIsLive(validUntil, now) ? [current, previous] : [current];
}

/**
 * Whether a tenant bearer token is still backed by a live client secret: it carries the generation of the secret
 * that got it (0 for tokens from before rotation existed). The current generation always is; the one before it
 * only during the previous secret's overlap. A revocation moves the generation on, so no older token survives it.
 */
export function tokenGenerationLive(issuedUnder: number, currentGeneration: number, previousValidUntil: Date | null | undefined, now: Date): boolean {
  // (generation numbers, not secrets: a plain comparison is right here)
  if (issuedUnder === currentGeneration) return true;
  return issuedUnder === currentGeneration - 1 && previousIsLive(previousValidUntil, now);
}
