import { expect } from 'chai';
import { einvoice } from '../helpers/cli';
import { Partner, SmeConnection } from '../../src/db/models';
import { sha256Hex } from '../../src/credentials/secrets';
import { call } from '../helpers/http';
import { randomTrn } from '../helpers/partners';
import { withDevUrls } from '../helpers/dev-urls';

describe('einvoice admin', function () {
  this.timeout(120_000);

  it('partner:create prints the partner with its secrets once, stores only hashes, and the key works', async () => {
    const res = await einvoice('admin', 'partner:create', '--name', 'Acme ERP', '--mode', 'test', '--webhook-url', 'http://127.0.0.1:9/hook');
    expect(res.code, res.stderr).to.equal(0);
    const out = JSON.parse(res.stdout);
    expect(out).to.have.all.keys('partnerId', 'erpName', 'mode', 'apiKey', 'apiSecret', 'webhookSecret');
    expect(out).to.include({ erpName: 'Acme ERP', mode: 'test' });
    expect(out.apiKey).to.match(/^erp_test_/);
    const stored = await Partner.findById(out.partnerId).lean();
    expect(stored!.apiSecretHash).to.equal(sha256Hex(out.apiSecret));
    expect(stored!.webhookUrl).to.equal('http://127.0.0.1:9/hook');
    const ping = await call('GET', '/v1/partner/ping', { headers: { 'X-API-Key': out.apiKey, 'X-API-Secret': out.apiSecret } });
    expect(ping.status).to.equal(200);
  });

  it('live partners get erp_live_ keys and must use https webhooks (development setting off)', async () => {
    const ok = await einvoice('admin', 'partner:create', '--name', 'Live ERP', '--mode', 'live');
    expect(JSON.parse(ok.stdout).apiKey).to.match(/^erp_live_/);
    const bad = await withDevUrls(false, () => einvoice('admin', 'partner:create', '--name', 'Live ERP', '--mode', 'live', '--webhook-url', 'http://example.com/hook'));
    expect(bad.code).to.equal(2);
    expect(bad.stderr.trim().split('\n')).to.have.length(1);
    expect(bad.stderr).to.contain('https');
  });

  it('partner:update sets webhook URL and rate limit and prints no secrets', async () => {
    const created = JSON.parse((await einvoice('admin', 'partner:create', '--name', 'Upd ERP', '--mode', 'test')).stdout);
    const res = await einvoice('admin', 'partner:update', '--partner', created.partnerId, '--webhook-url', 'https://erp.example.com/h', '--rate-limit', '120');
    expect(res.code, res.stderr).to.equal(0);
    const out = JSON.parse(res.stdout);
    expect(out).to.include({ partnerId: created.partnerId, webhookUrl: 'https://erp.example.com/h', rateLimitPerMinute: 120 });
    expect(res.stdout).not.to.contain(created.apiSecret);
    expect(res.stdout).not.to.match(/secret|hash/i);
  });

  it('sme:connect prints the connection secret once and stores its hash', async () => {
    const created = JSON.parse((await einvoice('admin', 'partner:create', '--name', 'SME ERP', '--mode', 'test')).stdout);
    const trn = randomTrn();
    const res = await einvoice('admin', 'sme:connect', '--partner', created.partnerId, '--trn', trn, '--name', 'Gulf Foods LLC');
    expect(res.code, res.stderr).to.equal(0);
    const out = JSON.parse(res.stdout);
    expect(out).to.have.all.keys('smeId', 'partnerId', 'trn', 'connectionSecret', 'tradeLicenseNumber', 'address');
    expect(out).to.include({ partnerId: created.partnerId, trn });
    const stored = await SmeConnection.findById(out.smeId).lean();
    expect(stored!.connectionSecretHash).to.equal(sha256Hex(out.connectionSecret));
    expect(JSON.stringify(stored)).not.to.contain(out.connectionSecret);
  });

  it('bad arguments give a one-line error and exit 2', async () => {
    const cases = [
      ['admin', 'partner:create', '--name', 'X'],
      ['admin', 'partner:create', '--name', 'X', '--mode', 'prod'],
      ['admin', 'partner:create', '--name', 'X', '--mode', 'test', '--bogus', '1'],
      ['admin', 'sme:connect', '--partner', 'p', '--trn', '12345', '--name', 'X'],
      ['admin', 'partner:update', '--partner', 'p', '--rate-limit', 'lots'],
      ['admin', 'nope'],
    ];
    for (const args of cases) {
      const res = await einvoice(...args);
      expect(res.code, args.join(' ')).to.equal(2);
      expect(res.stdout).to.equal('');
      expect(res.stderr.trim().split('\n')[0]).to.match(/^einvoice admin/);
    }
  });

  it('an unknown partner is a one-line error, exit 1', async () => {
    const res = await einvoice('admin', 'sme:connect', '--partner', 'no-such-partner', '--trn', randomTrn(), '--name', 'X');
    expect(res.code).to.equal(1);
    expect(res.stderr.trim().split('\n')).to.have.length(1);
    expect(res.stderr).to.contain('no partner');
  });
});
