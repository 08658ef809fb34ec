import { expect } from 'chai';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import { problemErrors } from '../../src/http/problem-errors';
import { jsonBody } from '../../src/http/json-body';

// The body rules every mutation shares, on the real middleware over a real socket.
describe('JSON bodies: malformed, too large, wrong type', () => {
  let base: string;
  before(async () => {
    const app = new Koa();
    app.silent = true;
    const router = new Router();
    router.post('/echo', jsonBody(), (ctx) => {
      ctx.body = { got: ctx.request.body };
    });
    app.use(problemErrors()).use(router.routes());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  const post = async (body: string, type = 'application/json') => {
    const res = await fetch(`${base}/echo`, { method: 'POST', headers: { 'Content-Type': type }, body });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
  };

  it('parses a JSON object', async () => {
    const res = await post('{"a":1}');
    expect(res.status).to.equal(200);
    expect(res.body.got).to.deep.equal({ a: 1 });
  });

  it('400 malformed_json, saying what to send', async () => {
    const res = await post('{"a":');
    expect(res.status).to.equal(400);
    expect(res.type).to.match(/problem\+json/);
    expect(res.body.code).to.equal('malformed_json');
    expect(res.body.detail).to.contain('application/json');
  });

  it('413 payload_too_large above 1 MB', async () => {
    const res = await post(JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }));
    expect(res.status).to.equal(413);
    expect(res.body.code).to.equal('payload_too_large');
  });

  it('415 unsupported_media_type for a non-JSON body', async () => {
    const res = await post('a=1', 'application/x-www-form-urlencoded');
    expect(res.status).to.equal(415);
    expect(res.body.code).to.equal('unsupported_media_type');
  });
});
