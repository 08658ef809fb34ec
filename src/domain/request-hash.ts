import { createHash } from 'node:crypto';

// Pure: the fingerprint an Idempotency-Key is bound to.

/** JSON with object keys sorted at every depth, so {a,b} and {b,a} hash the same. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as Record<string, unknown>).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** sha256 of method, path and the canonical body: the same key on another endpoint or with another body mismatches. */
export function hashRequest(method: string, path: string, body: unknown): string {
  const bodyText = body === undefined || body === null || (typeof body === 'object' && Object.keys(body as object).length === 0 && !Array.isArray(body)) ? '' : canonicalJson(body);
  return createHash('sha256').update(`${method.toUpperCase()}\n${path}\n${bodyText}`).digest('hex');
}
