// One generated hostile request against one operation of the route registry (src/openapi/operations.ts): its
// path (real or hostile ids, odd shapes), query string, credentials, extra headers and body, and whether a 2xx is
// deserved. That verdict is an oracle independent of the route: the route's own joi schema (src/openapi/components.ts)
// judges a JSON body or query string, and credentials, ids and Idempotency-Keys are valid only when untouched.
import { randomUUID } from 'node:crypto';
import querystring from 'node:querystring';
import fc from 'fast-check';
import type Joi from 'joi';
import { QUERY_SCHEMAS, REQUEST_SCHEMAS } from '../../../src/openapi/components';
import type { Operation } from '../../../src/openapi/operations';
import { hostileJsonBody, type HostileBody } from './json-bodies';
import { hostileCsvUpload, hostileXmlBody } from './raw-bodies';
import { INJECTION_STRINGS } from './values';

/** What a 2xx answer would mean: deserved ('valid'), a failure ('never'), or either is right ('either'). */
export type Deserves = 'valid' | 'never' | 'either';

export interface HostileRequest {
  op: Operation;
  method: string;
  /** Path and query string as sent. */
  path: string;
  headers: Record<string, string>;
  body?: HostileBody;
  deserves: Deserves;
  /** What was made hostile, for the failure report. */
  what: string[];
}

/** The real things the requests point at and authenticate with (made once by the suite). */
export interface HostileContext {
  partnerHeaders: Record<string, string>;
  partnerKeyHeaders: Record<string, string>;
  tenantHeaders: Record<string, string>;
  tenantTrn: string;
  adminToken: string;
  /** Path parameters by name; `id` is the Partner API's invoice, `tenantId:id` the Tenant API's. */
  params: Record<string, string>;
  /** A valid body per `${method} ${path}` of every operation with a JSON body. */
  validBodies: Record<string, unknown>;
  /** A valid query string per `${method} ${path}` of every operation whose query has required parameters. */
  validQueries: Record<string, string>;
}

const JOI_OPTIONS: Joi.ValidationOptions = { abortEarly: true, allowUnknown: false, stripUnknown: false, convert: true };

function combine(...verdicts: Deserves[]): Deserves {
  if (verdicts.includes('never')) return 'never';
  if (verdicts.includes('either')) return 'either';
  return 'valid';
}

// ---- credentials ----------------------------------------------------------------------------------------------
function credentials(op: Operation, c: HostileContext): Record<string, string> {
  switch (op.surface) {
    case 'partner-key': return { ...c.partnerKeyHeaders };
    case 'partner': return { ...c.partnerHeaders };
    case 'tenant': return { ...c.tenantHeaders };
    case 'admin': return { Authorization: `Bearer ${c.adminToken}` };
    default: return {};
  }
}

const NEEDS_CREDENTIALS = new Set(['partner-key', 'partner', 'tenant', 'admin']);

/** Credentials of one surface, valid on the surfaces named (the partner's with the SME secret serve both partner surfaces). */
const PARTNER_SURFACES: Operation['surface'][] = ['partner', 'partner-key'];

/** Wrong, forged or malformed credentials, or another surface's: [label, headers, surfaces they are valid on]. */
function hostileCredentials(c: HostileContext): fc.Arbitrary<[string, Record<string, string>, Operation['surface'][]]> {
  const forged = (alg: string) => `${Buffer.from(JSON.stringify({ alg, typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'x', exp: 4e9, aud: 'einvoice-tenant' })).toString('base64url')}.`;
  return fc.constantFrom<[string, Record<string, string>, Operation['surface'][]]>(
    ['none', {}, []],
    ['partner key, wrong secret', { ...c.partnerHeaders, 'X-API-Secret': 'wrong' }, []],
    ['wrong SME secret', { ...c.partnerKeyHeaders, 'x-erp-partner-secret': 'wrong' }, ['partner-key']],
    ['partner credentials', { ...c.partnerHeaders }, PARTNER_SURFACES],
    ['tenant token', { ...c.tenantHeaders }, ['tenant']],
    ['admin token', { Authorization: `Bearer ${c.adminToken}` }, ['admin']],
    ['alg none JWT', { Authorization: `Bearer ${forged('none')}` }, []],
    ['HS512 JWT unsigned', { Authorization: `Bearer ${forged('HS512')}sig` }, []],
    ['tampered JWT', { Authorization: c.tenantHeaders.Authorization.slice(0, -3) + 'AAA' }, []],
    ['Basic auth', { Authorization: 'Basic YWRtaW46YWRtaW4=' }, []],
    ['huge bearer', { Authorization: `Bearer ${'a'.repeat(8000)}` }, []],
    ['bearer injection', { Authorization: 'Bearer {"$gt":""}' }, []],
    ['key injection', { 'X-API-Key': '{"$gt":""}', 'X-API-Secret': '{"$ne":null}', 'x-erp-partner-secret': '{"$gt":""}' }, []],
    ['latin1 bytes', { 'X-API-Key': '\u00ff\u00fe\u00e9', 'X-API-Secret': '\u00c3\u0028', Authorization: 'Bearer \u00ff' }, []],
  );
}

