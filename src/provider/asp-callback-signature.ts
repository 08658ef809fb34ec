// Pure: the ASP's status callbacks are signed like our webhooks, in one header:
// `X-ASP-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. Checked before the body
// is parsed, with a 300 s window against replays.
import { timingSafeEqual } from 'node:crypto';
import { computeSignature } from '../webhooks/sign';

export function aspSignatureHeader(secret: string, t: number, rawBody: string): string {
  return `t=${t},v1=${computeSignature(secret, t, rawBody)}`;
}

/** null when authentic, else why not. */
export function aspSignatureProblem(rawBody: Buffer, header: string | undefined, secret: string, nowMs = Date.now(), toleranceSeconds = 300): string | null {
  if (!header) return 'missing X-ASP-Signature header';
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || !/^[0-9a-f]+$/i.test(parts.v1)) return 'malformed X-ASP-Signature header (expected t=<unix>,v1=<hex>)';
  if (Math.abs(Math.floor(nowMs / 1000) - t) > toleranceSeconds) return `timestamp outside the ${toleranceSeconds} s tolerance`;
  const expected = Buffer.from(computeSignature(secret, t, rawBody), 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'signature mismatch';
}
