import { expect } from 'chai';
import { TrnCache } from '../../src/db/models';
import { connectSme } from '../../src/services/admin';
import { purgeExpiredTrnCache } from '../../src/services/trn-validation';
import { call } from '../helpers/http';
import { newPartner, randomTrn } from '../helpers/partners';

const validate = (headers: Record<string, string>, trn: string) => call('GET', `/v1/partner/validate-trn?trn=${encodeURIComponent(trn)}`, { headers });

describe('GET /v1/partner/validate-trn (SPEC 4.1, 8)', () => {
  it('verified with the legal name for the TRN of a connected SME, with key and secret only', async () => {
    const p = await newPartner();
    const res = await validate(p.keyHeaders, p.sme.trn);
    expect(res.status).to.equal(200);
    expect(res.body).to.have.all.keys('trn', 'status', 'legalName', 'cachedAt');
    expect(res.body).to.include({ trn: p.sme.trn, status: 'verified', legalName: 'Test SME LLC' });
    expect(new Date(res.body.cachedAt).toISOString()).to.equal(res.body.cachedAt);
  });

  it('not scoped to an SME: another partner sees the same answer; the connection secret is not needed but harmless', async () => {
    const p = await newPartner();
    const other = await newPartner();
    const mine = await validate(p.headers, p.sme.trn);
    const theirs = await validate(other.keyHeaders, p.sme.trn);
    expect(theirs.status).to.equal(200);
    expect(theirs.body).to.deep.equal(mine.body);
  });

  it('pending for a well-formed UAE TRN nobody has confirmed', async () => {
    const p = await newPartner();
    const res = await validate(p.keyHeaders, randomTrn());
    expect(res.status).to.equal(200);
    expect(res.body).to.have.all.keys('trn', 'status', 'cachedAt');
    expect(res.body.status).to.equal('pending');
  });

  it('rejected with a reason for 15 digits that cannot be a UAE VAT TRN (ibr-132-ae)', async () => {
    const p = await newPartner();
    for (const trn of ['200000000000003', '123456789012345']) {
      const res = await validate(p.keyHeaders, trn);
      expect(res.status).to.equal(200);
      expect(res.body).to.have.all.keys('trn', 'status', 'reason', 'cachedAt');
      expect(res.body.status).to.equal('rejected');
      expect(res.body.reason).to.match(/starts with 1|ends with 03/);
    }
  });

  it('test mode: reserved 100000000000000 is verified, 100000000000666 is rejected', async () => {
    const p = await newPartner();
    const ok = await validate(p.keyHeaders, '100000000000000');
    expect(ok.body).to.include({ status: 'verified' });
    expect(ok.body.legalName).to.be.a('string').and.not.empty;
    const bad = await validate(p.keyHeaders, '100000000000666');
    expect(bad.body).to.include({ status: 'rejected' });
    expect(bad.body.reason).to.be.a('string').and.not.empty;
  });

  it('live mode ignores the reserved test TRNs (and its cache is separate from test mode)', async () => {
    const live = await newPartner({ mode: 'live' });
    const res = await validate(live.keyHeaders, '100000000000000');
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('rejected'); // does not end with 03
  });

  it('caches answers 24 hours: the second call returns the same cachedAt, even after the registry changed', async () => {
    const p = await newPartner();
    const trn = randomTrn();
    const first = await validate(p.keyHeaders, trn);
    expect(first.body.status).to.equal('pending');
    await connectSme({ partnerId: p.partnerId, trn, name: 'Now Registered LLC' });
    await new Promise((r) => setTimeout(r, 20));
    const second = await validate(p.keyHeaders, trn);
    expect(second.body).to.deep.equal(first.body);
    const entry = await TrnCache.findOne({ trn }).lean();
    expect(entry!.expiresAt.getTime() - entry!.cachedAt.getTime()).to.equal(24 * 3600_000);

    // Once expired the entry counts as absent: a fresh lookup with a new cachedAt; the purge removes old entries.
    await TrnCache.updateOne({ trn }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const third = await validate(p.keyHeaders, trn);
    expect(third.body).to.include({ status: 'verified', legalName: 'Now Registered LLC' });
    expect(Date.parse(third.body.cachedAt)).to.be.greaterThan(Date.parse(first.body.cachedAt));

    const stale = randomTrn();
    await validate(p.keyHeaders, stale);
    await TrnCache.updateOne({ trn: stale }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await purgeExpiredTrnCache()).to.be.at.least(1);
    expect(await TrnCache.countDocuments({ trn: stale })).to.equal(0);
    expect(await TrnCache.countDocuments({ trn })).to.equal(1);
  });

  it('concurrent first lookups agree on one cachedAt', async () => {
    const p = await newPartner();
    const trn = randomTrn();
    const results = await Promise.all(Array.from({ length: 5 }, () => validate(p.keyHeaders, trn)));
    expect(new Set(results.map((r) => r.body.cachedAt)).size).to.equal(1);
  });

  it('400 validation_failed (InvalidQuery) with path trn for a malformed or missing TRN', async () => {
    const p = await newPartner();
    for (const query of ['?trn=12345', '?trn=1000000000000000', '?trn=10000000000000A', '?trn=', '', '?trn=100000000000000&trn=100000000000000']) {
      const res = await call('GET', `/v1/partner/validate-trn${query}`, { headers: p.keyHeaders });
      expect(res.status, query).to.equal(400);
      expect(res.body.code).to.equal('validation_failed');
      expect(res.body.detail).to.match(/InvalidQuery/);
      expect(res.body.meta.errors.map((e: { path: string }) => e.path)).to.deep.equal(['trn']);
    }
  });

  it('401 without the key and secret', async () => {
    const res = await call('GET', '/v1/partner/validate-trn?trn=100000000000000');
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal('missing_credentials');
  });
});