/** Percent-encodes the UTF-8 bytes of any string (encodeURIComponent throws on a lone surrogate). */
function pct(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

// ---- path -----------------------------------------------------------------------------------------------------
const HOSTILE_SEGMENTS = ['%', '%zz', '%ff%fe', '%00', '%2e%2e', '..', '.', '%2F', 'a'.repeat(3000), '00000000-0000-0000-0000-000000000000', randomUUID(), '-1', '1e400', 'NaN', 'null', '%5Bobject%20Object%5D', '%7B%22%24gt%22%3A%22%22%7D'];

function realPath(op: Operation, c: HostileContext, replace?: { index: number; segment: string }): string {
  let i = 0;
  return op.path.replace(/:(\w+)/g, (_, name: string) => {
    const real = name === 'id' && op.surface === 'tenant' ? c.params['tenant:id'] : c.params[name];
    return replace && i++ === replace.index % (op.path.match(/:\w+/g)!.length) ? replace.segment : pct(real);
  });
}

function hostilePath(op: Operation, c: HostileContext): fc.Arbitrary<[string, string, Deserves]> {
  const shapes = fc.constantFrom<[string, (p: string) => string, Deserves]>(
    ['trailing slash', (p) => `${p}/`, 'either'],
    ['double slashes', (p) => p.replace(/\//g, '//'), 'either'],
    ['upper case', (p) => p.toUpperCase(), 'either'],
    ['extra segment', (p) => `${p}/extra`, 'never'],
    ['dot segments', (p) => `${p}/../..${p}`, 'either'],
    ['encoded slash', (p) => p.replace(/\/([^/]*)$/, '%2F$1'), 'never'],
  ).map(([what, f, d]): [string, string, Deserves] => [`path ${what}`, f(realPath(op, c)), d]);
  if (!op.path.includes(':')) return shapes;
  const segment = fc.oneof(fc.constantFrom(...HOSTILE_SEGMENTS), fc.constantFrom(...INJECTION_STRINGS).map(pct), fc.string({ unit: 'binary', maxLength: 30 }).map(pct));
  return fc.oneof(
    { arbitrary: fc.tuple(fc.nat(), segment).map(([index, s]): [string, string, Deserves] => [`path id ${s.slice(0, 40)}`, realPath(op, c, { index, segment: s }), s === '' ? 'either' : 'never']), weight: 3 },
    { arbitrary: shapes, weight: 1 },
  );
}

// ---- query string ---------------------------------------------------------------------------------------------
const QUERY_KEYS = ['limit', 'cursor', 'status', 'from', 'to', 'number', 'trn', 'mode', 'q', '__proto__', 'constructor', 'status[$ne]', 'limit[]', 'x'];

function hostileCursor(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('', '!!!', 'a'.repeat(6000), 'e30', 'W10', 'bnVsbA'),
    fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url')),
    fc.tuple(fc.oneof(fc.double(), fc.constantFrom(8.64e15 + 1, -8.64e15 - 1, 1e400, Number.NaN)), fc.string()).map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
    fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b).toString('base64url')),
  );
}

const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '0', '-1', '101', '1e400', 'NaN', 'Infinity', '2025-02-30', '9999-99-99', '0000-00-00', 'true', 'held', 'draft', 'acknowledged', 'x'.repeat(2000)).map(pct),
  fc.constantFrom(...INJECTION_STRINGS).map(pct),
  fc.constantFrom('%', '%zz', '%ff', '[', ']', '$gt', '%00'),
  fc.string({ unit: 'binary', maxLength: 20 }).map(pct),
  hostileCursor(),
);

