import { expect } from 'chai';
import { CredentialAudit, Partner, SmeConnection, Tenant } from '../../src/db/models';
import type { AuditActor } from '../../src/services/credential-audit';
import { rotatePartnerSecret, rotateSmeSecret, rotateTenantSecret } from '../../src/services/credential-rotation';
import { revokePartner, revokeSme, revokeTenantSecret } from '../../src/services/credential-revocation';
import { ServiceError } from '../../src/domain/errors';
import { connectSme } from '../../src/services/admin';
import { call } from '../helpers/http';
import { newPartner, type TestPartner } from '../helpers/partners';
import { newTenant, expectTenantError } from '../helpers/tenants';
import { invoiceAt } from '../helpers/webhook-receiver';

// Every rotation and revocation over the real API: the old secret is accepted during the overlap and refused after
// (its stored expiry moved into the past: no waiting on the clock), the new one works at once.

const actor: AuditActor = { kind: 'cli', name: 'credential-test' };
const DAY = 24 * 3600_000;
const past = () => new Date(Date.now() - 1000);

const ping = (key: string, secret: string) => call('GET', '/v1/partner/ping', { headers: { 'X-API-Key': key, 'X-API-Secret': secret } });
const listInvoices = (p: Pick<TestPartner, 'keyHeaders'>, connectionSecret: string) =>
  call('GET', '/v1/partner/invoices', { headers: { ...p.keyHeaders, 'x-erp-partner-secret': connectionSecret } });
const token = (clientId: string, clientSecret: string) => call('POST', '/v1/auth/token', { json: { clientId, clientSecret } });
const tenantList = (accessToken: string) => call('GET', '/v1/invoices', { headers: { Authorization: `Bearer ${accessToken}` } });

