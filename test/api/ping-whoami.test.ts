import { expect } from 'chai';
import { connectSme } from '../../src/services/admin';
import { call } from '../helpers/http';
import { newPartner, randomTrn } from '../helpers/partners';

describe('GET /v1/partner/ping and /whoami', () => {
  it('ping answers ok, mode and a timestamp with key and secret only', async () => {
    const p = await newPartner();
    const before = Date.now();
    const res = await call('GET', '/v1/partner/ping', { headers: p.keyHeaders });
    expect(res.status).to.equal(200);
    expect(res.body).to.have.all.keys('ok', 'mode', 'timestamp');
    expect(res.body.ok).to.equal(true);
    expect(res.body.mode).to.equal('test');
    expect(Date.parse(res.body.timestamp)).to.be.at.least(before - 1000);
  });

  it('ping reports live mode for a live partner', async () => {
    const p = await newPartner({ mode: 'live' });
    const res = await call('GET', '/v1/partner/ping', { headers: p.keyHeaders });
    expect(res.body.mode).to.equal('live');
  });

  it('whoami returns the WhoamiResponse fields and counts connected SMEs', async () => {
    const p = await newPartner();
    let res = await call('GET', '/v1/partner/whoami', { headers: p.keyHeaders });
    expect(res.status).to.equal(200);
    expect(res.body).to.have.all.keys('partnerId', 'erpName', 'status', 'mode', 'connectedSmes', 'lastTestAt', 'timestamp');
    expect(res.body).to.include({ partnerId: p.partnerId, erpName: p.erpName, status: 'test', mode: 'test', connectedSmes: 1, lastTestAt: null });
    await connectSme({ partnerId: p.partnerId, trn: randomTrn(), name: 'Second SME' });
    res = await call('GET', '/v1/partner/whoami', { headers: p.keyHeaders });
    expect(res.body.connectedSmes).to.equal(2);
  });

  it('whoami of a new live partner is live_pending', async () => {
    const p = await newPartner({ mode: 'live' });
    const res = await call('GET', '/v1/partner/whoami', { headers: p.keyHeaders });
    expect(res.body).to.include({ status: 'live_pending', mode: 'live' });
  });
});
