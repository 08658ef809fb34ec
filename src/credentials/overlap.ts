// How long a rotated-out secret keeps working (`--overlap 30m | 24h | 7d | 0`). Pure.
// The overlap lets an integrator deploy the new secret without a window where neither works; `0` ends the old
// one at once (a leak). Capped so a typo cannot leave an old secret alive for months.

export const DEFAULT_OVERLAP = '24h';
export const MAX_OVERLAP_MS = 30 * 24 * 3600_000;

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3600_000, d: 24 * 3600_000 };
export const OVERLAP_PATTERN = /^(0|[1-9]\d{0,6}[smhd])$/;

/** The overlap in milliseconds, or a sentence saying what to send instead. */
export function parseOverlap(text: string): { ms: number } | { problem: string } {
  const value = text.trim();
  if (!OVERLAP_PATTERN.test(value)) {
    return { problem: `overlap must be 0 or a whole number followed by s, m, h or d (e.g. 30m, 24h, 7d), got "${text}"` };
  }
  const ms = value === '0' ? 0 : Number(value.slice(0, -1)) * UNIT_MS[value.slice(-1)];
  if (ms > MAX_OVERLAP_MS) return { problem: `overlap may be at most 30d, got "${text}"` };
  return { ms };
}

/** When the previous secret stops working, or null when the overlap is 0 (no previous secret is kept). */
export function previousValidUntil(now: Date, overlapMs: number): Date | null {
  return overlapMs > 0 ? new Date(now.getTime() + overlapMs) : null;
}
