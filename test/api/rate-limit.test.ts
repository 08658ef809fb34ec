import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../src/api/app';
import { Partner, RateLimitWindow } from '../../src/db/models';
import { consumeBudget, purgeExpiredRateLimitWindows } from '../../src/services/rate-budget';
import { call } from '../helpers/http';
import { newPartner } from '../helpers/partners';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The per-partner window is a calendar minute; start counting well inside one so the test never straddles two. */
async function freshMinute(needMs = 8000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await sleep(left + 50);
}

function expectRateHeaders(headers: Headers, limit: number, remaining: number) {
  expect(headers.get('x-ratelimit-limit')).to.equal(String(limit));
  expect(headers.get('x-ratelimit-remaining')).to.equal(String(remaining));
}

describe('Partner rate limit (SPEC 7.1, 8; DESIGN: 600 a minute per partner)', function () {
  this.timeout(120_000);

  it('X-RateLimit-Limit and X-RateLimit-Remaining (integers) on a success, default 600 a minute', async () => {
    await freshMinute();
    const p = await newPartner();
    const first = await call('GET', '/v1/partner/ping', { headers: p.keyHeaders });
    expect(first.status).to.equal(200);
    expectRateHeaders(first.headers, 600, 599);
    const second = await call('GET', '/v1/partner/whoami', { headers: p.keyHeaders });
    expectRateHeaders(second.headers, 600, 598);
  });

  it('the headers stay on error responses raised after the limiter (400, 401 connection secret, 404, 409)', async () => {
    await freshMinute();
    const p = await newPartner();
    const bad = await call('GET', '/v1/partner/validate-trn?trn=12', { headers: p.keyHeaders });
    expect(bad.status).to.equal(400);
    expectRateHeaders(bad.headers, 600, 599);
    const noSme = await call('GET', '/v1/partner/customers/x', { headers: p.keyHeaders });
    expect(noSme.status).to.equal(401);
    expectRateHeaders(noSme.headers, 600, 598);
    const missing = await call('GET', '/v1/partner/customers/nope', { headers: p.headers });
    expect(missing.status).to.equal(404);
    expectRateHeaders(missing.headers, 600, 597);
    const noKey = await call('POST', '/v1/partner/customers', { headers: p.headers, json: { externalRef: 'a', name: 'A' } });
    expect(noKey.status).to.equal(400);
    expectRateHeaders(noKey.headers, 600, 596);
  });

  it('429 rate_limited with Retry-After once the per-partner budget is used up; other partners unaffected', async () => {
    await freshMinute();
    const p = await newPartner();
    await Partner.updateOne({ _id: p.partnerId }, { $set: { rateLimitPerMinute: 3 } });
    for (let i = 0; i < 3; i++) {
      const ok = await call('GET', '/v1/partner/ping', { headers: p.keyHeaders });
      expect(ok.status).to.equal(200);
      expectRateHeaders(ok.headers, 3, 2 - i);
    }
    const limited = await call('GET', '/v1/partner/ping', { headers: p.keyHeaders });
    expect(limited.status).to.equal(429);
    expect(limited.body.code).to.equal('rate_limited');
    expect(limited.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expectRateHeaders(limited.headers, 3, 0);
    const retryAfter = limited.headers.get('retry-after')!;
    expect(retryAfter).to.match(/^\d+$/);
    expect(Number(retryAfter)).to.be.within(1, 60);
    // SME-scoped routes share the same budget.
    expect((await call('GET', '/v1/partner/customers/x', { headers: p.headers })).status).to.equal(429);

    const other = await newPartner();
    expect((await call('GET', '/v1/partner/ping', { headers: other.keyHeaders })).status).to.equal(200);
  });

  it('is shared by every API process: two app instances count together', async () => {
    await freshMinute();
    const servers: Server[] = [createApp().listen(0, '127.0.0.1'), createApp().listen(0, '127.0.0.1')];
    await Promise.all(servers.map((s) => new Promise((r) => s.once('listening', r))));
    const [a, b] = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`);
    try {
      const p = await newPartner();
      await Partner.updateOne({ _id: p.partnerId }, { $set: { rateLimitPerMinute: 4 } });
      const statuses: number[] = [];
      for (const base of [a, b, a, b, a, b]) statuses.push((await fetch(`${base}/v1/partner/ping`, { headers: p.keyHeaders })).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 429, 429]);
    } finally {
      for (const s of servers) s.close();
    }
  });

  it('counts concurrent requests exactly (no lost uses)', async () => {
    await freshMinute();
    const p = await newPartner();
    await Partner.updateOne({ _id: p.partnerId }, { $set: { rateLimitPerMinute: 10 } });
    const results = await Promise.all(Array.from({ length: 16 }, () => call('GET', '/v1/partner/ping', { headers: p.keyHeaders })));
    expect(results.filter((r) => r.status === 200)).to.have.length(10);
    expect(results.filter((r) => r.status === 429)).to.have.length(6);
    const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y);
    expect(remaining).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('consumeBudget (reusable fixed-window budget, e.g. 3 retries an hour per invoice)', () => {
  const HOUR = 3_600_000;

  it('allows limit uses per window, then refuses with the seconds until the window resets', async () => {
    const bucket = `retry:${randomUUID()}`;
    const start = Math.floor(Date.now() / HOUR) * HOUR;
    const at = start + 10 * 60_000; // ten minutes into the hour
    const r = [];
    for (let i = 0; i < 4; i++) r.push(await consumeBudget({ bucket, limit: 3, windowMs: HOUR }, at));
    expect(r.map((x) => x.allowed)).to.deep.equal([true, true, true, false]);
    expect(r.map((x) => x.remaining)).to.deep.equal([2, 1, 0, 0]);
    expect(r[0].retryAfterSeconds).to.equal(0);
    expect(r[3].retryAfterSeconds).to.equal(50 * 60);
    const nextHour = await consumeBudget({ bucket, limit: 3, windowMs: HOUR }, start + HOUR + 1);
    expect(nextHour).to.deep.equal({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
  });

  it('many simultaneous first uses of a window create one counter and lose no count', async () => {
    const bucket = `race:${randomUUID()}`;
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 64 }, () => consumeBudget({ bucket, limit: 30, windowMs: 60_000 }, now)));
    const allowed = results.filter((r) => r.allowed);
    expect(allowed).to.have.length(30);
    expect(allowed.map((r) => r.remaining).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 30 }, (_, i) => i));
    const docs = await RateLimitWindow.find({ bucket }).lean();
    expect(docs).to.have.length(1);
    expect(docs[0].count).to.equal(64);
  });

  it('ended windows are purged', async () => {
    const bucket = `old:${randomUUID()}`;
    await consumeBudget({ bucket, limit: 5, windowMs: 60_000 }, Date.now() - 5 * 60_000);
    await consumeBudget({ bucket, limit: 5, windowMs: 60_000 });
    expect(await RateLimitWindow.countDocuments({ bucket })).to.equal(2);
    await purgeExpiredRateLimitWindows();
    const left = await RateLimitWindow.find({ bucket }).lean();
    expect(left).to.have.length(1);
    expect(left[0].expiresAt.getTime()).to.be.greaterThan(Date.now());
  });
});
