// Issue 13 item 3, across surfaces: both APIs keep invoices in one store, so a partner's SME and a tenant with the
// same seller TRN must still never reach each other's invoices (ids, lists, submit, retry, credit notes), and a
// credential of one surface (partner keys, tenant JWT, admin token) opens nothing on another.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { adminCall, call, type ApiResponse } from '../helpers/http';
import { invoiceBody, postInvoice } from '../helpers/invoices';
import { expectNoLeak } from '../helpers/leaks';
import { newPartner, randomTrn, type TestPartner } from '../helpers/partners';
import { expectTenantError, mutation, newTenant, tenantInvoice, type TestTenant } from '../helpers/tenants';

function expectProblem(res: ApiResponse, status: number): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
}

describe('isolation across surfaces: a partner SME and a tenant with the same TRN', () => {
  let partner: TestPartner;
  let tenant: TestTenant;
  let secrets: string[];
  let partnerInvoice: { id: string; number: string };
  let tenantDraft: { id: string; number: string };

  before(async () => {
    const trn = randomTrn();
    partner = await newPartner({ trn });
    tenant = await newTenant({ trn });
    secrets = [partner.apiSecret, partner.sme.connectionSecret, partner.webhookSecret, tenant.clientSecret, tenant.webhookSecret, process.env.ADMIN_TOKEN!];
    const p = await postInvoice(partner, invoiceBody(partner));
    expect(p.status, p.text).to.equal(201);
    partnerInvoice = { id: p.body.invoiceId, number: p.body.number };
    const t = await call('POST', '/v1/invoices', { headers: mutation(tenant), json: tenantInvoice(tenant) });
    expect(t.status, t.text).to.equal(201);
    tenantDraft = { id: t.body.id, number: t.body.number };
  });

  it("the tenant gets 404 on the partner's invoice (GET, retry), submit skips it, a credit note cannot find it", async () => {
    const id = partnerInvoice.id;
    for (const res of [await call('GET', `/v1/invoices/${id}`, { headers: tenant.headers }), await call('POST', `/v1/invoices/${id}/retry`, { headers: mutation(tenant) })]) {
      expectTenantError(res, 404, 'not_found');
      expectNoLeak(res, secrets);
    }
    expect((await call('POST', '/v1/invoices/submit', { headers: mutation(tenant), json: { ids: [id] } })).body).to.deep.equal({ submitted: 0, ids: [] });
    const credit = await call('POST', '/v1/credit-notes', { headers: mutation(tenant), json: { originalInvoiceNumber: partnerInvoice.number, issueDate: '2025-02-20', creditNoteNumber: `CN-${randomUUID().slice(0, 8)}`, reason: 'ReturnOfGoods', totals: { grossAmount: -10 } } });
    expectTenantError(credit, 404, 'original_invoice_not_found');
    const list = await call('GET', '/v1/invoices?limit=100', { headers: tenant.headers });
    expect(list.body.data.map((i: { id: string }) => i.id)).to.include(tenantDraft.id).and.not.include(id);
  });

  it("the partner gets 404 on the tenant's invoice on every id route, and its list does not hold it", async () => {
    const id = tenantDraft.id;
    const key = () => ({ ...partner.headers, 'Idempotency-Key': randomUUID() });
    const answers = [
      await call('GET', `/v1/partner/invoices/${id}`, { headers: partner.headers }),
      await call('GET', `/v1/partner/invoices/${id}/document`, { headers: partner.headers }),
      await call('GET', `/v1/partner/invoices/${id}/evidence`, { headers: partner.headers }),
      await call('GET', `/v1/partner/invoices/${id}/webhook-deliveries`, { headers: partner.headers }),
      await call('POST', `/v1/partner/invoices/${id}/replay-webhook`, { headers: key() }),
      await call('POST', `/v1/partner/invoices/${id}/retry`, { headers: key() }),
      await call('DELETE', `/v1/partner/invoices/${id}`, { headers: partner.headers }),
    ];
    for (const res of answers) {
      expectProblem(res, 404);
      expectNoLeak(res, secrets);
    }
    const list = await call('GET', '/v1/partner/invoices?limit=100', { headers: partner.headers });
    expect(list.body.data.map((i: { invoiceId: string }) => i.invoiceId)).to.include(partnerInvoice.id).and.not.include(id);
    expect((await call('GET', `/v1/invoices/${id}`, { headers: tenant.headers })).body.status).to.equal('draft');
  });

  it('one Idempotency-Key on both surfaces: each executes its own request', async () => {
    const key = randomUUID();
    const p = await postInvoice(partner, invoiceBody(partner), key);
    const t = await call('POST', '/v1/invoices', { headers: mutation(tenant, key), json: tenantInvoice(tenant) });
    expect([p.status, t.status]).to.deep.equal([201, 201]);
    expect(t.headers.get('idempotent-replayed')).to.equal(null);
    expect(t.body.id).not.to.equal(p.body.invoiceId);
  });

  it("a credential of one surface opens nothing on another: 401 in the surface's shape", async () => {
    const tenantOnPartner = await call('GET', '/v1/partner/ping', { headers: tenant.headers });
    expectProblem(tenantOnPartner, 401);
    expectProblem(await call('GET', `/v1/partner/invoices/${partnerInvoice.id}`, { headers: { ...tenant.headers, 'x-erp-partner-secret': partner.sme.connectionSecret } }), 401);
    expectTenantError(await call('GET', `/v1/invoices/${tenantDraft.id}`, { headers: partner.headers }), 401, 'missing_authorization_header');
    const adminToken = { Authorization: `Bearer ${process.env.ADMIN_TOKEN}` };
    expectProblem(await call('GET', '/v1/partner/ping', { headers: adminToken }), 401);
    expect((await call('GET', `/v1/invoices/${tenantDraft.id}`, { headers: adminToken })).status).to.equal(401);
    expectProblem(await adminCall('POST', '/v1/admin/partners', { headers: tenant.headers, json: { name: 'X', mode: 'test' } }), 401);
    expectProblem(await adminCall('POST', '/v1/admin/partners', { headers: { ...partner.headers, Authorization: `Bearer ${partner.apiSecret}` }, json: { name: 'X', mode: 'test' } }), 401);
    expectNoLeak(tenantOnPartner, secrets);
  });
});
