import { expect } from 'chai';
import dns from 'node:dns';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { MAX_RESPONSE_BYTES, postWebhook } from '../../src/webhooks/send';
import { checkWebhookUrl, forbiddenAddressReason } from '../../src/webhooks/url-policy';

async function server(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const s = http.createServer(handler).listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const { port } = s.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, close: () => (s.closeAllConnections(), new Promise((r) => s.close(() => r()))) };
}

// The receivers here are on 127.0.0.1: allowed by the development setting (the root hooks set it), refused without.
const send = (url: string, extra: Partial<Parameters<typeof postWebhook>[0]> = {}) => postWebhook({ url, allowPrivate: true, headers: { 'X-Webhook-Timestamp': '1' }, body: '{"a":1}', ...extra });

describe('webhook sender (real sockets)', function () {
  this.timeout(30_000);

  it('any 2xx is success; the body sent is the given raw body with JSON content type', async () => {
    let seen: { body: string; type?: string } | undefined;
    const s = await server((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c)).on('end', () => ((seen = { body, type: req.headers['content-type'] }), res.writeHead(202).end()));
    });
    try {
      expect(await send(s.url)).to.include({ ok: true, status: 202, error: null, detail: null });
      expect(seen).to.deep.equal({ body: '{"a":1}', type: 'application/json' });
    } finally {
      await s.close();
    }
  });

  it('a receiver that never answers is a timeout failure (10 s in production, shortened here)', async () => {
    const s = await server(() => {}); // accepts, never responds
    try {
      const result = await send(s.url, { timeoutMs: 300 });
      expect(result).to.include({ ok: false, status: null, error: 'timeout' });
      expect(result.detail).to.match(/no response within 0.3 s/);
    } finally {
      await s.close();
    }
  });

  it('reads at most 64 KiB of a response body, and still counts a 2xx', async () => {
    let written = 0;
    const s = await server((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (written < 10 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      res.on('close', () => {});
    });
    try {
      const result = await send(s.url);
      expect(result).to.include({ ok: true, status: 200 });
      expect(written).to.be.below(10 * 1024 * 1024); // we hung up long before the 10 MB were sent
      expect(MAX_RESPONSE_BYTES).to.equal(65_536);
    } finally {
      await s.close();
    }
  });

  it('TLS failures are recorded as errors (https to a plain-HTTP port)', async () => {
    const s = await server((_req, res) => res.writeHead(200).end());
    try {
      const result = await send(s.url.replace('http:', 'https:'));
      expect(result).to.include({ ok: false, status: null, error: 'tls_error' });
      expect(result.detail).to.match(/EPROTO|SSL|TLS|wrong version/i);
    } finally {
      await s.close();
    }
  });

  it('without the development setting: refuses http, private literals and names resolving to loopback before connecting', async () => {
    let hits = 0;
    const s = await server((_req, res) => (hits++, res.writeHead(200).end()));
    try {
      const port = new URL(s.url).port;
      expect(await send(s.url), 'the same receiver, development setting on').to.include({ ok: true });
      const refusals: [string, string][] = [
        [s.url, 'https_required'], [`https://10.0.0.1:${port}/`, 'forbidden_address'], [`https://[::1]:${port}/`, 'forbidden_address'],
        [`https://localhost:${port}/`, 'forbidden_address'], [`https://[::ffff:127.0.0.1]:${port}/`, 'forbidden_address'],
      ];
      for (const [url, error] of refusals) {
        const result = await send(url, { allowPrivate: false });
        expect(result, url).to.include({ ok: false, status: null, error });
        expect(result.detail, url).to.match(/^refused: /);
      }
      expect(hits).to.equal(1);
    } finally {
      await s.close();
    }
  });

  it('without the development setting: a name that resolves to an internal address is refused at connect time (the lookup itself)', async function () {
    // This machine's own name resolves to loopback or a private address (hosts file, container network); a plain
    // name passes the registration check, so only the send-time lookup can stop it.
    const name = os.hostname();
    const addresses = await dns.promises.lookup(name, { all: true }).catch(() => []);
    if (addresses.length === 0 || !addresses.every((a) => forbiddenAddressReason(a.address))) this.skip();
    expect(checkWebhookUrl(`https://${name}/`, { allowPrivate: false })).to.equal(null);
    let hits = 0;
    const s = await server((_req, res) => (hits++, res.writeHead(200).end()));
    try {
      const result = await send(`https://${name}:${new URL(s.url).port}/hook`, { allowPrivate: false });
      expect(result).to.include({ ok: false, status: null, error: 'forbidden_address' });
      expect(result.detail).to.match(/^refused: .* resolves to/);
      expect(hits).to.equal(0);
    } finally {
      await s.close();
    }
  });

  it('the failure recorded for a refused connection is its class; the address stays in the detail (logs)', async () => {
    const s = await server((_req, res) => res.writeHead(200).end());
    await s.close();
    const result = await send(s.url);
    expect(result).to.include({ ok: false, status: null, error: 'connection_refused' });
    expect(result.detail).to.match(/^ECONNREFUSED: .*127\.0\.0\.1/);
  });
});
