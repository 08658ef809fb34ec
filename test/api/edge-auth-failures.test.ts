// Issue 32 point 3: failed authentications per client address. 30 wrong credentials from one address, and the 31st
// request is 429 with Retry-After before its credentials are looked at (the right ones too), on POST /v1/auth/token,
// the Partner API and Tenant bearer tokens; per address (X-Forwarded-For only with TRUST_PROXY); the right secret
// does not reset the count. Real apps on real sockets; every test counts under addresses of its own (random IPv6
// /64s through a trusted proxy, random 127.x.y.z sockets without), so runs and other tests never share a counter.
import { expect } from 'chai';
import http from 'node:http';
import { randomBytes, randomInt } from 'node:crypto';
import { createApp } from '../../src/api/app';
import { config, resetConfig } from '../../src/config';
import { signJwt } from '../../src/credentials/jwt';
import { listen } from '../helpers/listen';
import { newPartner } from '../helpers/partners';
import { newTenant } from '../helpers/tenants';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** One request over a fresh socket, optionally from a given local address (the client address without a proxy). */
function send(base: string, method: string, path: string, opts: { headers?: Record<string, string>; json?: unknown; from?: string } = {}): Promise<Answer> {
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  const url = new URL(path, base);
  const headers = { ...(opts.headers ?? {}), ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, localAddress: opts.from, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A /64 of the documentation range no other run or test uses: the client as a trusted proxy reports it. */
const ipv6Client = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::${randomInt(1, 0xffff).toString(16)}`;
/** A loopback address of its own: the socket's address, when no proxy is trusted. */
const loopbackClient = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

function expect429(res: Answer, shape: 'problem' | 'tenant'): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter, 'Retry-After in whole seconds within the 15-minute window').to.be.within(1, 900);
  expect(res.body.code).to.equal('too_many_failed_authentications');
  if (shape === 'problem') {
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body).to.include({ status: 429, type: 'https://einvoice.ae/problems/too-many-failed-authentications' });
    expect(res.body.detail).to.match(/retry-after \d+ seconds/);
  } else {
    expect(res.headers['content-type']).to.match(/^application\/json/);
    expect(res.body).to.have.property('humanMessage').that.match(/retry-after \d+ seconds/);
  }
  expect(res.body.meta).to.deep.include({ limit: 30, windowSeconds: 900, retryAfterSeconds: retryAfter });
}

describe('failed authentications per client address (AUTH_FAILURE_LIMIT 30 in 15 minutes)', () => {
  // (read in before(): at load time the root hooks have not yet set the suite's own limit)
  let saved: { limit: string | undefined; proxy: string | undefined };
  let behindProxy: string; // TRUST_PROXY=1: the client is the address our one proxy puts last in X-Forwarded-For
  let direct: string; // TRUST_PROXY unset: the client is the socket's address, X-Forwarded-For is ignored

  before(async () => {
    saved = { limit: process.env.AUTH_FAILURE_LIMIT, proxy: process.env.TRUST_PROXY };
    process.env.AUTH_FAILURE_LIMIT = '30';
    process.env.TRUST_PROXY = '1';
    resetConfig();
    behindProxy = await listen(createApp());
    delete process.env.TRUST_PROXY;
    resetConfig();
    direct = await listen(createApp());
  });

  after(() => {
    for (const [name, value] of [['AUTH_FAILURE_LIMIT', saved.limit], ['TRUST_PROXY', saved.proxy]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
  });

  it('POST /v1/auth/token: 30 wrong client secrets, then even the right one is 429 with Retry-After; another address is not blocked', async () => {
    const t = await newTenant();
    const attacker = ipv6Client();
    const token = (clientSecret: string, from: string) => send(behindProxy, 'POST', '/v1/auth/token', { headers: { 'X-Forwarded-For': from }, json: { clientId: t.clientId, clientSecret } });
    for (let i = 1; i <= 30; i++) {
      const wrong = await token(`wrong-${i}`, attacker);
      expect([i, wrong.status]).to.deep.equal([i, 401]);
    }
    const right = await token(t.clientSecret, attacker);
    expect429(right, 'tenant');
    expect(right.headers['cache-control']).to.equal('no-store');
    expect(right.body).not.to.have.property('accessToken');
    // The counter is per address: the same tenant from elsewhere gets its token.
    const elsewhere = await token(t.clientSecret, ipv6Client());
    expect(elsewhere.status).to.equal(200);
    expect(elsewhere.body.accessToken).to.be.a('string');
  });

  it('the Partner API: wrong API secrets and wrong connection secrets count together; then the right pair is 429 problem+json', async () => {
    const p = await newPartner();
    const attacker = ipv6Client();
    const from = { 'X-Forwarded-For': attacker };
    for (let i = 1; i <= 15; i++) {
      const wrongSecret = await send(behindProxy, 'GET', '/v1/partner/ping', { headers: { ...from, ...p.keyHeaders, 'X-API-Secret': `wrong-${i}` } });
      expect([i, wrongSecret.status, wrongSecret.body.code]).to.deep.equal([i, 401, 'invalid_credentials']);
      const wrongSme = await send(behindProxy, 'GET', '/v1/partner/invoices', { headers: { ...from, ...p.headers, 'x-erp-partner-secret': `wrong-${i}` } });
      expect([i, wrongSme.status, wrongSme.body.code]).to.deep.equal([i, 401, 'invalid_connection_secret']);
    }
    expect429(await send(behindProxy, 'GET', '/v1/partner/ping', { headers: { ...from, ...p.keyHeaders } }), 'problem');
    expect429(await send(behindProxy, 'GET', '/v1/partner/invoices', { headers: { ...from, ...p.headers } }), 'problem');
    expect((await send(behindProxy, 'GET', '/v1/partner/ping', { headers: { 'X-Forwarded-For': ipv6Client(), ...p.keyHeaders } })).status).to.equal(200);
  });

  it('Tenant bearer tokens: 30 forged ones, then the genuine token is 429 in the Tenant shape; expired tokens we signed do not count', async () => {
    const t = await newTenant();
    const forger = ipv6Client();
    for (let i = 1; i <= 30; i++) {
      const forged = await send(behindProxy, 'GET', '/v1/invoices', { headers: { 'X-Forwarded-For': forger, Authorization: `Bearer ${t.token.slice(0, -6)}AAAAAA` } });
      expect([i, forged.status]).to.deep.equal([i, 401]);
    }
    expect429(await send(behindProxy, 'GET', '/v1/invoices', { headers: { 'X-Forwarded-For': forger, ...t.headers } }), 'tenant');

    // A connector whose token has expired is not guessing: 40 answers of 401 later it still gets through (and to the token route).
    const connector = ipv6Client();
    const expired = signJwt({ sub: String(t.tenantId), iat: 1_700_000_000, exp: 1_700_003_600, aud: 'einvoice-tenant' }, config().jwtSecret);
    for (let i = 1; i <= 40; i++) {
      expect((await send(behindProxy, 'GET', '/v1/invoices', { headers: { 'X-Forwarded-For': connector, Authorization: `Bearer ${expired}` } })).status).to.equal(401);
    }
    expect((await send(behindProxy, 'GET', '/v1/invoices', { headers: { 'X-Forwarded-For': connector, ...t.headers } })).status).to.equal(200);
  });

  it('missing credentials are not guesses and do not count; a success does not reset the count', async () => {
    const p = await newPartner();
    const client = ipv6Client();
    const from = { 'X-Forwarded-For': client };
    for (let i = 1; i <= 40; i++) {
      const none = await send(behindProxy, 'GET', '/v1/partner/ping', { headers: from });
      expect([i, none.body.code]).to.deep.equal([i, 'missing_credentials']);
    }
    for (let i = 1; i <= 29; i++) expect((await send(behindProxy, 'GET', '/v1/partner/ping', { headers: { ...from, ...p.keyHeaders, 'X-API-Secret': 'wrong' } })).status).to.equal(401);
    // The right pair between guesses: still 200 (29 < 30), and it leaves the count where it was.
    expect((await send(behindProxy, 'GET', '/v1/partner/ping', { headers: { ...from, ...p.keyHeaders } })).status).to.equal(200);
    expect((await send(behindProxy, 'GET', '/v1/partner/ping', { headers: { ...from, ...p.keyHeaders, 'X-API-Secret': 'wrong' } })).status).to.equal(401);
    expect429(await send(behindProxy, 'GET', '/v1/partner/ping', { headers: { ...from, ...p.keyHeaders } }), 'problem');
  });

  it('without TRUST_PROXY the socket address counts and X-Forwarded-For is ignored: a new header each time does not escape the limit', async () => {
    const t = await newTenant();
    const socket = loopbackClient();
    const token = (clientSecret: string, from: string) => send(direct, 'POST', '/v1/auth/token', { from, headers: { 'X-Forwarded-For': ipv6Client() }, json: { clientId: t.clientId, clientSecret } });
    for (let i = 1; i <= 30; i++) expect((await token(`wrong-${i}`, socket)).status).to.equal(401);
    expect429(await token(t.clientSecret, socket), 'tenant');
    // Another socket address is another client.
    expect((await token(t.clientSecret, loopbackClient())).status).to.equal(200);
  });
});