function hostileQuery(op: Operation): fc.Arbitrary<[string, Deserves]> {
  return fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), queryValue), { minLength: 1, maxLength: 4 }).map((pairs) => {
    const search = pairs.map(([k, v]) => `${pct(k).replace(/%24/g, '$').replace(/%5B/g, '[').replace(/%5D/g, ']')}=${v}`).join('&');
    return [search, queryVerdict(op, search)];
  });
}

/** The route's query schema judges the query as Koa parses it; a route without one ignores the query. */
function queryVerdict(op: Operation, search: string): Deserves {
  if (!op.query) return 'either';
  const { error } = (QUERY_SCHEMAS[op.query] as Joi.Schema).validate({ ...querystring.parse(search) }, JOI_OPTIONS);
  return error ? 'never' : 'either'; // a cursor the schema accepts may still not decode
}

// ---- body -----------------------------------------------------------------------------------------------------
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    max = Math.max(max, d + 1);
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

function hasProtoKey(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  return Object.keys(value).some((k) => k === '__proto__' || hasProtoKey((value as Record<string, unknown>)[k]));
}

/** A JSON body deserves a 2xx only if it parses, is within the limits, and one of the route's schemas accepts it. */
function bodyVerdict(op: Operation, body: HostileBody): Deserves {
  if (body.lenient) return 'either';
  if (!op.body) return body.acceptable === undefined ? 'either' : body.acceptable ? 'valid' : 'never';
  if (!body.parsed) return 'never';
  const value = body.parsed.value;
  if (value === null || typeof value !== 'object' || depthOf(value) > 32 || hasProtoKey(value)) return 'never';
  const accepted = op.body.schemas.some((name) => !(REQUEST_SCHEMAS[name] as Joi.Schema).validate(value, JOI_OPTIONS).error);
  return accepted ? 'valid' : 'never';
}

function bodyFor(op: Operation, c: HostileContext): fc.Arbitrary<HostileBody | undefined> {
  if (op.body) return hostileJsonBody(c.validBodies[`${op.method} ${op.path}`] ?? {});
  if (op.rawBody?.contentType === 'application/xml') return hostileXmlBody();
  if (op.rawBody?.contentType === 'multipart/form-data') return hostileCsvUpload(c.tenantTrn);
  if (op.rawBody) return hostileJsonBody({ submissionId: 'x', status: 'REPORTED', history: [] }).map((b) => ({ ...b, acceptable: false }));
  // No body expected: mostly none, sometimes one anyway.
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: hostileJsonBody({}).map((b) => ({ ...b, acceptable: undefined })), weight: 1 });
}

// ---- headers --------------------------------------------------------------------------------------------------
const HOSTILE_HEADERS: [string, string][] = [
  ['Host', '[::1'], ['Host', 'a'.repeat(300)], ['Host', 'evil.example:99999'],
  ['X-Forwarded-For', 'not an ip, 999.1.1.1'], ['X-Forwarded-Host', '%00'], ['X-Forwarded-Proto', 'gopher'],
  ['X-Request-Id', '<script>'], ['X-Request-Id', 'x'.repeat(500)], ['X-Service-Source', '\u00ff\u00fe<script>'],
  ['Accept', 'application/xml'], ['Accept', '*/*;q=x'], ['Accept-Encoding', 'gzip;q=NaN, br'], ['Accept-Charset', 'utf-7'],
  ['Cookie', 'session=' + 'a'.repeat(1000)], ['Range', 'bytes=0-1'], ['If-None-Match', '*'], ['Origin', 'null'],
  ['Content-Language', '\u00ff'], ['X-HTTP-Method-Override', 'DELETE'], ['Idempotent-Replayed', 'true'],
];

const IDEMPOTENCY_KEYS: [string, string | undefined, boolean][] = [
  ['missing', undefined, false], ['empty', '', false], ['blank', '   ', false], ['129 characters', 'k'.repeat(129), false],
  ['8 KB', 'k'.repeat(8000), false], ['latin1 bytes', '\u00ff\u00fe\u00e9', true], ['injection', '{"$gt":""}', true],
];

/** Whether some route serves `method` on the path (HEAD where GET is; OPTIONS on every path a route has). */
function servedOnPath(ops: Operation[], path: string, method: string): boolean {
  const wanted = method === 'HEAD' ? 'get' : method.toLowerCase();
  return method === 'OPTIONS' || ops.some((o) => o.method === wanted && o.path === path);
}

