// Issue 32 point 3: the API process's listeners. The admin API on its own listener (loopback by default) and a 404
// on the public port; ADMIN_TOKEN of at least 32 characters or no start; Cache-Control: no-store on every answer that
// can carry a secret; Node's server limits set from config (read off the real servers), the connection cap enforced;
// the token route reads at most 4 KB, and a larger declared body is refused before a byte of it is sent.
import { expect } from 'chai';
import net, { type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { resetConfig, config } from '../../src/config';
import { startServer, stopServers, type ApiServers } from '../../src/server';
import { CSV_UPLOAD_LIMITS } from '../../src/http/csv-upload';
import { XML_BODY_LIMIT } from '../../src/http/xml-body';
import { adminCall, apiBase, call } from '../helpers/http';
import { newTenant } from '../helpers/tenants';

const baseOf = (server: Server) => {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address}:${port}`;
};

/** Runs `work` with these environment variables set (config reloaded), then puts everything back. */
async function withEnv<T>(vars: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
    resetConfig();
  };
  apply(vars);
  try {
    return await work();
  } finally {
    apply(saved);
  }
}

/** Raw bytes on a socket, and everything the server answers until it closes (or resets) or `until` matches. */
function rawExchange(base: string, bytes: string, until: RegExp): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve) => {
    let got = '';
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(bytes));
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      got += c;
      if (until.test(got)) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('close', () => resolve(got));
    socket.on('error', () => resolve(got));
  });
}

describe('edge: the admin listener, no-store, server limits, the token route body limit', () => {
  describe('src/server.ts listeners', () => {
    let servers: ApiServers;
    before(async () => {
      servers = await withEnv({ PORT: '0', ADMIN_PORT: '0', ADMIN_HOST: undefined }, () => startServer());
    });
    after(async () => {
      if (servers) await stopServers(servers);
    });

    it('serves the admin API on its own listener, bound to 127.0.0.1 by default; the public port answers 404 for /v1/admin', async () => {
      expect(servers.admin, 'ADMIN_TOKEN is set: the admin listener runs').to.not.equal(null);
      expect((servers.admin!.address() as AddressInfo).address).to.equal('127.0.0.1');
      expect((servers.api.address() as AddressInfo).address).to.equal('0.0.0.0');
      const admin = { Authorization: `Bearer ${config().adminToken}`, 'Content-Type': 'application/json' };
      const body = JSON.stringify({ name: 'Edge ERP', mode: 'test' });
      const publicPort = `http://127.0.0.1:${(servers.api.address() as AddressInfo).port}`;

      const onPublic = await fetch(`${publicPort}/v1/admin/partners`, { method: 'POST', headers: admin, body });
      expect(onPublic.status).to.equal(404);
      expect(await onPublic.json()).to.include({ code: 'route_not_found' });
      for (const path of ['/v1/admin', '/v1/admin/tenants/x/credits', '/v1/admin/smes/x/credits']) {
        expect((await fetch(`${publicPort}${path}`, { headers: admin })).status, path).to.equal(404);
      }

      const onAdmin = await fetch(`${baseOf(servers.admin!)}/v1/admin/partners`, { method: 'POST', headers: admin, body });
      expect(onAdmin.status).to.equal(201);
      expect(((await onAdmin.json()) as { apiSecret: unknown }).apiSecret).to.be.a('string');
      expect(onAdmin.headers.get('cache-control')).to.equal('no-store');
    });

    it('sets headersTimeout, requestTimeout, keepAliveTimeout and maxConnections on both listeners from config (defaults)', () => {
      for (const server of [servers.api, servers.admin!]) {
        expect({ headersTimeout: server.headersTimeout, requestTimeout: server.requestTimeout, keepAliveTimeout: server.keepAliveTimeout, maxConnections: server.maxConnections }).to.deep.equal({
          headersTimeout: 20_000,
          requestTimeout: 300_000,
          keepAliveTimeout: 65_000,
          maxConnections: 1024,
        });
      }
    });

    it('requestTimeout leaves room for the largest upload (5 MB CSV or XML) at a slow 140 kbit/s', () => {
      const slowBytesPerSecond = 140_000 / 8;
      const largest = Math.max(CSV_UPLOAD_LIMITS.maxBytes, XML_BODY_LIMIT);
      expect((servers.api.requestTimeout / 1000) * slowBytesPerSecond).to.be.at.least(largest);
    });
  });

  it('HTTP_MAX_CONNECTIONS is enforced: a connection over the cap is closed unanswered, and the open ones still work', async () => {
    const servers = await withEnv({ PORT: '0', ADMIN_TOKEN: undefined, HTTP_MAX_CONNECTIONS: '2' }, () => startServer());
    const base = baseOf(servers.api).replace('0.0.0.0', '127.0.0.1');
    const url = new URL(base);
    const open = await Promise.all([0, 1].map(() => new Promise<net.Socket>((resolve) => {
      const s = net.connect(Number(url.port), url.hostname, () => resolve(s));
    })));
    try {
      expect(servers.admin, 'no ADMIN_TOKEN: no admin listener').to.equal(null);
      // The server counts a socket once it has accepted it: wait until both are counted before the third.
      await new Promise<void>(function poll(resolve) {
        servers.api.getConnections((_e, n) => (n === 2 ? resolve() : setTimeout(() => poll(resolve), 20)));
      });
      const third = await rawExchange(base, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', /\r\n\r\n/);
      expect(third, 'the third connection gets no answer').to.equal('');
      const first = await new Promise<string>((resolve) => {
        open[0].once('data', (c) => resolve(String(c)));
        open[0].write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      });
      expect(first).to.match(/^HTTP\/1\.1 200/);
    } finally {
      for (const s of open) s.destroy();
      await stopServers(servers);
    }
  });

  it('refuses to start with an ADMIN_TOKEN shorter than 32 characters, naming the rule and how to make one', async () => {
    const err = await withEnv({ PORT: '0', ADMIN_TOKEN: 'x'.repeat(31) }, () => startServer().then(() => null, (e: Error) => e));
    expect(err?.message).to.match(/ADMIN_TOKEN must be at least 32 characters.*it has 31.*openssl rand/);
  });

  it('Cache-Control: no-store on every admin answer (refusals too) and on POST /v1/auth/token', async () => {
    expect((await adminCall('POST', '/v1/admin/partners', { json: { name: 'x', mode: 'test' } })).headers.get('cache-control')).to.equal('no-store');
    expect((await adminCall('GET', '/v1/admin/nothing-here')).headers.get('cache-control')).to.equal('no-store');
    const t = await newTenant();
    const ok = await call('POST', '/v1/auth/token', { json: { clientId: t.clientId, clientSecret: t.clientSecret } });
    expect([ok.status, ok.headers.get('cache-control')]).to.deep.equal([200, 'no-store']);
    const wrong = await call('POST', '/v1/auth/token', { json: { clientId: t.clientId, clientSecret: 'wrong' } });
    expect([wrong.status, wrong.headers.get('cache-control')]).to.deep.equal([401, 'no-store']);
  });

  it('POST /v1/auth/token reads at most 4 KB: a larger declared body is 413 before any of it is sent; 4 KB is read', async () => {
    const base = await apiBase();
    const head = (length: number) => `POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
    // Only the headers go out: an answer proves the server decided without reading (or waiting for) the body.
    const answer = await rawExchange(base, head(1_000_000), /\r\n\r\n\{[\s\S]*\}$/);
    expect(answer).to.match(/^HTTP\/1\.1 413 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body.code).to.equal('payload_too_large');
    expect(body.humanMessage).to.contain('4 KB');
    expect(answer.toLowerCase()).to.contain('cache-control: no-store');

    const t = await newTenant();
    const pad = 'x'.repeat(4096 - JSON.stringify({ clientId: t.clientId, clientSecret: t.clientSecret, pad: '' }).length);
    const atLimit = await call('POST', '/v1/auth/token', { json: { clientId: t.clientId, clientSecret: t.clientSecret, pad } });
    expect(atLimit.status, 'exactly 4 KB is read (and refused for its unknown field, not its size)').to.equal(400);
    const over = await call('POST', '/v1/auth/token', { json: { clientId: t.clientId, clientSecret: t.clientSecret, pad: `${pad}x` } });
    expect([over.status, over.body.code]).to.deep.equal([413, 'payload_too_large']);
  });
});
