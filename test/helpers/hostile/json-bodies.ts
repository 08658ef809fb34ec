// Generated JSON request bodies: a valid body with hostile edits, hostile values in place of the body, bytes that
// are not JSON (truncated, invalid UTF-8, nested 20,000 deep), lying Content-Encodings and Content-Types, and
// bodies over the 1 MB limit. Each says what the server would read (`parsed`), so the suite can tell whether a
// 2xx is deserved.
import fc from 'fast-check';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { copyValue, HOSTILE_KEYS, hostileValue, RawToken, toJsonText } from './values';

export interface HostileBody {
  kind: string;
  bytes: Buffer;
  contentType?: string;
  contentEncoding?: string;
  /** The value a correct server reads from these bytes; absent when they are no JSON body it should accept. */
  parsed?: { value: unknown };
  /** Bodies that are not JSON: whether a 2xx is deserved (true), never (false), or either (absent). */
  acceptable?: boolean;
  /** Mislabelled in a way a server may forgive (gzip sent as deflate: one zlib reader takes both): either answer. */
  lenient?: boolean;
}

const JSON_TYPE = 'application/json';

type Edit = { at: number; action: 'replace' | 'delete' | 'addKey' | 'wrap'; value: unknown; key: string };

const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  action: fc.constantFrom('replace', 'replace', 'replace', 'delete', 'addKey', 'wrap'),
  value: hostileValue(),
  key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 12 })),
});

/** An object or array of the JSON tree; a RawToken is a leaf (one JSON token), never a place for an edit. */
const isNode = (v: unknown): v is object => !!v && typeof v === 'object' && !(v instanceof RawToken);

/** Every child slot of an object or array in the tree, with the key under which the child hangs. */
function slots(root: unknown): { parent: any; key: string | number }[] {
  const out: { parent: any; key: string | number }[] = [];
  const walk = (node: unknown) => {
    if (!isNode(node)) return;
    for (const key of Array.isArray(node) ? node.keys() : Object.keys(node)) {
      out.push({ parent: node, key });
      walk((node as any)[key]);
    }
  };
  walk(root);
  return out;
}

function applyEdits(base: unknown, edits: Edit[]): unknown {
  const body = copyValue(base) as any;
  for (const e of edits) {
    const all = slots(body);
    if (!all.length) break;
    const { parent, key } = all[e.at % all.length];
    const value = copyValue(e.value);
    if (e.action === 'replace') parent[key] = value;
    else if (e.action === 'delete') Array.isArray(parent) ? parent.splice(Number(key), 1) : delete parent[key];
    else if (e.action === 'wrap') parent[key] = [parent[key]];
    else if (isNode(parent[key]) && !Array.isArray(parent[key])) Object.defineProperty(parent[key], e.key, { value, enumerable: true, configurable: true, writable: true });
    else Object.defineProperty(parent, e.key, { value, enumerable: true, configurable: true, writable: true });
  }
  return body;
}

/** What JSON.parse reads from the text, or absent when it is not JSON (NaN, a truncated body...). */
function parsedOf(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

function jsonBody(kind: string, value: unknown): HostileBody {
  const text = toJsonText(value);
  return { kind, bytes: Buffer.from(text, 'utf8'), contentType: JSON_TYPE, parsed: parsedOf(text) };
}

const INVALID_UTF8 = [Buffer.from([0xff, 0xfe]), Buffer.from([0xc3, 0x28]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]), Buffer.from([0xe2, 0x82])];

