import { expect } from 'chai';
import { config } from '../../src/config';
import { Partner, Tenant } from '../../src/db/models';
import { einvoice } from '../helpers/cli';
import { withDevUrls } from '../helpers/dev-urls';
import { adminCall } from '../helpers/http';
import { randomTrn } from '../helpers/partners';

// Issue 32: a test-mode (or sandbox) account's webhook or status URL pointing inside our network is refused at
// connect and update time, over the admin API and the CLI alike, unless the development setting allows it. The
// send-time half is in test/api/webhook-deliveries.test.ts and test/workflows/webhook-delivery.test.ts.
describe('webhook and status URL policy at registration (admin API and CLI, every mode)', function () {
  this.timeout(120_000);
  const admin = () => ({ Authorization: `Bearer ${config().adminToken}` });
  const INTERNAL = ['http://127.0.0.1:8080/hooks', 'https://127.0.0.1/hooks', 'https://[::1]/hooks', 'https://10.0.0.7:5432/', 'https://169.254.169.254/latest', 'https://localhost/hooks'];

  const refusal = (res: { status: number; body: any }, path: string) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    const [error] = res.body.meta.errors;
    expect(error).to.include({ path, code: path === 'webhookUrl' ? 'invalid_webhook_url' : 'invalid_status_url' });
    expect(error.message).to.match(/https|public address/).and.match(/send /);
  };

  it('admin API: a test partner\'s webhook URL on loopback or a private address is refused on create and on update', async () => {
    await withDevUrls(false, async () => {
      for (const webhookUrl of INTERNAL) {
        refusal(await adminCall('POST', '/v1/admin/partners', { headers: admin(), json: { name: 'Scanner ERP', mode: 'test', webhookUrl } }), 'webhookUrl');
      }
      const created = await adminCall('POST', '/v1/admin/partners', { headers: admin(), json: { name: 'Test ERP', mode: 'test', webhookUrl: 'https://erp.example.com/hooks' } });
      expect(created.status, created.text).to.equal(201);
      for (const webhookUrl of INTERNAL) {
        refusal(await adminCall('PATCH', `/v1/admin/partners/${created.body.partnerId}`, { headers: admin(), json: { webhookUrl } }), 'webhookUrl');
      }
      expect((await Partner.findById(created.body.partnerId).lean())!.webhookUrl).to.equal('https://erp.example.com/hooks');
    });
    // The same request with the development setting on (`npm start`, this suite's default) is accepted.
    const dev = await adminCall('POST', '/v1/admin/partners', { headers: admin(), json: { name: 'Dev ERP', mode: 'test', webhookUrl: INTERNAL[0] } });
    expect(dev.status, dev.text).to.equal(201);
  });

  it('admin API: a sandbox or test tenant\'s status URL on loopback is refused on create and on update', async () => {
    const tenant = (mode: string, statusUrl?: string) => ({ trn: randomTrn(), name: 'Falcon Trading LLC', nameArabic: 'فالكون', mode, kyb: 'approved', ...(statusUrl ? { statusUrl } : {}) });
    await withDevUrls(false, async () => {
      for (const mode of ['test', 'sandbox']) {
        refusal(await adminCall('POST', '/v1/admin/tenants', { headers: admin(), json: tenant(mode, 'http://127.0.0.1:9/status') }), 'statusUrl');
      }
      const created = await adminCall('POST', '/v1/admin/tenants', { headers: admin(), json: tenant('sandbox') });
      expect(created.status, created.text).to.equal(201);
      for (const statusUrl of INTERNAL) {
        refusal(await adminCall('PATCH', `/v1/admin/tenants/${created.body.tenantId}`, { headers: admin(), json: { statusUrl } }), 'statusUrl');
      }
      expect((await Tenant.findById(created.body.tenantId).lean())!.statusUrl).to.equal(null);
      const ok = await adminCall('PATCH', `/v1/admin/tenants/${created.body.tenantId}`, { headers: admin(), json: { statusUrl: 'https://erp.example.com/status' } });
      expect(ok.status, ok.text).to.equal(200);
    });
  });

  it('CLI: partner:create, partner:update and tenant:create refuse a loopback URL, naming the flag', async () => {
    const partner = JSON.parse((await einvoice('admin', 'partner:create', '--name', 'CLI ERP', '--mode', 'test')).stdout);
    await withDevUrls(false, async () => {
      const create = await einvoice('admin', 'partner:create', '--name', 'CLI ERP', '--mode', 'test', '--webhook-url', 'http://127.0.0.1:9/hook');
      expect(create.code).to.equal(2);
      expect(create.stderr).to.match(/--webhook-url: .*https/);
      const update = await einvoice('admin', 'partner:update', '--partner', partner.partnerId, '--webhook-url', 'https://127.0.0.1/hook');
      expect(update.code, update.stderr).to.equal(1);
      expect(update.stderr).to.match(/public address, not a loopback one/);
      const tenant = await einvoice('admin', 'tenant:create', '--trn', randomTrn(), '--name', 'Falcon', '--name-ar', 'فالكون', '--mode', 'sandbox', '--status-url', 'http://127.0.0.1:9/status');
      expect(tenant.code, tenant.stderr).to.not.equal(0);
      expect(tenant.stderr).to.match(/https/);
    });
    expect((await Partner.findById(partner.partnerId).lean())!.webhookUrl).to.equal(null);
  });

  it('CLI in production refuses to run with the development setting, naming it', async () => {
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const res = await withDevUrls(true, () => einvoice('admin', 'partner:create', '--name', 'Prod ERP', '--mode', 'live'));
      expect(res.code).to.equal(1);
      expect(res.stderr).to.match(/refusing to run in production: EINVOICE_DEV_ALLOW_PRIVATE_URLS=true is a development setting/);
      expect(res.stdout).to.equal('');
    } finally {
      if (saved === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = saved;
    }
  });
});
