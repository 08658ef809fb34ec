import { expect } from 'chai';
import { config } from '../../src/config';
import { CredentialAudit } from '../../src/db/models';
import { adminCall, call } from '../helpers/http';
import { newPartner } from '../helpers/partners';
import { newTenant } from '../helpers/tenants';

// The admin API's credential routes: the same services as the CLI, with the request as the audit log's actor.

const admin = () => ({ Authorization: `Bearer ${config().adminToken}` });
const post = (path: string, json?: unknown, headers: Record<string, string> = {}) => adminCall('POST', path, { headers: { ...admin(), ...headers }, json });
const HOUR = 3600_000;

describe('admin API: credential rotation and revocation', () => {
  it('rotates a partner pair (default 24h) and webhook secret, with no-store answers; the request is the audit actor', async () => {
    const p = await newPartner();
    const res = await post(`/v1/admin/partners/${p.partnerId}/rotate-secret`, undefined, { 'X-Request-Id': 'rotate-req-1' });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.have.all.keys('partnerId', 'apiKey', 'apiSecret', 'previousSecretValidUntil');
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(Date.parse(res.body.previousSecretValidUntil) - Date.now()).to.be.within(24 * HOUR - 60_000, 24 * HOUR + 1000);
    for (const [key, secret] of [[res.body.apiKey, res.body.apiSecret], [p.apiKey, p.apiSecret]]) {
      expect((await call('GET', '/v1/partner/ping', { headers: { 'X-API-Key': key, 'X-API-Secret': secret } })).status).to.equal(200);
    }

    const hook = await post(`/v1/admin/partners/${p.partnerId}/rotate-webhook-secret`, { overlap: '0' });
    expect(hook.status).to.equal(200);
    expect(hook.body).to.deep.equal({ webhookSecret: hook.body.webhookSecret, previousSecretValidUntil: null });

    const row = await CredentialAudit.findOne({ subjectId: p.partnerId, action: 'rotate_secret' }).lean();
    expect(row!.actor).to.deep.include({ kind: 'admin-api', name: 'request:rotate-req-1' });
    expect(row!.actor!.address).to.be.a('string').and.not.equal('');
  });

  it('SME: rotate, revoke (401 connection_revoked), reconnect the TRN to reissue the same SME (201)', async () => {
    const p = await newPartner();
    const rotated = await post(`/v1/admin/smes/${p.sme.smeId}/rotate-secret`, { overlap: '30m' });
    expect(rotated.status).to.equal(200);
    expect(rotated.body).to.have.all.keys('smeId', 'connectionSecret', 'previousSecretValidUntil');
    const revoked = await post(`/v1/admin/smes/${p.sme.smeId}/revoke`);
    expect(revoked.status).to.equal(200);
    expect(revoked.body).to.include({ smeId: p.sme.smeId, status: 'revoked' });
    const refused = await call('GET', '/v1/partner/invoices', { headers: { ...p.keyHeaders, 'x-erp-partner-secret': rotated.body.connectionSecret } });
    expect([refused.status, refused.body.code]).to.deep.equal([401, 'connection_revoked']);
    const notRotatable = await post(`/v1/admin/smes/${p.sme.smeId}/rotate-secret`);
    expect([notRotatable.status, notRotatable.body.code]).to.deep.equal([409, 'sme_revoked']);

    const reissued = await post(`/v1/admin/partners/${p.partnerId}/smes`, { trn: p.sme.trn, name: 'Gulf Foods LLC' });
    expect(reissued.status).to.equal(201);
    expect(reissued.body).to.include({ smeId: p.sme.smeId, trn: p.sme.trn });
    const ok = await call('GET', '/v1/partner/invoices', { headers: { ...p.keyHeaders, 'x-erp-partner-secret': reissued.body.connectionSecret } });
    expect(ok.status).to.equal(200);
  });

  it('tenant: rotate-secret, rotate-webhook-secret, revoke-secret', async () => {
    const t = await newTenant();
    const rotated = await post(`/v1/admin/tenants/${t.tenantId}/rotate-secret`, { overlap: '7d' });
    expect(rotated.status).to.equal(200);
    expect(rotated.body).to.have.all.keys('tenantId', 'clientId', 'clientSecret', 'previousSecretValidUntil');
    expect((await post(`/v1/admin/tenants/${t.tenantId}/rotate-webhook-secret`)).body).to.have.all.keys('webhookSecret', 'previousSecretValidUntil');
    const revoked = await post(`/v1/admin/tenants/${t.tenantId}/revoke-secret`);
    expect(revoked.status).to.equal(200);
    expect((await call('GET', '/v1/invoices', { headers: t.headers })).status).to.equal(401);
  });

  it('refusals name the field and the rule: a bad overlap is 400 on overlap, an unknown subject 404, a partner revoked', async () => {
    const p = await newPartner();
    for (const overlap of ['1w', '31d', 24]) {
      const res = await post(`/v1/admin/partners/${p.partnerId}/rotate-secret`, { overlap });
      expect(res.status, String(overlap)).to.equal(400);
      expect(res.body.meta.errors[0].path).to.equal('overlap');
      expect(res.body.meta.errors[0].message).to.match(/overlap/);
    }
    const extra = await post(`/v1/admin/partners/${p.partnerId}/rotate-secret`, { overlap: '1h', apiKey: 'mine' });
    expect(extra.body.meta.errors.map((e: { path: string }) => e.path)).to.deep.equal(['apiKey']);
    for (const path of ['/v1/admin/partners/nope/rotate-secret', '/v1/admin/smes/nope/revoke', '/v1/admin/tenants/nope/rotate-webhook-secret', '/v1/admin/tenants/nope/revoke-secret']) {
      expect((await post(path)).status, path).to.equal(404);
    }
    const revoked = await post(`/v1/admin/partners/${p.partnerId}/revoke`);
    expect(revoked.body).to.deep.equal({ partnerId: p.partnerId, status: 'revoked' });
    const ping = await call('GET', '/v1/partner/ping', { headers: p.keyHeaders });
    expect([ping.status, ping.body.code]).to.deep.equal([403, 'partner_inactive']);
    expect(await CredentialAudit.countDocuments({ subjectId: p.partnerId, action: 'revoke' })).to.equal(1);
  });
});
