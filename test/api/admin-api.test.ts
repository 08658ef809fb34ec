import { expect } from 'chai';
import { config } from '../../src/config';
import { adminCall, call } from '../helpers/http';
import { randomTrn } from '../helpers/partners';
import { withDevUrls } from '../helpers/dev-urls';

describe('admin API (ADMIN_TOKEN)', () => {
  const admin = () => ({ Authorization: `Bearer ${config().adminToken}` });

  it('creates a partner, connects an SME, and the issued credentials work', async () => {
    const created = await adminCall('POST', '/v1/admin/partners', { headers: admin(), json: { name: 'API ERP', mode: 'test' } });
    expect(created.status).to.equal(201);
    expect(created.body).to.have.all.keys('partnerId', 'erpName', 'mode', 'apiKey', 'apiSecret', 'webhookSecret');
    const sme = await adminCall('POST', `/v1/admin/partners/${created.body.partnerId}/smes`, { headers: admin(), json: { trn: randomTrn(), name: 'SME' } });
    expect(sme.status).to.equal(201);
    expect(sme.body).to.have.all.keys('smeId', 'partnerId', 'trn', 'connectionSecret', 'tradeLicenseNumber', 'address');
    const who = await call('GET', '/v1/partner/whoami', { headers: { 'X-API-Key': created.body.apiKey, 'X-API-Secret': created.body.apiSecret } });
    expect(who.body.connectedSmes).to.equal(1);
    const patched = await adminCall('PATCH', `/v1/admin/partners/${created.body.partnerId}`, { headers: admin(), json: { rateLimitPerMinute: 50 } });
    expect(patched.status).to.equal(200);
    expect(patched.body).to.include({ rateLimitPerMinute: 50 });
    expect(patched.text).not.to.match(/secret|hash/i);
  });

  it('401 without the admin token; 400 with field paths for a bad body; 404 for an unknown partner', async () => {
    const noToken = await adminCall('POST', '/v1/admin/partners', { json: { name: 'x', mode: 'test' } });
    expect(noToken.status).to.equal(401);
    const bad = await adminCall('POST', '/v1/admin/partners', { headers: admin(), json: { name: '', mode: 'prod', extra: 1 } });
    expect(bad.status).to.equal(400);
    expect(bad.body.meta.errors.map((e: { path: string }) => e.path)).to.have.members(['name', 'mode', 'extra']);
    const missing = await adminCall('POST', '/v1/admin/partners/nope/smes', { headers: admin(), json: { trn: randomTrn(), name: 'x' } });
    expect(missing.status).to.equal(404);
  });

  it('webhook URL rules apply on create and update alike (the one rule set of services/admin.ts): https, without the development setting', async () => {
    await withDevUrls(false, async () => {
      const create = await adminCall('POST', '/v1/admin/partners', { headers: admin(), json: { name: 'Live ERP', mode: 'live', webhookUrl: 'http://erp.example.com/h' } });
      expect(create.status).to.equal(400);
      expect(create.body.meta.errors).to.deep.equal([{ code: 'invalid_webhook_url', path: 'webhookUrl', message: create.body.meta.errors[0].message }]);
      const live = await adminCall('POST', '/v1/admin/partners', { headers: admin(), json: { name: 'Live ERP', mode: 'live' } });
      const update = await adminCall('PATCH', `/v1/admin/partners/${live.body.partnerId}`, { headers: admin(), json: { webhookUrl: 'http://erp.example.com/h' } });
      expect([update.status, update.body.meta.errors[0].path]).to.deep.equal([400, 'webhookUrl']);
      const unknown = await adminCall('PATCH', '/v1/admin/partners/nope', { headers: admin(), json: { webhookUrl: 'https://erp.example.com/h' } });
      expect(unknown.status).to.equal(404);
    });
  });

  it('creates and updates a tenant; its credentials get a token; tenant credits top up', async () => {
    const body = { trn: randomTrn(), name: 'Falcon Trading LLC', nameArabic: 'فالكون', mode: 'sandbox', kyb: 'approved', address: { line1: 'Bay Square 3', city: 'Dubai', emirate: 'DXB' } };
    const created = await adminCall('POST', '/v1/admin/tenants', { headers: admin(), json: body });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.have.all.keys('tenantId', 'clientId', 'clientSecret', 'mode', 'webhookSecret');
    const token = await call('POST', '/v1/auth/token', { json: { clientId: created.body.clientId, clientSecret: created.body.clientSecret } });
    expect(token.status).to.equal(200);
    const patched = await adminCall('PATCH', `/v1/admin/tenants/${created.body.tenantId}`, { headers: admin(), json: { mode: 'live', statusUrl: 'https://erp.example.com/status' } });
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body).to.include({ mode: 'live', statusUrl: 'https://erp.example.com/status' });
    expect(patched.text).not.to.match(/secret|hash/i);
    const topped = await adminCall('POST', `/v1/admin/tenants/${created.body.tenantId}/credits`, { headers: admin(), json: { amount: 5 } });
    expect(topped.body).to.deep.equal({ balance: 5 });
    expect((await adminCall('GET', `/v1/admin/tenants/${created.body.tenantId}/credits`, { headers: admin() })).body.balance).to.equal(5);
    const again = await adminCall('POST', '/v1/admin/tenants', { headers: admin(), json: body });
    expect(again.status).to.equal(409);
    expect((await adminCall('PATCH', '/v1/admin/tenants/nope', { headers: admin(), json: { kyb: 'approved' } })).status).to.equal(404);
    const bad = await adminCall('POST', '/v1/admin/tenants', { headers: admin(), json: { trn: '1', mode: 'prod' } });
    expect(bad.body.meta.errors.map((e: { path: string }) => e.path)).to.include.members(['trn', 'name', 'nameArabic', 'mode']);
  });
});
