import { expect } from 'chai';
import { einvoice } from '../helpers/cli';
import { Tenant } from '../../src/db/models';
import { sha256Hex } from '../../src/credentials/secrets';
import { call } from '../helpers/http';
import { randomTrn } from '../helpers/partners';

// `einvoice admin tenant:create | tenant:update` (issue tenant-api): the printed names are a contract other tools
// script against.
describe('einvoice admin tenant:*', function () {
  this.timeout(120_000);

  const create = (...extra: string[]) =>
    einvoice('admin', 'tenant:create', '--trn', randomTrn(), '--name', 'Falcon Trading LLC', '--name-ar', 'فالكون للتجارة', '--mode', 'sandbox', ...extra);

  it('tenant:create prints {tenantId, clientId, clientSecret, mode, webhookSecret} once, stores the secret hashed; the pair gets a token', async () => {
    const res = await create('--kyb', 'approved', '--status-url', 'http://127.0.0.1:9/status', '--address-line1', 'Bay Square 3', '--city', 'Dubai', '--emirate', 'Dubai', '--trade-license', 'DED-1');
    expect(res.code, res.stderr).to.equal(0);
    const out = JSON.parse(res.stdout);
    expect(out).to.have.all.keys('tenantId', 'clientId', 'clientSecret', 'mode', 'webhookSecret');
    expect(out.mode).to.equal('sandbox');
    const stored = await Tenant.findById(out.tenantId).lean();
    expect(stored!.clientSecretHash).to.equal(sha256Hex(out.clientSecret));
    expect(stored).to.include({ kyb: 'approved', statusUrl: 'http://127.0.0.1:9/status', legalNameArabic: 'فالكون للتجارة', tradeLicenseNumber: 'DED-1' });
    expect(stored!.address).to.include({ line1: 'Bay Square 3', city: 'Dubai', emirate: 'Dubai' });
    const token = await call('POST', '/v1/auth/token', { json: { clientId: out.clientId, clientSecret: out.clientSecret } });
    expect(token.status).to.equal(200);
  });

  it('kyb defaults to pending (403 kyb_required) until tenant:update approves; update changes mode and prints no secrets', async () => {
    const out = JSON.parse((await create()).stdout);
    const { accessToken } = (await call('POST', '/v1/auth/token', { json: { clientId: out.clientId, clientSecret: out.clientSecret } })).body;
    const headers = { Authorization: `Bearer ${accessToken}` };
    expect((await call('GET', '/v1/invoices', { headers })).body.code).to.equal('kyb_required');
    const res = await einvoice('admin', 'tenant:update', '--tenant', out.tenantId, '--kyb', 'approved', '--mode', 'live');
    expect(res.code, res.stderr).to.equal(0);
    expect(JSON.parse(res.stdout)).to.include({ tenantId: out.tenantId, kyb: 'approved', mode: 'live' });
    expect(res.stdout).not.to.contain(out.clientSecret);
    expect((await call('GET', '/v1/invoices', { headers })).status).to.equal(200);
  });

  it('usage errors exit 2 with one line; a second tenant for one TRN is refused', async () => {
    const trn = randomTrn();
    const cases: [string[], RegExp][] = [
      [['tenant:create', '--trn', '123', '--name', 'x', '--name-ar', 'y', '--mode', 'test'], /--trn must be exactly 15 digits/],
      [['tenant:create', '--trn', trn, '--name', 'x', '--mode', 'test'], /--name-ar is required/],
      [['tenant:create', '--trn', trn, '--name', 'x', '--name-ar', 'y', '--mode', 'prod'], /--mode must be test, sandbox or live/],
      [['tenant:create', '--trn', trn, '--name', 'x', '--name-ar', 'y', '--mode', 'test', '--city', 'Dubai'], /needs all of --address-line1, --city and --emirate/],
      [['tenant:update', '--tenant', 'x'], /nothing to update/],
      [['tenant:update', '--tenant', 'x', '--kyb', 'maybe'], /--kyb must be approved or pending/],
    ];
    for (const [args, message] of cases) {
      const res = await einvoice('admin', ...args);
      expect(res.code, args.join(' ')).to.equal(2);
      expect(res.stderr.trim().split('\n')[0]).to.match(message);
    }
    expect((await einvoice('admin', 'tenant:create', '--trn', trn, '--name', 'x', '--name-ar', 'y', '--mode', 'test')).code).to.equal(0);
    const again = await einvoice('admin', 'tenant:create', '--trn', trn, '--name', 'x', '--name-ar', 'y', '--mode', 'test');
    expect(again.code).to.not.equal(0);
    expect(again.stderr).to.contain('one tenant per TRN');
  });
});
