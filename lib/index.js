'use strict';
// The package entry for integrators: plain CommonJS, no build step and no dependencies beyond node:crypto, so
// `require('einvoice-submission-service')` works from a git checkout, a tarball or a `file:` dependency.
// This file is the one implementation of the webhook signature (SPEC 6.1): the service's own TypeScript
// (src/webhooks/sign.ts, src/webhooks/verify.ts) imports it, so sender and receiver cannot drift apart.
// Types: index.d.ts beside it.
const { createHmac, timingSafeEqual } = require('node:crypto');

const SIGNATURE_HEADER = 'X-Webhook-Signature';
const TIMESTAMP_HEADER = 'X-Webhook-Timestamp';
const STATUS_CHANGED_EVENT = 'invoice.status_changed';

/** v1 = HMAC-SHA256(secret, `${t}.${rawBody}`), hex. */
function computeSignature(secret, t, rawBody) {
  return createHmac('sha256', secret).update(`${t}.`, 'utf8').update(rawBody).digest('hex');
}

/**
 * The headers of one signed attempt. The retired x-webhook-secret header is never among them. `secret` may be a
 * list while a secret is rotated (the new one first): one v1 per secret, `t=…,v1=<new>,v1=<old>`, as Stripe does.
 */
function signatureHeaders(secret, t, rawBody) {
  const v1 = (Array.isArray(secret) ? secret : [secret]).map((s) => `,v1=${computeSignature(s, t, rawBody)}`).join('');
  return {
    [SIGNATURE_HEADER]: `t=${t}${v1}`,
    [TIMESTAMP_HEADER]: String(t),
  };
}

/**
 * SPEC 6.1, in order: 1. read X-Webhook-Signature and X-Webhook-Timestamp; 2. refuse when |now - t| > 300 s;
 * 3. HMAC-SHA256 over `${t}.${rawBody}` with the webhook secret, compared in constant time with v1;
 * 4. only then parse the JSON. Pass the body exactly as received (bytes or string), never re-serialised JSON.
 * Returns { ok: true, event } or { ok: false, reason }; it never throws, so a receiver answers 400 on !ok.
 */
function verifyWebhook(rawBody, headers, secret, opts = {}) {
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
  const nowMs = opts.now === undefined ? Date.now() : typeof opts.now === 'number' ? opts.now : opts.now.getTime();
  const nowSeconds = Math.floor(nowMs / 1000);
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

function fail(reason) {
  return { ok: false, reason };
}

/** Case-insensitive header lookup (Node lower-cases names, hand-built objects may not). */
function header(headers, name) {
  for (const [key, value] of Object.entries(headers || {})) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== '') return first;
  }
  return undefined;
}

function parseSignature(value) {
  let t;
  const v1 = [];
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

module.exports = { verifyWebhook, computeSignature, signatureHeaders, SIGNATURE_HEADER, TIMESTAMP_HEADER, STATUS_CHANGED_EVENT };
