import { expect } from 'chai';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import { Partner, SmeConnection } from '../../src/db/models';
import { sha256Hex } from '../../src/credentials/secrets';
import { problemErrors } from '../../src/http/problem-errors';
import { partnerAuth, smeAuth } from '../../src/http/partner-auth';
import { call } from '../helpers/http';
import { newPartner } from '../helpers/partners';

describe('Partner authentication (SPEC 5.1)', () => {
  describe('API key and secret', () => {
    it('401 missing_credentials without X-API-Key or X-API-Secret', async () => {
      const p = await newPartner();
      const partial: Record<string, string>[] = [{}, { 'X-API-Key': p.apiKey }, { 'X-API-Secret': p.apiSecret }];
      for (const headers of partial) {
        const res = await call('GET', '/v1/partner/ping', { headers });
        expect(res.status).to.equal(401);
        expect(res.body.code).to.equal('missing_credentials');
        expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      }
    });

    it('401 invalid_credentials for an unknown key or a wrong secret, with the same answer', async () => {
      const p = await newPartner();
      const unknownKey = await call('GET', '/v1/partner/ping', { headers: { 'X-API-Key': 'erp_test_nope', 'X-API-Secret': p.apiSecret } });
      const wrongSecret = await call('GET', '/v1/partner/ping', { headers: { 'X-API-Key': p.apiKey, 'X-API-Secret': p.apiSecret + 'x' } });
      expect(unknownKey.status).to.equal(401);
      expect(wrongSecret.status).to.equal(401);
      expect(unknownKey.body.code).to.equal('invalid_credentials');
      expect(wrongSecret.body).to.deep.equal(unknownKey.body);
    });

    it('stores only SHA-256 hashes of the key and secret', async () => {
      const p = await newPartner();
      const stored = await Partner.findById(p.partnerId).lean();
      const raw = JSON.stringify(stored);
      expect(raw).not.to.contain(p.apiKey);
      expect(raw).not.to.contain(p.apiSecret);
      expect(stored!.apiKeyHash).to.equal(sha256Hex(p.apiKey));
      expect(stored!.apiSecretHash).to.equal(sha256Hex(p.apiSecret));
    });

    it('403 partner_inactive for a revoked partner', async () => {
      const p = await newPartner();
      await Partner.updateOne({ _id: p.partnerId }, { $set: { status: 'revoked' } });
      const res = await call('GET', '/v1/partner/whoami', { headers: p.keyHeaders });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('partner_inactive');
    });

    it('403 key_mode_mismatch when a test key is used on a live account', async () => {
      const p = await newPartner({ mode: 'live' });
      const testKey = 'erp_test_' + p.apiKey.slice('erp_live_'.length);
      await Partner.updateOne({ _id: p.partnerId }, { $set: { apiKeyHash: sha256Hex(testKey) } });
      const res = await call('GET', '/v1/partner/ping', { headers: { 'X-API-Key': testKey, 'X-API-Secret': p.apiSecret } });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('key_mode_mismatch');
    });
  });

  describe('connection secret (x-erp-partner-secret)', () => {
    // An SME-scoped route on the real middleware chain, so these rules are tested apart from any resource.
    let base: string;
    before(async () => {
      const app = new Koa();
      const router = new Router();
      router.get('/scoped', partnerAuth(), smeAuth(), (ctx) => {
        ctx.body = { smeId: ctx.state.sme._id };
      });
      app.use(problemErrors()).use(router.routes());
      const server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    const get = async (headers: Record<string, string>) => {
      const res = await fetch(`${base}/scoped`, { headers });
      return { status: res.status, body: (await res.json()) as any };
    };

    it('resolves the SME connected to this partner', async () => {
      const p = await newPartner();
      const res = await get(p.headers);
      expect(res.status).to.equal(200);
      expect(res.body.smeId).to.equal(p.sme.smeId);
    });

    it('401 missing_connection_secret without the header', async () => {
      const p = await newPartner();
      const res = await get(p.keyHeaders);
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('missing_connection_secret');
    });

    it("401 invalid_connection_secret for a wrong secret or another partner's SME", async () => {
      const p = await newPartner();
      const other = await newPartner();
      for (const secret of ['cs_wrong', other.sme.connectionSecret]) {
        const res = await get({ ...p.keyHeaders, 'x-erp-partner-secret': secret });
        expect(res.status).to.equal(401);
        expect(res.body.code).to.equal('invalid_connection_secret');
      }
    });

    it('401 connection_revoked for a revoked SME connection (the secret no longer authenticates; issue 32)', async () => {
      const p = await newPartner();
      await SmeConnection.updateOne({ _id: p.sme.smeId }, { $set: { status: 'revoked' } });
      const res = await get(p.headers);
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('connection_revoked');
    });
  });
});
