// The real things the generated hostile requests point at: a partner and SME with an invoice and a customer, a
// tenant with a draft, and, for the admin routes (which may revoke or re-mode what they are given), a separate
// partner and tenant. Budgets are lifted so the suite measures refusals, not the rate limiter.
import { randomUUID } from 'node:crypto';
import { updatePartner } from '../../../src/services/admin';
import { customerExample, partnerCreateExample, topUpExample } from '../../../src/openapi/examples';
import { call } from '../http';
import { invoiceBody, postInvoice } from '../invoices';
import { newPartner, randomTrn } from '../partners';
import { mutation, newTenant, tenantInvoice, TENANT_ARABIC_NAME } from '../tenants';
import type { HostileContext } from './requests';

export interface HostileSetup {
  context: HostileContext;
  /** Every secret the run knows: none may appear in an answer. */
  secrets: string[];
}

export async function hostileSetup(adminToken: string, providerSecret: string): Promise<HostileSetup> {
  const partner = await newPartner();
  await updatePartner(partner.partnerId, { rateLimitPerMinute: 1_000_000 });
  const victim = await newPartner();
  const tenant = await newTenant();
  const victimTenant = await newTenant();

  const invoice = await postInvoice(partner, invoiceBody(partner));
  if (invoice.status !== 201) throw new Error(`setup invoice: ${invoice.status} ${invoice.text}`);
  const customer = await call('POST', '/v1/partner/customers', { headers: { ...partner.headers, 'Idempotency-Key': randomUUID() }, json: customerExample });
  if (customer.status !== 200) throw new Error(`setup customer: ${customer.status} ${customer.text}`);
  const draft = await call('POST', '/v1/invoices', { headers: mutation(tenant), json: tenantInvoice(tenant) });
  if (draft.status !== 201) throw new Error(`setup draft: ${draft.status} ${draft.text}`);

  const validBodies: Record<string, unknown> = {
    'post /v1/partner/customers': customerExample,
    'post /v1/partner/invoices': invoiceBody(partner),
    'post /v1/partner/invoices/bulk': { invoices: [invoiceBody(partner)] },
    'post /v1/partner/invoices/validate': invoiceBody(partner),
    'post /v1/auth/token': { clientId: tenant.clientId, clientSecret: tenant.clientSecret },
    'post /v1/invoices': tenantInvoice(tenant),
    'post /v1/invoices/submit': { ids: [draft.body.id] },
    'post /v1/credit-notes': { originalInvoiceNumber: draft.body.number, issueDate: '2025-02-20', creditNoteNumber: 'CN-1', reason: 'ReturnOfGoods', totals: { grossAmount: -10 } },
    'post /v1/admin/partners': { name: partnerCreateExample.name, mode: 'test' },
    'patch /v1/admin/partners/:partnerId': { rateLimitPerMinute: 1000 },
    'post /v1/admin/partners/:partnerId/smes': { trn: randomTrn(), name: 'Generated SME LLC' },
    'post /v1/admin/smes/:smeId/credits': topUpExample,
    'post /v1/admin/tenants': { trn: randomTrn(), name: 'Generated Trading LLC', nameArabic: TENANT_ARABIC_NAME, mode: 'test' },
    'patch /v1/admin/tenants/:tenantId': { kyb: 'approved' },
    'post /v1/admin/tenants/:tenantId/credits': topUpExample,
  };

  const validQueries: Record<string, string> = {
    'get /v1/partner/validate-trn': `trn=${partner.sme.trn}`,
    'get /v1/partner/records': 'from=2025-01-01&to=2025-12-31',
    'get /v1/records': 'from=2025-01-01&to=2025-12-31',
  };

  const context: HostileContext = {
    partnerHeaders: partner.headers,
    partnerKeyHeaders: partner.keyHeaders,
    tenantHeaders: tenant.headers,
    tenantTrn: tenant.trn,
    adminToken,
    params: {
      id: invoice.body.invoiceId,
      'tenant:id': draft.body.id,
      externalRef: customerExample.externalRef,
      partnerId: victim.partnerId,
      smeId: victim.sme.smeId,
      tenantId: victimTenant.tenantId,
      file: 'favicon-32x32.png',
    },
    validBodies,
    validQueries,
  };
  const secrets = [partner.apiSecret, partner.sme.connectionSecret, victim.apiSecret, tenant.clientSecret, tenant.webhookSecret, victimTenant.clientSecret, adminToken, providerSecret];
  return { context, secrets };
}
