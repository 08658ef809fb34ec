import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { verifyWebhook } from '../../src';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS } from '../../src/config';
import { lastEventOf, stampOf, statusChangedBody } from '../../src/webhooks/event';
import { signatureHeaders } from '../../src/webhooks/sign';
import { forbiddenAddressReason } from '../../src/webhooks/url-policy';

const secret = 'whsec_test_secret';
const now = Date.UTC(2026, 10, 1, 8, 30, 15, 678);

function signed(body = statusChangedBody({ partnerId: 'p-1', invoiceId: 'i-1', status: 'delivered', reason: null }, stampOf(now).timestamp)) {
  const { t } = stampOf(now);
  const headers = signatureHeaders(secret, t, body);
  return { body, t, headers: { 'x-webhook-signature': headers['X-Webhook-Signature'], 'x-webhook-timestamp': headers['X-Webhook-Timestamp'] } };
}

describe('webhook signatures (SPEC 6.1)', () => {
  it('signs t.rawBody with HMAC-SHA256 and puts the same t in the payload timestamp, at seconds precision', () => {
    const { body, t, headers } = signed();
    const independent = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(headers['x-webhook-signature']).to.equal(`t=${t},v1=${independent}`);
    expect(headers['x-webhook-timestamp']).to.equal(String(t));
    const event = JSON.parse(body);
    expect(event).to.deep.equal({ event: 'invoice.status_changed', erpPartnerId: 'p-1', invoiceId: 'i-1', status: 'delivered', reason: null, timestamp: '2026-11-01T08:30:15Z' });
    expect(Date.parse(event.timestamp) / 1000).to.equal(t);
    expect(Object.keys(signatureHeaders(secret, t, body)).map((h) => h.toLowerCase())).to.not.include('x-webhook-secret');
  });

  it('verifyWebhook accepts an authentic request (string or Buffer body) and returns the parsed event', () => {
    const { body, headers } = signed();
    const ok = verifyWebhook(body, headers, secret, { now });
    expect(ok).to.deep.equal({ ok: true, event: JSON.parse(body) });
    expect(verifyWebhook(Buffer.from(body), { 'X-Webhook-Signature': headers['x-webhook-signature'], 'X-Webhook-Timestamp': [headers['x-webhook-timestamp']] }, secret, { now: new Date(now) }).ok).to.equal(true);
  });

  it('rejects missing headers, a stale or future t, a wrong secret, a tampered body and mismatched timestamps', () => {
    const { body, headers, t } = signed();
    const reason = (r: ReturnType<typeof verifyWebhook>) => (r.ok ? 'ok' : r.reason);
    expect(reason(verifyWebhook(body, { 'x-webhook-timestamp': headers['x-webhook-timestamp'] }, secret, { now }))).to.match(/missing X-Webhook-Signature/);
    expect(reason(verifyWebhook(body, { 'x-webhook-signature': headers['x-webhook-signature'] }, secret, { now }))).to.match(/missing X-Webhook-Timestamp/);
    expect(reason(verifyWebhook(body, headers, secret, { now: now + 301_000 }))).to.match(/tolerance/);
    expect(reason(verifyWebhook(body, headers, secret, { now: now - 301_000 }))).to.match(/tolerance/);
    expect(verifyWebhook(body, headers, secret, { now: now + 299_000 }).ok).to.equal(true);
    expect(reason(verifyWebhook(body, headers, secret, { now: now + 61_000, toleranceSeconds: 60 }))).to.match(/60 s tolerance/);
    expect(reason(verifyWebhook(body, headers, 'whsec_other', { now }))).to.equal('signature mismatch');
    expect(reason(verifyWebhook(body.replace('delivered', 'rejected'), headers, secret, { now }))).to.equal('signature mismatch');
    expect(reason(verifyWebhook(body, { ...headers, 'x-webhook-timestamp': String(t + 1) }, secret, { now }))).to.match(/does not match/);
    expect(reason(verifyWebhook(body, { ...headers, 'x-webhook-signature': 'v1=abc' }, secret, { now }))).to.match(/malformed/);
  });

  it('checks the signature before parsing: an authentic non-JSON body is reported, a forged one never parsed', () => {
    const raw = 'not json';
    const { t } = stampOf(now);
    const h = signatureHeaders(secret, t, raw);
    expect(verifyWebhook(raw, h, secret, { now })).to.deep.equal({ ok: false, reason: 'body is not valid JSON' });
    expect(verifyWebhook(raw, h, 'whsec_other', { now })).to.deep.equal({ ok: false, reason: 'signature mismatch' });
  });

  it('reason is kept only for rejections; acknowledged collapses into delivered; after a retry the last event stands', () => {
    expect(JSON.parse(statusChangedBody({ partnerId: 'p', invoiceId: 'i', status: 'delivered', reason: 'x' }, 't')).reason).to.equal(null);
    expect(lastEventOf({ status: 'acknowledged', history: [] })).to.deep.equal({ status: 'delivered', reason: null });
    expect(lastEventOf({ status: 'rejected', reason: 'buyer_trn_invalid' })).to.deep.equal({ status: 'rejected', reason: 'buyer_trn_invalid' });
    expect(lastEventOf({ status: 'queued', history: [{ status: 'queued' }, { status: 'rejected', reason: 'no' }, { status: 'queued' }] })).to.deep.equal({ status: 'rejected', reason: 'no' });
    expect(lastEventOf({ status: 'validated', history: [{ status: 'queued' }, { status: 'validated' }] })).to.equal(null);
  });

  it('the default retry schedule is 30 s, 2 m, 10 m, 30 m, 1 h, 3 h', () => {
    expect(DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS).to.deep.equal([30, 120, 600, 1800, 3600, 10800].map((s) => s * 1000));
  });
});

describe('webhook URL policy', () => {
  it('refuses non-public addresses, IPv4 and IPv6 (incl. IPv4-mapped)', () => {
    const blocked: [string, string][] = [
      ['127.0.0.1', 'loopback'], ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link-local'], ['0.0.0.0', 'unspecified'], ['100.64.0.1', 'shared (carrier-grade NAT)'], ['224.0.0.1', 'multicast'],
      ['::1', 'loopback'], ['::', 'unspecified'], ['fe80::1', 'link-local'], ['fd12:3456::1', 'unique-local'], ['fc00::1', 'unique-local'],
      ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['::ffff:10.0.0.1', 'private'], ['0:0:0:0:0:ffff:a9fe:a9fe', 'link-local'],
      ['64:ff9b::a00:1', 'private'], ['2002:c0a8:101::1', 'private'], ['ff02::1', 'multicast'],
    ];
    for (const [ip, why] of blocked) expect(forbiddenAddressReason(ip), ip).to.equal(why);
    for (const ip of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(forbiddenAddressReason(ip), ip).to.equal(null);
  });

  // The URL policy itself (every mode, with and without the development setting): test/unit/url-policy.test.ts.
});
