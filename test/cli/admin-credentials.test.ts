import { expect } from 'chai';
import os from 'node:os';
import { CredentialAudit, SmeConnection } from '../../src/db/models';
import { sha256Hex } from '../../src/credentials/secrets';
import { einvoice } from '../helpers/cli';
import { call } from '../helpers/http';
import { newPartner } from '../helpers/partners';
import { newTenant } from '../helpers/tenants';

// The pinned interfaces of issue 32: each command prints one JSON object with exactly these fields.

const json = async (...args: string[]) => {
  const res = await einvoice(...args);
  expect(res.code, `${args.join(' ')}: ${res.stderr}`).to.equal(0);
  return JSON.parse(res.stdout);
};
const HOUR = 3600_000;

describe('einvoice admin: credential rotation and revocation', function () {
  this.timeout(300_000); // each case starts the real binary (tsx)

  it('partner:rotate-secret and partner:rotate-webhook-secret print the pinned fields; default overlap 24h, --overlap 0 keeps no previous', async () => {
    const p = await newPartner();
    const before = Date.now();
    const out = await json('admin', 'partner:rotate-secret', '--partner', p.partnerId);
    expect(out).to.have.all.keys('partnerId', 'apiKey', 'apiSecret', 'previousSecretValidUntil');
    expect(out.partnerId).to.equal(p.partnerId);
    expect(Date.parse(out.previousSecretValidUntil) - before).to.be.within(24 * HOUR - 1000, 24 * HOUR + 120_000);
    expect((await call('GET', '/v1/partner/ping', { headers: { 'X-API-Key': out.apiKey, 'X-API-Secret': out.apiSecret } })).status).to.equal(200);

    const hook = await json('admin', 'partner:rotate-webhook-secret', '--partner', p.partnerId, '--overlap', '0');
    expect(hook).to.deep.equal({ webhookSecret: hook.webhookSecret, previousSecretValidUntil: null });
    expect(hook.webhookSecret).to.match(/^whsec_/).and.not.equal(p.webhookSecret);

    const rows = await CredentialAudit.find({ subjectId: p.partnerId }).sort({ at: 1 }).lean();
    expect(rows.map((r) => r.action)).to.deep.equal(['rotate_secret', 'rotate_webhook_secret']);
    expect(rows[0].actor).to.deep.include({ kind: 'cli', name: os.userInfo().username });
  });

  it('sme:rotate-secret, sme:revoke, then sme:connect on the TRN reissues the same SME', async () => {
    const p = await newPartner();
    const rotated = await json('admin', 'sme:rotate-secret', '--sme', p.sme.smeId, '--overlap', '30m');
    expect(rotated).to.have.all.keys('smeId', 'connectionSecret', 'previousSecretValidUntil');
    expect(Date.parse(rotated.previousSecretValidUntil) - Date.now()).to.be.within(25 * 60_000, 31 * 60_000);

    const revoked = await json('admin', 'sme:revoke', '--sme', p.sme.smeId);
    expect(revoked).to.include({ smeId: p.sme.smeId, status: 'revoked' });
    const refused = await call('GET', '/v1/partner/invoices', { headers: { ...p.keyHeaders, 'x-erp-partner-secret': rotated.connectionSecret } });
    expect([refused.status, refused.body.code]).to.deep.equal([401, 'connection_revoked']);

    const reissued = await json('admin', 'sme:connect', '--partner', p.partnerId, '--trn', p.sme.trn, '--name', 'Gulf Foods LLC');
    expect(reissued).to.deep.equal({ smeId: p.sme.smeId, partnerId: p.partnerId, trn: p.sme.trn, connectionSecret: reissued.connectionSecret, tradeLicenseNumber: null, address: null });
    expect((await SmeConnection.findById(p.sme.smeId).lean())!.connectionSecretHash).to.equal(sha256Hex(reissued.connectionSecret));
    const again = await einvoice('admin', 'sme:connect', '--partner', p.partnerId, '--trn', p.sme.trn, '--name', 'Gulf Foods LLC');
    expect(again.code).to.equal(1);
    expect(again.stderr).to.contain('already connected');

    const norot = await einvoice('admin', 'sme:rotate-secret', '--sme', 'no-such-sme');
    expect([norot.code, norot.stderr.trim().split('\n').length]).to.deep.equal([1, 1]);
    expect(norot.stderr).to.contain('no SME connection no-such-sme');
  });

  it('tenant:rotate-secret, tenant:rotate-webhook-secret and tenant:revoke-secret', async () => {
    const t = await newTenant();
    const rotated = await json('admin', 'tenant:rotate-secret', '--tenant', t.tenantId, '--overlap', '7d');
    expect(rotated).to.have.all.keys('tenantId', 'clientId', 'clientSecret', 'previousSecretValidUntil');
    expect(rotated).to.include({ tenantId: t.tenantId, clientId: t.clientId });
    expect(Date.parse(rotated.previousSecretValidUntil) - Date.now()).to.be.within(7 * 24 * HOUR - 120_000, 7 * 24 * HOUR + 1000);

    const hook = await json('admin', 'tenant:rotate-webhook-secret', '--tenant', t.tenantId);
    expect(hook).to.have.all.keys('webhookSecret', 'previousSecretValidUntil');

    const revoked = await json('admin', 'tenant:revoke-secret', '--tenant', t.tenantId);
    expect(revoked).to.include({ tenantId: t.tenantId, clientId: t.clientId });
    const token = await call('POST', '/v1/auth/token', { json: { clientId: t.clientId, clientSecret: rotated.clientSecret } });
    expect(token.status).to.equal(401);
  });

  it('a bad --overlap or a missing id is a one-line usage error, exit 2, before touching the store', async () => {
    for (const args of [
      ['admin', 'partner:rotate-secret', '--partner', 'p', '--overlap', '1w'],
      ['admin', 'tenant:rotate-secret', '--tenant', 't', '--overlap', '31d'],
      ['admin', 'sme:rotate-secret'],
      ['admin', 'sme:revoke', '--sme', 's', '--overlap', '1h'],
    ]) {
      const res = await einvoice(...args);
      expect(res.code, args.join(' ')).to.equal(2);
      expect(res.stdout).to.equal('');
      expect(res.stderr.trim().split('\n'), res.stderr).to.have.length(1);
    }
    const help = await einvoice('admin', 'sme:rotate-secret', '--help');
    expect(help.stdout).to.equal('usage:\n  einvoice admin sme:rotate-secret --sme <smeId> [--overlap <duration>]\n');
    const all = await einvoice('admin', '--help');
    for (const sub of ['partner:rotate-secret', 'partner:rotate-webhook-secret', 'partner:revoke', 'sme:rotate-secret', 'sme:revoke', 'tenant:rotate-secret', 'tenant:rotate-webhook-secret', 'tenant:revoke-secret']) {
      expect(all.stdout).to.contain(`einvoice admin ${sub} `);
    }
    expect(all.stdout).to.contain('--overlap: 0');
  });
});
