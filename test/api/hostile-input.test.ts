// Client mistakes that used to be answered with a 500 or an empty, untyped answer (issue reliability, "already
// found"): a body that is not what its Content-Encoding claims, JSON nested 20,000 deep, a __proto__ key, a cursor
// whose date is out of range, unknown methods, and requests Node's HTTP parser refuses before Koa sees them.
import { expect } from 'chai';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { apiBase, call } from '../helpers/http';
import { newPartner } from '../helpers/partners';

function expectProblem(res: { status: number; headers: Headers; body: any; text: string }, status: number): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expect(res.body.code).to.be.a('string');
  expect(res.text).not.to.match(/at \w+ \(|node_modules|Error:/);
}

/** Writes raw bytes to the API and returns the raw answer. */
async function raw(bytes: string | Buffer): Promise<string> {
  const url = new URL(await apiBase());
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

describe('hostile input: 4xx problems, never a 500', () => {
  it('a body that is not what its Content-Encoding says: 400, on POST and on GET', async () => {
    const p = await newPartner();
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await call('POST', '/v1/partner/invoices', { headers: { ...p.headers, 'Idempotency-Key': `k-${encoding}`, 'Content-Type': 'application/json', 'Content-Encoding': encoding }, raw: 'not compressed at all' });
      expectProblem(res, 400);
    }
    const truncated = gzipSync(Buffer.from(JSON.stringify({ a: 'b'.repeat(1000) }))).subarray(0, 20);
    const res = await fetch(`${await apiBase()}/v1/partner/customers`, { method: 'POST', headers: { ...p.headers, 'Idempotency-Key': 'k-t', 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: truncated });
    expect(res.status).to.equal(400);
    const get = await fetch(`${await apiBase()}/v1/partner/invoices`, { method: 'GET', headers: { ...p.headers, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': '5' } as Record<string, string>, body: undefined });
    expect(get.status).to.be.below(500);
  });

  it('JSON nested 20,000 levels deep, and a __proto__ key: 400 naming the problem', async () => {
    const p = await newPartner();
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    expectProblem(await call('POST', '/v1/partner/invoices', { headers: { ...p.headers, 'Idempotency-Key': 'deep', 'Content-Type': 'application/json' }, raw: deep }), 400);
    const proto = await call('POST', '/v1/partner/invoices', { headers: { ...p.headers, 'Idempotency-Key': 'proto', 'Content-Type': 'application/json' }, raw: '{"__proto__": {"admin": true}, "number": "x"}' });
    expectProblem(proto, 400); // refused (forbidden_key, or dropped by the parser and then a missing field), never a 500
  });

  it('a list cursor that decodes to an out-of-range date: 400 invalid cursor', async () => {
    const p = await newPartner();
    const cursor = Buffer.from(JSON.stringify([8.64e15 + 1, 'x'])).toString('base64url');
    expectProblem(await call('GET', `/v1/partner/invoices?cursor=${cursor}`, { headers: p.headers }), 400);
  });

  it('unknown methods: 405 problem+json with Allow', async () => {
    const p = await newPartner();
    for (const method of ['PROPFIND', 'MKCOL', 'TRACE']) {
      const res = await fetch(`${await apiBase()}/v1/partner/invoices`, { method, headers: p.headers }).catch(() => null);
      if (!res) continue; // fetch refuses TRACE itself
      expect(res.status, method).to.equal(405);
      expect(res.headers.get('content-type')).to.match(/problem\+json/);
      expect(res.headers.get('allow')).to.match(/GET/);
    }
  });

  it('requests the HTTP parser refuses are answered in our error shape, not an empty 400', async () => {
    const bad = await raw('GET /v1/partner/ping HTTP/1.1 extra\r\nHost: x\r\n\r\n');
    expect(bad).to.match(/^HTTP\/1\.1 400/);
    expect(bad).to.match(/content-type: application\/problem\+json/i);
    expect(bad).to.match(/"code":"malformed_request"/);
    const big = await raw(`GET /v1/partner/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
    expect(big).to.match(/^HTTP\/1\.1 431/);
    expect(big).to.match(/"code":"headers_too_large"/);
  });
});
