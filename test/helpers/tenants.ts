import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createTenant, type CreatedTenant } from '../../src/services/tenants';
import type { TenantMode } from '../../src/domain/tenant-invoice-types';
import { call } from './http';
import { randomTrn } from './partners';

export interface TestTenant extends CreatedTenant {
  trn: string;
  token: string;
  /** Authorization (and a connector name) for the Tenant API. */
  headers: Record<string, string>;
}

export const TENANT_ARABIC_NAME = 'فالكون للتجارة ذ.م.م';

/** Each test makes its own tenant (one TRN each), approved unless told otherwise, and gets a token for it. */
export async function newTenant(opts: { mode?: TenantMode; kyb?: 'approved' | 'pending'; statusUrl?: string | null; trn?: string } = {}): Promise<TestTenant> {
  const trn = opts.trn ?? randomTrn();
  const created = await createTenant({
    trn,
    name: 'Falcon Trading LLC',
    nameArabic: TENANT_ARABIC_NAME,
    mode: opts.mode ?? 'test',
    kyb: opts.kyb ?? 'approved',
    statusUrl: opts.statusUrl ?? null,
    address: { line1: 'Office 1204, Bay Square 3', city: 'Dubai', emirate: 'DXB', country: 'AE' },
    tradeLicenseNumber: 'DED-778812',
  });
  const res = await call('POST', '/v1/auth/token', { json: { clientId: created.clientId, clientSecret: created.clientSecret } });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
  const token = res.body.accessToken as string;
  return { ...created, trn, token, headers: { Authorization: `Bearer ${token}`, 'X-Service-Source': 'test-connector/1.0' } };
}

/** Headers of a Tenant mutation: the tenant's, plus a fresh Idempotency-Key. */
export function mutation(t: TestTenant, key: string = randomUUID()): Record<string, string> {
  return { ...t.headers, 'Idempotency-Key': key };
}

/** A standard-shape sale (10 x 150 AED at 5 %, 1,575.00 AED) to a UAE business; `change` edits it. */
export function tenantInvoice(t: { trn: string }, change: (b: Record<string, any>) => void = () => {}): Record<string, any> {
  const b: Record<string, any> = {
    number: `T-${randomUUID().slice(0, 8)}`,
    issueDate: '2025-02-07',
    currency: 'AED',
    invoiceType: 'sale',
    seller: { name: 'Falcon Trading LLC', legalNameArabic: TENANT_ARABIC_NAME, trn: t.trn, country: 'AE' },
    buyer: {
      name: 'Noor Electronics LLC',
      trn: '100987654300003',
      country: 'AE',
      email: 'ap@noor.example.ae',
      address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', state: 'Abu Dhabi', country: 'AE' },
    },
    lines: [{ description: 'Consulting, January', quantity: 10, unit: 'HUR', unitPrice: 150, vatRate: 0.05, taxCategory: 'standard_5' }],
  };
  change(b);
  return b;
}

/** Polls GET /v1/invoices/{id} until its status is one of `statuses` (bounded by `timeoutMs`, not a test limit). */
export async function waitForTenantStatus(t: TestTenant, id: string, statuses: string[], timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call('GET', `/v1/invoices/${id}`, { headers: t.headers });
    if (statuses.includes(res.body?.status)) return res.body;
    if (Date.now() > until) throw new Error(`invoice ${id} still ${res.body?.status}, wanted ${statuses.join('|')}: ${res.text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A Tenant API refusal: the status, its code, a human message, and the Tenant shape (not problem+json). */
export function expectTenantError(res: { status: number; body: any; headers: Headers }, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  expect(res.body.code).to.equal(code);
  expect(res.body.humanMessage).to.be.a('string').and.not.equal('');
  expect(res.body).to.not.have.property('type');
}
