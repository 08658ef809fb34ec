import { timingSafeEqual } from 'node:crypto';
import { computeSignature } from './sign';

// Receiver-side check of an invoice.status_changed webhook, exported from the package for integrators.
// It returns a result instead of throwing, so a receiver answers 400 on `ok: false` without try/catch.

export type VerifyResult = { ok: true; event: unknown } | { ok: false; reason: string };

export interface VerifyOptions {
  /** Largest accepted |now - t| in seconds (SPEC 8: 300). */
  toleranceSeconds?: number;
  /** "Now", for tests and replays of captured requests. Defaults to the clock. */
  now?: number | Date;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

/**
 * SPEC 6.1, in order: 1. read X-Webhook-Signature and X-Webhook-Timestamp; 2. refuse when |now - t| > 300 s;
 * 3. HMAC-SHA256 over `${t}.${rawBody}` with the webhook secret, compared in constant time with v1;
 * 4. only then parse the JSON. Pass the body exactly as received (bytes or string), never re-serialised JSON.
 */
export function verifyWebhook(rawBody: string | Buffer, headers: HeaderBag, secret: string, opts: VerifyOptions = {}): VerifyResult {
  // 1. Both headers.
  const signature = header(headers, 'x-webhook-signature');
  const timestamp = header(headers, 'x-webhook-timestamp');
  if (!signature) return fail('missing X-Webhook-Signature header');
  if (!timestamp) return fail('missing X-Webhook-Timestamp header');
  const parsed = parseSignature(signature);
  if (!parsed) return fail('malformed X-Webhook-Signature header (expected t=<unix>,v1=<hex>)');
  if (!/^\d+$/.test(timestamp.trim()) || Number(timestamp.trim()) !== parsed.t) return fail('X-Webhook-Timestamp does not match the t of X-Webhook-Signature');

  // 2. Anti-replay window.
  const tolerance = opts.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((opts.now === undefined ? Date.now() : typeof opts.now === 'number' ? opts.now : opts.now.getTime()) / 1000);
  if (Math.abs(nowSeconds - parsed.t) > tolerance) return fail(`timestamp outside the ${tolerance} s tolerance`);

  // 3. Constant-time comparison against every v1 given (several appear while a secret is rotated).
  if (!secret) return fail('no webhook secret configured');
  const expected = Buffer.from(computeSignature(secret, parsed.t, rawBody), 'hex');
  const matches = parsed.v1.some((hex) => {
    const given = Buffer.from(hex, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return fail('signature mismatch');

  // 4. Only an authentic body is parsed.
  try {
    return { ok: true, event: JSON.parse(Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody) };
  } catch {
    return fail('body is not valid JSON');
  }
}

function fail(reason: string): VerifyResult {
  return { ok: false, reason };
}

/** Case-insensitive header lookup (Node lower-cases names, hand-built objects may not). */
function header(headers: HeaderBag, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== '') return first;
  }
  return undefined;
}

function parseSignature(value: string): { t: number; v1: string[] } | null {
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === 't' && /^\d+$/.test(val)) t = Number(val);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(val)) v1.push(val);
  }
  return t === undefined || v1.length === 0 ? null : { t, v1 };
}
