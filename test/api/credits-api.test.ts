import { expect } from 'chai';
import { config } from '../../src/config';
import { spend } from '../../src/services/credits';
import { adminCall, call } from '../helpers/http';
import { newPartner } from '../helpers/partners';

const admin = () => ({ Authorization: `Bearer ${config().adminToken}` });

describe('credits over HTTP: admin top-up and balance, GET /v1/partner/credits', () => {
  it('POST /v1/admin/smes/{smeId}/credits answers {balance}; GET shows balance and entries, newest first', async () => {
    const p = await newPartner({ mode: 'live' });
    const path = `/v1/admin/smes/${p.sme.smeId}/credits`;
    const first = await adminCall('POST', path, { headers: admin(), json: { amount: 10 } });
    expect([first.status, first.body]).to.deep.equal([200, { balance: 10 }]);
    expect((await adminCall('POST', path, { headers: admin(), json: { amount: 5 } })).body).to.deep.equal({ balance: 15 });
    const got = await adminCall('GET', path, { headers: admin() });
    expect(got.status).to.equal(200);
    expect(got.body.balance).to.equal(15);
    expect(got.body.entries.map((e: any) => [e.kind, e.amount, e.balanceAfter])).to.deep.equal([
      ['topup', 5, 15],
      ['topup', 10, 10],
    ]);
    expect(got.body.entries[0]).to.have.all.keys('kind', 'amount', 'balanceAfter', 'invoiceId', 'run', 'at');
  });

  it('the Partner sees its own SME only: balance and recent ledger entries (top-ups and spends), limit honoured', async () => {
    const p = await newPartner({ mode: 'live' });
    const other = await newPartner({ mode: 'live' });
    await adminCall('POST', `/v1/admin/smes/${p.sme.smeId}/credits`, { headers: admin(), json: { amount: 3 } });
    await adminCall('POST', `/v1/admin/smes/${other.sme.smeId}/credits`, { headers: admin(), json: { amount: 7 } });
    await spend({ kind: 'sme', id: p.sme.smeId }, { invoiceId: 'inv-1', run: 1 });

    const mine = await call('GET', '/v1/partner/credits', { headers: p.headers });
    expect(mine.status).to.equal(200);
    expect(mine.body.balance).to.equal(2);
    expect(mine.body.entries.map((e: any) => [e.kind, e.amount, e.balanceAfter, e.invoiceId, e.run])).to.deep.equal([
      ['spend', 1, 2, 'inv-1', 1],
      ['topup', 3, 3, null, null],
    ]);
    const limited = await call('GET', '/v1/partner/credits?limit=1', { headers: p.headers });
    expect(limited.body.entries).to.have.length(1);
    expect((await call('GET', '/v1/partner/credits', { headers: other.headers })).body.balance).to.equal(7);

    const badLimit = await call('GET', '/v1/partner/credits?limit=0', { headers: p.headers });
    expect([badLimit.status, badLimit.body.meta.errors[0].path]).to.deep.equal([400, 'limit']);
    expect((await call('GET', '/v1/partner/credits', { headers: p.keyHeaders })).status).to.equal(401);
  });

  it('refusals name the field: amount missing, a string, zero, fractional; unknown SME 404; no token 401', async () => {
    const p = await newPartner({ mode: 'live' });
    const path = `/v1/admin/smes/${p.sme.smeId}/credits`;
    for (const json of [{}, { amount: '10' }, { amount: 0 }, { amount: 1.5 }, { amount: 10, extra: 1 }]) {
      const res = await adminCall('POST', path, { headers: admin(), json });
      expect(res.status, JSON.stringify(json)).to.equal(400);
      expect(res.body.code).to.equal('validation_failed');
      expect(res.body.meta.errors.map((e: any) => e.path)).to.satisfy((paths: string[]) => paths.includes('amount') || paths.includes('extra'));
    }
    const asString = await adminCall('POST', path, { headers: admin(), json: { amount: '10' } });
    expect(asString.body.meta.errors[0].message).to.contain('a JSON number (100, not "100")');
    const unknown = await adminCall('POST', '/v1/admin/smes/no-such-sme/credits', { headers: admin(), json: { amount: 1 } });
    expect([unknown.status, unknown.body.code]).to.deep.equal([404, 'not_found']);
    expect(unknown.body.detail).to.contain('sme:connect');
    expect((await adminCall('GET', '/v1/admin/smes/no-such-sme/credits', { headers: admin() })).status).to.equal(404);
    expect((await adminCall('POST', path, { json: { amount: 1 } })).status).to.equal(401);
    expect((await adminCall('GET', path, { headers: admin() })).body.balance).to.equal(0);
  });
});
