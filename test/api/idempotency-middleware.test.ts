import { expect } from 'chai';
import Koa from 'koa';
import Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { problemErrors } from '../../src/http/problem-errors';
import { idempotent } from '../../src/http/idempotency-middleware';
import { jsonBody } from '../../src/http/json-body';
import { partnerAuth, smeAuth } from '../../src/http/partner-auth';
import { onSurface } from '../../src/http/surface';
import { serviceErrors } from '../../src/domain/errors';
import { call } from '../helpers/http';
import { listen } from '../helpers/listen';
import { newPartner } from '../helpers/partners';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('idempotent() middleware (SPEC 5.3, 8)', () => {
  // A mutation on the real middleware chain whose answer changes on every execution, so a replay is recognisable.
  let base: string;
  let executions = 0;
  before(async () => {
    const router = new Router();
    router.use(onSurface('partner'));
    router.post('/things', partnerAuth(), smeAuth(), jsonBody(), idempotent(), async (ctx) => {
      executions++;
      const body = ctx.request.body as { delayMs?: number; missing?: boolean };
      if (body.delayMs) await sleep(body.delayMs);
      if (body.missing) throw serviceErrors.notFound('No such thing.');
      ctx.status = 201;
      ctx.set('X-Handler', 'ran');
      ctx.body = { id: randomUUID(), execution: executions, echo: body };
    });
    router.delete('/things/:id', partnerAuth(), smeAuth(), idempotent(), (ctx) => {
      executions++;
      ctx.status = 204;
    });
    base = await listen(new Koa().use(problemErrors()).use(router.routes()));
  });

  async function post(headers: Record<string, string>, json: unknown, key?: string) {
    const res = await fetch(`${base}/things`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
      body: JSON.stringify(json),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(text || 'null') };
  }

  it('400 idempotency_key_required without the header, or with an empty one', async () => {
    const p = await newPartner();
    for (const key of [undefined, '', '   ']) {
      const res = await post(p.headers, { a: 1 }, key);
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('idempotency_key_required');
      expect(res.body.detail).to.match(/Idempotency-Key/);
    }
  });

  it('400 idempotency_key_too_long over 128 characters; 128 is fine', async () => {
    const p = await newPartner();
    const long = await post(p.headers, { a: 1 }, 'k'.repeat(129));
    expect(long.status).to.equal(400);
    expect(long.body.code).to.equal('idempotency_key_too_long');
    expect((await post(p.headers, { a: 1 }, 'k'.repeat(128))).status).to.equal(201);
    expect((await post(p.headers, { a: 1 }, 'k')).status).to.equal(201);
  });

  it('replays the first response byte for byte, with Idempotent-Replayed: true', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const first = await post(p.headers, { a: 1, b: [1, 2] }, key);
    expect(first.status).to.equal(201);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    const before = executions;
    // Same body with keys in another order: the same request.
    const again = await post(p.headers, { b: [1, 2], a: 1 }, key);
    expect(executions).to.equal(before);
    expect(again.status).to.equal(201);
    expect(again.text).to.equal(first.text);
    expect(again.headers.get('content-type')).to.equal(first.headers.get('content-type'));
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('409 idempotency_key_mismatch for the same key with a different body', async () => {
    const p = await newPartner();
    const key = randomUUID();
    await post(p.headers, { a: 1 }, key);
    const res = await post(p.headers, { a: 2 }, key);
    expect(res.status).to.equal(409);
    expect(res.body.code).to.equal('idempotency_key_mismatch');
    expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  });

  it('two simultaneous requests with one key execute once: the other gets 409 idempotency_in_progress, then the replay', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const before = executions;
    const [a, b] = await Promise.all([post(p.headers, { delayMs: 500 }, key), sleep(100).then(() => post(p.headers, { delayMs: 500 }, key))]);
    expect(executions - before).to.equal(1);
    expect(a.status).to.equal(201);
    expect(b.status).to.equal(409);
    expect(b.body.code).to.equal('idempotency_in_progress');
    const later = await post(p.headers, { delayMs: 500 }, key);
    expect(later.text).to.equal(a.text);
  });

  it('replays a stored 404 problem too', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const first = await post(p.headers, { missing: true }, key);
    expect(first.status).to.equal(404);
    const before = executions;
    const again = await post(p.headers, { missing: true }, key);
    expect(executions).to.equal(before);
    expect(again.status).to.equal(404);
    expect(again.text).to.equal(first.text);
    expect(again.headers.get('content-type')).to.match(/^application\/problem\+json/);
  });

  it('keys belong to one partner and SME: the same key elsewhere executes on its own', async () => {
    const p = await newPartner();
    const q = await newPartner();
    const key = randomUUID();
    const a = await post(p.headers, { a: 1 }, key);
    const b = await post(q.headers, { a: 1 }, key);
    expect(b.headers.get('idempotent-replayed')).to.equal(null);
    expect(b.body.id).not.to.equal(a.body.id);
  });

  it('replays a 204 without a body', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const del = () => fetch(`${base}/things/x`, { method: 'DELETE', headers: { ...p.headers, 'Idempotency-Key': key } });
    const first = await del();
    expect(first.status).to.equal(204);
    const again = await del();
    expect(again.status).to.equal(204);
    expect(await again.text()).to.equal('');
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('the real customers endpoint requires the key', async () => {
    const p = await newPartner();
    const res = await call('POST', '/v1/partner/customers', { headers: p.headers, json: { externalRef: 'c1', name: 'Buyer LLC' } });
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('idempotency_key_required');
  });
});
