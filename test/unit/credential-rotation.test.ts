import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { verifyWebhook } from '../../src';
import { MAX_OVERLAP_MS, parseOverlap, previousValidUntil } from '../../src/credentials/overlap';
import { matchRotating, signingSecrets, tokenGenerationLive } from '../../src/credentials/rotation';
import { sha256Hex } from '../../src/credentials/secrets';
import { signatureHeaders } from '../../src/webhooks/sign';

const now = new Date(Date.UTC(2026, 10, 1, 8, 30, 15));
const later = (ms: number) => new Date(now.getTime() + ms);

describe('credential rotation, the pure parts', () => {
  it('parses overlaps: 0, s, m, h, d; refuses the rest with a sentence naming what to send', () => {
    expect(parseOverlap('0')).to.deep.equal({ ms: 0 });
    expect(parseOverlap('90s')).to.deep.equal({ ms: 90_000 });
    expect(parseOverlap('30m')).to.deep.equal({ ms: 30 * 60_000 });
    expect(parseOverlap(' 24h ')).to.deep.equal({ ms: 24 * 3600_000 });
    expect(parseOverlap('7d')).to.deep.equal({ ms: 7 * 24 * 3600_000 });
    expect(parseOverlap('30d')).to.deep.equal({ ms: MAX_OVERLAP_MS });
    for (const bad of ['', '24', '1.5h', '-1h', '0h1', '24H', '1w', 'forever', '00', '05m']) {
      const parsed = parseOverlap(bad);
      expect(parsed, bad).to.have.property('problem').that.matches(/overlap must be 0 or a whole number .* \(e\.g\. 30m, 24h, 7d\)/);
    }
    expect(parseOverlap('31d')).to.deep.equal({ problem: 'overlap may be at most 30d, got "31d"' });
  });

  it('an overlap of 0 keeps no previous secret; otherwise it ends overlap after now', () => {
    expect(previousValidUntil(now, 0)).to.equal(null);
    expect(previousValidUntil(now, 60_000)!.toISOString()).to.equal('2026-11-01T08:31:15.000Z');
  });

  it('matches the current secret always, the previous one only before its expiry, nothing else', () => {
    const stored = { hash: sha256Hex('new'), previousHash: sha256Hex('old'), previousValidUntil: later(1000) };
    expect(matchRotating('new', stored, now)).to.equal('current');
    expect(matchRotating('old', stored, now)).to.equal('previous');
    expect(matchRotating('other', stored, now)).to.equal(null);
    expect(matchRotating('old', { ...stored, previousValidUntil: now }, now), 'the expiry itself is outside').to.equal(null);
    expect(matchRotating('old', { ...stored, previousValidUntil: later(-1) }, now)).to.equal(null);
    expect(matchRotating('new', { ...stored, previousValidUntil: later(-1) }, now)).to.equal('current');
    expect(matchRotating('old', { hash: sha256Hex('new') }, now)).to.equal(null);
  });

  it('signs webhooks with the previous secret only during its overlap, the current one first', () => {
    expect(signingSecrets('whsec_new', 'whsec_old', later(1), now)).to.deep.equal(['whsec_new', 'whsec_old']);
    expect(signingSecrets('whsec_new', 'whsec_old', later(-1), now)).to.deep.equal(['whsec_new']);
    expect(signingSecrets('whsec_new', null, null, now)).to.deep.equal(['whsec_new']);
  });

  it('a tenant token lives with the secret generation that got it', () => {
    expect(tokenGenerationLive(3, 3, null, now)).to.equal(true);
    expect(tokenGenerationLive(2, 3, later(1), now)).to.equal(true);
    expect(tokenGenerationLive(2, 3, later(-1), now)).to.equal(false);
    expect(tokenGenerationLive(2, 3, null, now)).to.equal(false);
    expect(tokenGenerationLive(1, 3, later(1), now), 'two rotations back').to.equal(false);
    expect(tokenGenerationLive(0, 0, null, now), 'tokens and tenants from before rotation existed').to.equal(true);
  });
});

describe('webhook signatures during a secret roll (several v1 values)', () => {
  const body = '{"event":"invoice.status_changed","invoiceId":"i-1"}';
  const t = Math.floor(now.getTime() / 1000);
  const hmac = (secret: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  const headersOf = (h: Record<string, string>) => ({ 'x-webhook-signature': h['X-Webhook-Signature'], 'x-webhook-timestamp': h['X-Webhook-Timestamp'] });

  it('signatureHeaders with [new, old] gives t=…,v1=<new>,v1=<old>; a single secret still gives one v1', () => {
    expect(signatureHeaders(['whsec_new', 'whsec_old'], t, body)['X-Webhook-Signature']).to.equal(`t=${t},v1=${hmac('whsec_new')},v1=${hmac('whsec_old')}`);
    expect(signatureHeaders('whsec_new', t, body)['X-Webhook-Signature']).to.equal(`t=${t},v1=${hmac('whsec_new')}`);
    expect(signatureHeaders(['whsec_new'], t, body)['X-Webhook-Signature']).to.equal(`t=${t},v1=${hmac('whsec_new')}`);
  });

  it('verifyWebhook accepts either secret of a rolled header, in any order, and refuses a third', () => {
    const rolled = headersOf(signatureHeaders(['whsec_new', 'whsec_old'], t, body));
    const reversed = { ...rolled, 'x-webhook-signature': `t=${t},v1=${hmac('whsec_old')},v1=${hmac('whsec_new')}` };
    for (const headers of [rolled, reversed]) {
      for (const secret of ['whsec_new', 'whsec_old']) expect(verifyWebhook(body, headers, secret, { now }).ok, secret).to.equal(true);
      expect(verifyWebhook(body, headers, 'whsec_other', { now })).to.deep.equal({ ok: false, reason: 'signature mismatch' });
    }
  });

  it('a malformed v1 among good ones is skipped; a header of only malformed v1 values is refused as malformed', () => {
    const mixed = { 'x-webhook-signature': `t=${t},v1=zz,v1=${hmac('whsec_new')}`, 'x-webhook-timestamp': String(t) };
    expect(verifyWebhook(body, mixed, 'whsec_new', { now }).ok).to.equal(true);
    const none = { 'x-webhook-signature': `t=${t},v1=zz,v1=12`, 'x-webhook-timestamp': String(t) };
    expect(verifyWebhook(body, none, 'whsec_new', { now })).to.have.property('reason').that.matches(/malformed/);
  });
});
