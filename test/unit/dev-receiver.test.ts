import { expect } from 'chai';
import { signatureHeaders } from '../../src/webhooks/sign';
import { PARTNER_WEBHOOK_PATH, startDevReceiver, TENANT_STATUS_PATH, type DevReceiver } from '../../src/dev/webhook-receiver';

// `npm start`'s local receiver: the seeded partner's webhook URL and the seeded tenant's status URL on one server,
// each path verified with its own secret, one printed line per request.
describe("npm start's dev webhook receiver", () => {
  const secrets = { partner: 'whsec_partner', tenant: 'whsec_tenant' };
  const lines: string[] = [];
  let receiver: DevReceiver;
  before(async () => {
    receiver = await startDevReceiver({
      port: 0,
      routes: {
        [PARTNER_WEBHOOK_PATH]: { label: 'webhook', secret: () => secrets.partner },
        [TENANT_STATUS_PATH]: { label: 'status-update', secret: () => secrets.tenant },
      },
      print: (line) => lines.push(line),
    });
  });
  after(() => receiver.stop());
  beforeEach(() => (lines.length = 0));

  async function post(path: string, body: string, secret: string, t = Math.floor(Date.now() / 1000)): Promise<number> {
    const res = await fetch(receiver.url(path), { method: 'POST', headers: { 'Content-Type': 'application/json', ...signatureHeaders(secret, t, body) }, body });
    return res.status;
  }

  const partnerEvent = JSON.stringify({ event: 'invoice.status_changed', erpPartnerId: 'p-1', invoiceId: 'i-1', status: 'delivered', reason: null, timestamp: '2026-11-01T08:30:15Z' });
  const tenantUpdate = JSON.stringify({ invoiceNumber: 'T-1', status: 'Acknowledged', ackRef: 'FTA-1', uuid: 'i-2', reason: null, timestamp: '2026-11-01T08:30:15Z' });

  it('prints [webhook] signature ok for a partner event signed with the partner secret (204)', async () => {
    expect(await post(PARTNER_WEBHOOK_PATH, partnerEvent, secrets.partner)).to.equal(204);
    expect(lines).to.deep.equal([`[webhook] signature ok  ${partnerEvent}`]);
  });

  it('prints [status-update] signature ok for a tenant update signed with the tenant secret (204)', async () => {
    expect(await post(TENANT_STATUS_PATH, tenantUpdate, secrets.tenant)).to.equal(204);
    expect(lines).to.deep.equal([`[status-update] signature ok  ${tenantUpdate}`]);
  });

  it("refuses (401) each path's events signed with the other secret, or stale, and says why", async () => {
    expect(await post(PARTNER_WEBHOOK_PATH, partnerEvent, secrets.tenant)).to.equal(401);
    expect(await post(TENANT_STATUS_PATH, tenantUpdate, secrets.partner)).to.equal(401);
    expect(await post(PARTNER_WEBHOOK_PATH, partnerEvent, secrets.partner, Math.floor(Date.now() / 1000) - 600)).to.equal(401);
    const unsigned = await fetch(receiver.url(TENANT_STATUS_PATH), { method: 'POST', body: tenantUpdate });
    expect(unsigned.status).to.equal(401);
    expect(lines).to.deep.equal([
      `[webhook] signature REFUSED (signature mismatch)  ${partnerEvent}`,
      `[status-update] signature REFUSED (signature mismatch)  ${tenantUpdate}`,
      `[webhook] signature REFUSED (timestamp outside the 300 s tolerance)  ${partnerEvent}`,
      `[status-update] signature REFUSED (missing X-Webhook-Signature header)  ${tenantUpdate}`,
    ]);
  });

  it('refuses everything while a secret is not known yet, and answers 404 elsewhere without printing', async () => {
    const saved = secrets.partner;
    secrets.partner = '';
    try {
      expect(await post(PARTNER_WEBHOOK_PATH, partnerEvent, saved)).to.equal(401);
    } finally {
      secrets.partner = saved;
    }
    expect((await fetch(receiver.url('/elsewhere'), { method: 'POST', body: '{}' })).status).to.equal(404);
    expect((await fetch(receiver.url(PARTNER_WEBHOOK_PATH))).status).to.equal(404);
    expect(lines).to.deep.equal([`[webhook] signature REFUSED (no webhook secret configured)  ${partnerEvent}`]);
    expect(receiver.url(PARTNER_WEBHOOK_PATH)).to.match(/^http:\/\/127\.0\.0\.1:\d+\/partner-webhooks$/);
  });
});