describe('credential lifecycle over HTTP (issue 32 point 1)', function () {
  this.timeout(120_000);

  describe('partner API key and secret', () => {
    it('rotation issues a new pair that works at once; the old pair works until previousSecretValidUntil, then gets the wrong-secret 401', async () => {
      const p = await newPartner();
      const before = Date.now();
      const rotated = await rotatePartnerSecret(p.partnerId, { overlapMs: DAY, actor });
      expect(rotated).to.have.all.keys('partnerId', 'apiKey', 'apiSecret', 'previousSecretValidUntil');
      expect(rotated.partnerId).to.equal(p.partnerId);
      expect(rotated.apiKey).to.match(/^erp_test_/).and.not.equal(p.apiKey);
      expect(Date.parse(rotated.previousSecretValidUntil!) - before).to.be.within(DAY - 1000, DAY + 60_000);

      expect((await ping(rotated.apiKey, rotated.apiSecret)).status).to.equal(200);
      expect((await ping(p.apiKey, p.apiSecret)).status, 'old pair during the overlap').to.equal(200);
      // A pair is bound: the old key never works with the new secret, nor the new key with the old one.
      const wrong = await ping(p.apiKey, p.apiSecret + 'x');
      for (const [key, secret] of [[p.apiKey, rotated.apiSecret], [rotated.apiKey, p.apiSecret]]) {
        const res = await ping(key, secret);
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal(wrong.body);
      }

      await Partner.updateOne({ _id: p.partnerId }, { $set: { previousApiSecretValidUntil: past() } });
      const expired = await ping(p.apiKey, p.apiSecret);
      expect(expired.status).to.equal(401);
      expect(expired.body.code).to.equal('invalid_credentials');
      expect(expired.body).to.deep.equal(wrong.body);
      expect((await ping(rotated.apiKey, rotated.apiSecret)).status).to.equal(200);

      const stored = JSON.stringify(await Partner.findById(p.partnerId).lean());
      for (const secret of [p.apiKey, p.apiSecret, rotated.apiKey, rotated.apiSecret]) expect(stored).not.to.contain(secret);
    });

    it('--overlap 0 ends the old pair now; a second rotation during an overlap drops the oldest pair at once', async () => {
      const p = await newPartner();
      const now = await rotatePartnerSecret(p.partnerId, { overlapMs: 0, actor });
      expect(now.previousSecretValidUntil).to.equal(null);
      expect((await ping(p.apiKey, p.apiSecret)).status).to.equal(401);
      expect((await ping(now.apiKey, now.apiSecret)).status).to.equal(200);

      const second = await rotatePartnerSecret(p.partnerId, { overlapMs: DAY, actor });
      const third = await rotatePartnerSecret(p.partnerId, { overlapMs: DAY, actor });
      expect((await ping(now.apiKey, now.apiSecret)).status, 'two rotations back').to.equal(401);
      expect((await ping(second.apiKey, second.apiSecret)).status, 'the previous pair').to.equal(200);
      expect((await ping(third.apiKey, third.apiSecret)).status).to.equal(200);
    });

    it('a revoked partner is refused with either pair (403 partner_inactive), and the revocation is audited', async () => {
      const p = await newPartner();
      const rotated = await rotatePartnerSecret(p.partnerId, { overlapMs: DAY, actor });
      expect(await revokePartner(p.partnerId, actor)).to.deep.equal({ partnerId: p.partnerId, status: 'revoked' });
      for (const [key, secret] of [[p.apiKey, p.apiSecret], [rotated.apiKey, rotated.apiSecret]]) {
        const res = await ping(key, secret);
        expect(res.status).to.equal(403);
        expect(res.body.code).to.equal('partner_inactive');
      }
      await revokePartner(p.partnerId, actor); // already revoked: nothing changes, no second row
      const rows = await CredentialAudit.find({ subjectId: p.partnerId }).sort({ at: 1 }).lean();
      expect(rows.map((r) => r.action)).to.deep.equal(['rotate_secret', 'revoke']);
    });
  });

  describe('SME connection secret', () => {
    it('rotation: the new secret works at once, the old one until its expiry, then 401 invalid_connection_secret', async () => {
      const p = await newPartner();
      const rotated = await rotateSmeSecret(p.sme.smeId, { overlapMs: DAY, actor });
      expect(rotated).to.have.all.keys('smeId', 'connectionSecret', 'previousSecretValidUntil');
      expect(rotated.smeId).to.equal(p.sme.smeId);
      expect((await listInvoices(p, rotated.connectionSecret)).status).to.equal(200);
      expect((await listInvoices(p, p.sme.connectionSecret)).status).to.equal(200);

      await SmeConnection.updateOne({ _id: p.sme.smeId }, { $set: { previousConnectionSecretValidUntil: past() } });
      const expired = await listInvoices(p, p.sme.connectionSecret);
      expect(expired.status).to.equal(401);
      expect(expired.body.code).to.equal('invalid_connection_secret');
      expect((await listInvoices(p, rotated.connectionSecret)).status).to.equal(200);

      const zero = await rotateSmeSecret(p.sme.smeId, { overlapMs: 0, actor });
      expect(zero.previousSecretValidUntil).to.equal(null);
      expect((await listInvoices(p, rotated.connectionSecret)).status, '--overlap 0').to.equal(401);
      expect((await listInvoices(p, zero.connectionSecret)).status).to.equal(200);
    });

    it("another partner cannot use an SME's previous secret", async () => {
      const p = await newPartner();
      const other = await newPartner();
      await rotateSmeSecret(p.sme.smeId, { overlapMs: DAY, actor });
      const res = await listInvoices(other, p.sme.connectionSecret);
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('invalid_connection_secret');
    });

    it('revoke -> 401 connection_revoked; sme:connect on its TRN reissues the same SME: new secret works, old refused, its invoices still listed', async () => {
      const p = await newPartner();
      const invoiceId = await invoiceAt(p, 'delivered');
      const rotated = await rotateSmeSecret(p.sme.smeId, { overlapMs: DAY, actor });
      const revoked = await revokeSme(p.sme.smeId, actor);
      expect(revoked).to.include({ smeId: p.sme.smeId, partnerId: p.partnerId, status: 'revoked' });
      const res = await listInvoices(p, rotated.connectionSecret);
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('connection_revoked');
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(res.body.detail).to.match(/reconnect/);
      // The revocation also ended the previous secret's overlap: it is simply not valid any more.
      expect((await listInvoices(p, p.sme.connectionSecret)).status).to.equal(401);
      // A rotation is not how a revoked connection comes back.
      const refused = await rotateSmeSecret(p.sme.smeId, { overlapMs: DAY, actor }).catch((e) => e);
      expect(refused).to.be.instanceOf(ServiceError).and.include({ code: 'sme_revoked' });

      const reissued = await connectSme({ partnerId: p.partnerId, trn: p.sme.trn, name: 'Renamed LLC' }, actor);
      expect(reissued).to.deep.include({ smeId: p.sme.smeId, partnerId: p.partnerId, trn: p.sme.trn });
      const list = await listInvoices(p, reissued.connectionSecret);
      expect(list.status).to.equal(200);
      expect(list.body.data.map((i: { invoiceId: string }) => i.invoiceId)).to.include(invoiceId);
      for (const secret of [p.sme.connectionSecret, rotated.connectionSecret]) {
        const res = await listInvoices(p, secret);
        expect(res.status, 'secrets of before the revocation').to.equal(401);
        expect(res.body.code).to.equal('invalid_connection_secret');
      }
      const active = await connectSme({ partnerId: p.partnerId, trn: p.sme.trn, name: 'X' }, actor).catch((e) => e);
      expect(active).to.be.instanceOf(ServiceError).and.include({ code: 'sme_already_connected' });
      expect(await SmeConnection.countDocuments({ partnerId: p.partnerId, trn: p.sme.trn })).to.equal(1);
      expect((await SmeConnection.findById(p.sme.smeId).lean())!.legalName).to.equal('Test SME LLC');

      const rows = await CredentialAudit.find({ subjectId: p.sme.smeId }).sort({ at: 1 }).lean();
      expect(rows.map((r) => [r.action, r.subjectType, r.partnerId])).to.deep.equal([
        ['rotate_secret', 'sme', p.partnerId],
        ['revoke', 'sme', p.partnerId],
        ['reissue', 'sme', p.partnerId],
      ]);
    });
  });

  describe('tenant client secret', () => {
    it('rotation: the new secret gets tokens at once; the old secret and its tokens work until its expiry, then 401', async () => {
      const t = await newTenant();
      const rotated = await rotateTenantSecret(t.tenantId, { overlapMs: DAY, actor });
      expect(rotated).to.have.all.keys('tenantId', 'clientId', 'clientSecret', 'previousSecretValidUntil');
      expect(rotated).to.include({ tenantId: t.tenantId, clientId: t.clientId });

      const fresh = await token(t.clientId, rotated.clientSecret);
      expect(fresh.status).to.equal(200);
      const old = await token(t.clientId, t.clientSecret);
      expect(old.status, 'old secret during the overlap').to.equal(200);
      expect((await tenantList(t.token)).status, 'a token of before the rotation').to.equal(200);
      expect((await tenantList(old.body.accessToken)).status).to.equal(200);

      await Tenant.updateOne({ _id: t.tenantId }, { $set: { previousClientSecretValidUntil: past() } });
      const wrong = await token(t.clientId, 'ts_wrong');
      const expired = await token(t.clientId, t.clientSecret);
      expectTenantError(expired, 401, 'missing_authorization_header');
      expect(expired.body).to.deep.equal(wrong.body);
      for (const stale of [t.token, old.body.accessToken]) expectTenantError(await tenantList(stale), 401, 'missing_authorization_header');
      expect((await tenantList(fresh.body.accessToken)).status).to.equal(200);
    });

    it('--overlap 0 refuses the old secret and its tokens at once', async () => {
      const t = await newTenant();
      const rotated = await rotateTenantSecret(t.tenantId, { overlapMs: 0, actor });
      expect(rotated.previousSecretValidUntil).to.equal(null);
      expectTenantError(await token(t.clientId, t.clientSecret), 401, 'missing_authorization_header');
      expectTenantError(await tenantList(t.token), 401, 'missing_authorization_header');
      expect((await token(t.clientId, rotated.clientSecret)).status).to.equal(200);
    });

    it('revoke-secret refuses the secret and every token at once; rotate-secret then reissues (no previous kept)', async () => {
      const t = await newTenant();
      const rotated = await rotateTenantSecret(t.tenantId, { overlapMs: DAY, actor });
      const newer = (await token(t.clientId, rotated.clientSecret)).body.accessToken as string;
      const revoked = await revokeTenantSecret(t.tenantId, actor);
      expect(revoked).to.include({ tenantId: t.tenantId, clientId: t.clientId });
      for (const secret of [t.clientSecret, rotated.clientSecret]) {
        const res = await token(t.clientId, secret);
        expectTenantError(res, 401, 'missing_authorization_header');
      }
      expect((await token(t.clientId, rotated.clientSecret)).body.humanMessage).to.match(/revoked/);
      for (const stale of [t.token, newer]) expectTenantError(await tenantList(stale), 401, 'missing_authorization_header');

      const reissued = await rotateTenantSecret(t.tenantId, { overlapMs: DAY, actor });
      expect(reissued.previousSecretValidUntil, 'a revoked secret never comes back').to.equal(null);
      const again = await token(t.clientId, reissued.clientSecret);
      expect(again.status).to.equal(200);
      expect((await tenantList(again.body.accessToken)).status).to.equal(200);
      expectTenantError(await token(t.clientId, rotated.clientSecret), 401, 'missing_authorization_header');
      expectTenantError(await tenantList(newer), 401, 'missing_authorization_header');

      const rows = await CredentialAudit.find({ subjectId: t.tenantId }).sort({ at: 1 }).lean();
      expect(rows.map((r) => r.action)).to.deep.equal(['rotate_secret', 'revoke', 'reissue']);
    });
  });

  it('audit rows say who, what and when, and never carry a secret or its hash', async () => {
    const p = await newPartner();
    const t = await newTenant();
    const secrets = [p.apiKey, p.apiSecret, p.sme.connectionSecret, p.webhookSecret, t.clientSecret, t.webhookSecret];
    secrets.push(...Object.values(await rotatePartnerSecret(p.partnerId, { overlapMs: DAY, actor })));
    secrets.push(...Object.values(await rotateSmeSecret(p.sme.smeId, { overlapMs: DAY, actor })));
    secrets.push(...Object.values(await rotateTenantSecret(t.tenantId, { overlapMs: DAY, actor })));
    const rows = await CredentialAudit.find({ subjectId: { $in: [p.partnerId, p.sme.smeId, t.tenantId] } }).lean();
    expect(rows).to.have.length(3);
    for (const row of rows) {
      expect(row.actor).to.deep.include({ kind: 'cli', name: 'credential-test' });
      expect(row.at).to.be.instanceOf(Date);
      expect(row.previousSecretValidUntil).to.be.instanceOf(Date);
    }
    const raw = JSON.stringify(rows);
    const stored = JSON.stringify([await Partner.findById(p.partnerId).lean(), await SmeConnection.findById(p.sme.smeId).lean(), await Tenant.findById(t.tenantId).lean()]);
    const hashes = stored.match(/[0-9a-f]{64}/g) ?? [];
    expect(hashes.length).to.be.greaterThan(3);
    for (const s of [...secrets.filter((v): v is string => typeof v === 'string' && /^(erp_|sk_|cs_|ts_|whsec_)/.test(v)), ...hashes]) expect(raw).not.to.contain(s);
    expect(raw).not.to.match(/secret"\s*:\s*"|hash/i);
  });
});