/** `arbitrary` one time in `oneIn`, else null (untouched). */
function rarely<T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: oneIn - 1 }, { arbitrary, weight: 1 });
}

/** A route whose query has required parameters needs a valid one in the context, or no request of it deserves a 2xx. */
function checkValidQuery(op: Operation, c: HostileContext): void {
  if (!op.query) return;
  const valid = c.validQueries[`${op.method} ${op.path}`];
  const schema = QUERY_SCHEMAS[op.query] as Joi.Schema;
  if (valid === undefined && schema.validate({}, JOI_OPTIONS).error) throw new Error(`hostile context: no valid query for ${op.method} ${op.path} (${op.query} has required parameters)`);
  if (valid !== undefined && schema.validate({ ...querystring.parse(valid) }, JOI_OPTIONS).error) throw new Error(`hostile context: the valid query of ${op.method} ${op.path} is refused by ${op.query}`);
}

// ---- the request ----------------------------------------------------------------------------------------------
export function hostileRequest(ops: Operation[], c: HostileContext): fc.Arbitrary<HostileRequest> {
  for (const op of ops) checkValidQuery(op, c);
  const perOperation = ops.map((op) => requestFor(op, ops, c)); // built once: some hold ready-made 5 MB bodies
  return fc.nat({ max: ops.length - 1 }).chain((i) => perOperation[i]);
}

function requestFor(op: Operation, ops: Operation[], c: HostileContext): fc.Arbitrary<HostileRequest> {
  return fc.record({
    creds: rarely(hostileCredentials(c), 8),
    path: rarely(hostilePath(op, c), 4),
    query: rarely(hostileQuery(op), op.query ? 2 : 6),
    idem: rarely(fc.constantFrom(...IDEMPOTENCY_KEYS), 6),
    extra: rarely(fc.constantFrom(...HOSTILE_HEADERS), 5),
    method: rarely(fc.constantFrom('PUT', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND', 'MKCOL'), 30),
    body: bodyFor(op, c),
  }).map((g): HostileRequest => {
    const what: string[] = [];
    const verdicts: Deserves[] = [];
    const hostile = (label: string, verdict: Deserves) => {
      what.push(label);
      verdicts.push(verdict);
    };
    let headers = credentials(op, c);
    if (g.creds) {
      headers = { ...g.creds[1] };
      hostile(`credentials: ${g.creds[0]}`, NEEDS_CREDENTIALS.has(op.surface) && !g.creds[2].includes(op.surface) ? 'never' : 'either');
    }
    let path = realPath(op, c);
    if (g.path) {
      path = g.path[1];
      hostile(g.path[0], g.path[2]);
    }
    if (g.query) {
      path = `${path}?${g.query[0]}`;
      hostile(`query ${g.query[0].slice(0, 80)}`, g.query[1]);
    } else if (c.validQueries[`${op.method} ${op.path}`]) {
      path = `${path}?${c.validQueries[`${op.method} ${op.path}`]}`; // untouched: what the route needs to answer 2xx
    }
    if (op.idempotency) {
      const [label, key, usable] = g.idem ?? ['fresh', randomUUID(), true];
      if (key !== undefined) headers['Idempotency-Key'] = key;
      if (g.idem) hostile(`Idempotency-Key ${label}`, usable || op.idempotency === 'optional' ? 'either' : 'never');
    }
    if (g.extra) {
      headers[g.extra[0]] = g.extra[1];
      hostile(`header ${g.extra[0]}: ${g.extra[1].slice(0, 30)}`, 'either');
    }
    let method = op.method.toUpperCase();
    const otherRoute = g.method !== null && servedOnPath(ops, op.path, g.method);
    if (g.method) {
      method = g.method;
      hostile(`method ${g.method}`, otherRoute ? 'either' : 'never');
    }
    if (g.body) {
      hostile(`body ${g.body.kind}`, otherRoute ? 'either' : bodyVerdict(op, g.body)); // another route's body rules
      if (g.body.contentType !== undefined) headers['Content-Type'] = g.body.contentType;
      if (g.body.contentEncoding) headers['Content-Encoding'] = g.body.contentEncoding;
    } else if (op.body || op.rawBody) {
      hostile('no body', 'never');
    }
    return { op, method, path, headers, body: g.body, deserves: combine(...verdicts), what };
  });
}
