// Issue 35 case 8 from the operator's side: `einvoice admin sme:connect` takes the SME's trade licence and address,
// as tenant:create does, and the Partner API then fills the SME's party from them.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { SmeConnection } from '../../src/db/models';
import { uaeToday } from '../../src/domain/submission-rules';
import { einvoice } from '../helpers/cli';
import { call } from '../helpers/http';
import { randomTrn } from '../helpers/partners';

describe('einvoice admin sme:connect with the SME registration (issue 35 case 8)', function () {
  this.timeout(120_000);

  it('stores and prints --trade-license and the address; a minimum Partner body for that SME is queued, not held', async () => {
    const partner = JSON.parse((await einvoice('admin', 'partner:create', '--name', 'Reg ERP', '--mode', 'test')).stdout);
    const trn = randomTrn();
    const res = await einvoice('admin', 'sme:connect', '--partner', partner.partnerId, '--trn', trn, '--name', 'Gulf Foods LLC', '--trade-license', 'DED-991', '--address-line1', 'Warehouse 7, Al Quoz 3', '--city', 'Dubai', '--emirate', 'DXB');
    expect(res.code, res.stderr).to.equal(0);
    const out = JSON.parse(res.stdout);
    expect(out).to.deep.include({ trn, tradeLicenseNumber: 'DED-991', address: { line1: 'Warehouse 7, Al Quoz 3', city: 'Dubai', emirate: 'DXB', country: 'AE' } });
    const stored = await SmeConnection.findById(out.smeId).lean();
    expect(stored).to.deep.include({ tradeLicenseNumber: 'DED-991' });

    const headers = { 'X-API-Key': partner.apiKey, 'X-API-Secret': partner.apiSecret, 'x-erp-partner-secret': out.connectionSecret, 'Idempotency-Key': randomUUID() };
    const body = {
      trn,
      number: `MIN-${randomUUID().slice(0, 8)}`,
      issueDate: uaeToday(),
      currency: 'AED',
      seller: { name: 'Gulf Foods LLC', country: 'AE', address: { line1: 'Warehouse 7, Al Quoz 3', city: 'Dubai' } },
      buyer: { name: 'Noor Electronics LLC', country: 'AE', address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', emirate: 'AUH' }, trn: '100987654300003' },
      lines: [{ description: 'Dates, 10 kg', quantity: 3, unitPrice: 40, vatRate: 0.05 }],
    };
    const created = await call('POST', '/v1/partner/invoices', { headers, json: body });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.status, created.text).to.equal('queued');

    // A reissue (revoke, then connect again) keeps the stored registration, and a given licence replaces it.
    expect((await einvoice('admin', 'sme:revoke', '--sme', out.smeId)).code).to.equal(0);
    const again = await einvoice('admin', 'sme:connect', '--partner', partner.partnerId, '--trn', trn, '--name', 'Gulf Foods LLC', '--trade-license', 'DED-992');
    expect(again.code, again.stderr).to.equal(0);
    expect(JSON.parse(again.stdout)).to.deep.include({ smeId: out.smeId, tradeLicenseNumber: 'DED-992', address: out.address });
  });

  it('an address needs all three flags and a real emirate (exit 2, one line)', async () => {
    const partner = JSON.parse((await einvoice('admin', 'partner:create', '--name', 'Reg ERP', '--mode', 'test')).stdout);
    const partial = await einvoice('admin', 'sme:connect', '--partner', partner.partnerId, '--trn', randomTrn(), '--name', 'X', '--city', 'Dubai');
    expect(partial.code).to.equal(2);
    expect(partial.stderr).to.contain('--address-line1');
    const atlantis = await einvoice('admin', 'sme:connect', '--partner', partner.partnerId, '--trn', randomTrn(), '--name', 'X', '--address-line1', 'L', '--city', 'C', '--emirate', 'Atlantis');
    expect(atlantis.code).to.equal(2);
    expect(atlantis.stderr.trim().split('\n')).to.have.length(1);
    expect(atlantis.stderr).to.contain('--emirate');
  });
});