function rawBodies(base: unknown): fc.Arbitrary<HostileBody> {
  const text = JSON.stringify(base);
  return fc.oneof(
    fc.nat({ max: text.length - 1 }).map((cut) => ({ kind: 'truncated JSON', bytes: Buffer.from(text.slice(0, cut)), contentType: JSON_TYPE })),
    fc.uint8Array({ maxLength: 300 }).map((b) => ({ kind: 'random bytes', bytes: Buffer.from(b), contentType: JSON_TYPE })),
    fc.tuple(fc.constantFrom(...INVALID_UTF8), fc.nat({ max: text.length - 1 })).map(([bad, at]) => {
      const q = text.indexOf('"', at); // inside a string value, or at the end
      const i = q < 0 ? text.length : q + 1;
      return { kind: 'invalid UTF-8', bytes: Buffer.concat([Buffer.from(text.slice(0, i)), bad, Buffer.from(text.slice(i))]), contentType: JSON_TYPE };
    }),
    fc.tuple(fc.integer({ min: 33, max: 20_000 }), fc.constantFrom('[', '{"a":')).map(([n, open]) => ({
      kind: `nested ${n} deep`,
      bytes: Buffer.from(open.repeat(n) + (open === '[' ? ']' : '1}').repeat(n)),
      contentType: JSON_TYPE,
    })),
    fc.constantFrom('', 'null', '"text"', '123', 'true', '[]', '{}', '{"a":1,}', "{'a':1}", '{"a":1}{"b":2}', '\ufeff{}').map((t) => ({ kind: `literal ${t.slice(0, 10)}`, bytes: Buffer.from(t), contentType: JSON_TYPE, parsed: t === '[]' || t === '{}' ? parsedOf(t) : undefined })),
  );
}

/** The body compressed as it claims, or garbage that claims a compression. */
function encodedBodies(base: unknown): fc.Arbitrary<HostileBody> {
  const text = JSON.stringify(base);
  const codecs: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
  return fc.oneof(
    fc.constantFrom('gzip', 'deflate', 'br').map((enc) => ({ kind: `valid ${enc}`, bytes: codecs[enc](Buffer.from(text)), contentType: JSON_TYPE, contentEncoding: enc, parsed: parsedOf(text) })),
    fc.tuple(fc.constantFrom('gzip', 'deflate', 'br'), fc.constantFrom('gzip', 'deflate', 'br', 'none'), fc.nat()).map(([claimed, actual, cut]) => {
      const bytes = actual === 'none' ? Buffer.from(text) : codecs[actual](Buffer.from(text));
      const truncated = actual === claimed ? bytes.subarray(0, cut % Math.max(1, bytes.length - 1)) : bytes;
      const zlibBoth = claimed !== 'br' && actual !== 'br' && actual !== 'none' && actual !== claimed;
      return { kind: `${claimed} claimed, ${actual === claimed ? 'truncated' : actual} sent`, bytes: truncated, contentType: JSON_TYPE, contentEncoding: claimed, lenient: zlibBoth || undefined };
    }),
    fc.constantFrom('compress', 'identity, gzip', 'gzip, gzip', 'x-unknown', 'zstd', '*').map((enc) => ({ kind: `Content-Encoding ${enc}`, bytes: Buffer.from(text), contentType: JSON_TYPE, contentEncoding: enc })),
  );
}

/** A valid JSON body under a Content-Type that is not JSON (or a JSON one with a charset other than UTF-8). */
function mistypedBodies(base: unknown): fc.Arbitrary<HostileBody> {
  const bytes = Buffer.from(JSON.stringify(base));
  return fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=utf-16', 'application/json; charset=x-unknown', 'application/jsonx', 'json', '', '\u00ff').map((contentType) => ({
    kind: `Content-Type ${contentType || '(none)'}`,
    bytes,
    contentType: contentType || undefined,
  }));
}

/** Over 1 MB: refused with 413 before it is parsed. */
const oversized: fc.Arbitrary<HostileBody> = fc.integer({ min: 1, max: 200_000 }).map((extra) => ({
  kind: `${1024 * 1024 + extra} bytes`,
  bytes: Buffer.from(JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + extra) })),
  contentType: JSON_TYPE,
}));

/** Every kind of hostile JSON body, built around a valid `base` body of the endpoint. */
export function hostileJsonBody(base: unknown): fc.Arbitrary<HostileBody> {
  return fc.oneof(
    { arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => jsonBody(`edited (${edits.map((e) => e.action).join(', ')})`, applyEdits(base, edits))), weight: 24 },
    { arbitrary: hostileValue().map((v) => jsonBody('hostile value as the body', v)), weight: 6 },
    { arbitrary: rawBodies(base), weight: 8 },
    { arbitrary: encodedBodies(base), weight: 6 },
    { arbitrary: mistypedBodies(base), weight: 4 },
    { arbitrary: oversized, weight: 1 },
    { arbitrary: fc.constant(jsonBody('the valid body', base)), weight: 2 },
  );
}
