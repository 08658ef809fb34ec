// The request kinds of bench:load and what counts as a success for each: Partner single POST, bulk, GET, list,
// validate-trn; Tenant drafts and submits. Each kind is one function that sends one request and says whether the
// answer was the expected one (anything else, a network error included, is an error of the run).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TEMPLATE = JSON.parse(fs.readFileSync(path.join(__dirname, '../../test/fixtures/bodies/01-tax-invoice-minimal.json'), 'utf8'));
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

export interface Caller {
  base: string;
  partner: { trn: string; headers: Record<string, string> };
  tenant: { trn: string; nameArabic: string; headers: Record<string, string> };
}

export interface Outcome {
  ok: boolean;
  status: number;
  /** Why it is an error, when it is one. */
  why?: string;
}

/** What the run has made so far: partner invoices to GET, tenant drafts waiting to be submitted. */
export interface Made {
  partnerInvoices: string[];
  tenantDrafts: string[];
}

let serial = 0;

async function request(base: string, method: string, pathname: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; json: any }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method, agent, headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON: judged by status */
        }
        resolve({ status: res.statusCode ?? 0, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function partnerInvoice(trn: string): Record<string, unknown> {
  const b = structuredClone(TEMPLATE);
  b.trn = b.seller.trn = trn;
  b.number = `LOAD-${process.pid}-${++serial}`;
  return b;
}

function tenantDraft(c: Caller): Record<string, unknown> {
  return {
    number: `TL-${process.pid}-${++serial}`,
    issueDate: '2025-02-07',
    currency: 'AED',
    invoiceType: 'sale',
    seller: { name: 'Load Trading LLC', legalNameArabic: c.tenant.nameArabic, trn: c.tenant.trn, country: 'AE' },
    buyer: { name: 'Noor Electronics LLC', trn: '100987654300003', country: 'AE', address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', state: 'Abu Dhabi', country: 'AE' } },
    lines: [{ description: 'Consulting', quantity: 10, unit: 'HUR', unitPrice: 150, vatRate: 0.05, taxCategory: 'standard_5' }],
  };
}

const keyed = (headers: Record<string, string>) => ({ ...headers, 'Idempotency-Key': randomUUID() });
const expect = (status: number, wanted: number, why = `status ${status}, expected ${wanted}`): Outcome => (status === wanted ? { ok: true, status } : { ok: false, status, why });
const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

/** Bulk requests carry this many invoices. */
export const BULK_SIZE = 10;

export const KINDS = {
  'partner POST invoice': async (c: Caller, made: Made): Promise<Outcome> => {
    const res = await request(c.base, 'POST', '/v1/partner/invoices', keyed(c.partner.headers), partnerInvoice(c.partner.trn));
    if (res.status === 201 && res.json?.status === 'queued') made.partnerInvoices.push(res.json.invoiceId);
    return res.status === 201 && res.json?.status !== 'queued' ? { ok: false, status: 201, why: `status ${res.json?.status}` } : expect(res.status, 201);
  },
  'partner bulk (10)': async (c: Caller, made: Made): Promise<Outcome> => {
    const res = await request(c.base, 'POST', '/v1/partner/invoices/bulk', keyed(c.partner.headers), { invoices: Array.from({ length: BULK_SIZE }, () => partnerInvoice(c.partner.trn)) });
    const results = (res.json?.results ?? []) as { ok: boolean; invoiceId?: string }[];
    made.partnerInvoices.push(...results.filter((r) => r.ok).map((r) => r.invoiceId!));
    const failed = results.filter((r) => !r.ok).length;
    return res.status === 207 && results.length === BULK_SIZE && failed === 0 ? { ok: true, status: 207 } : { ok: false, status: res.status, why: `${failed} of ${results.length} items refused` };
  },
  'partner GET invoice': async (c: Caller, made: Made): Promise<Outcome> => {
    const id = pick(made.partnerInvoices);
    if (!id) return { ok: true, status: 0 }; // nothing made yet (first instant of the run)
    return expect((await request(c.base, 'GET', `/v1/partner/invoices/${id}`, c.partner.headers)).status, 200);
  },
  'partner list': async (c: Caller): Promise<Outcome> => expect((await request(c.base, 'GET', '/v1/partner/invoices?limit=25', c.partner.headers)).status, 200),
  'partner validate-trn': async (c: Caller): Promise<Outcome> => {
    const trn = `1${String(Math.floor(Math.random() * 50)).padStart(12, '0')}03`;
    return expect((await request(c.base, 'GET', `/v1/partner/validate-trn?trn=${trn}`, c.partner.headers)).status, 200);
  },
  'tenant POST draft': async (c: Caller, made: Made): Promise<Outcome> => {
    const res = await request(c.base, 'POST', '/v1/invoices', keyed(c.tenant.headers), tenantDraft(c));
    if (res.status === 201) made.tenantDrafts.push(res.json.id);
    return expect(res.status, 201);
  },
  'tenant submit': async (c: Caller, made: Made): Promise<Outcome> => {
    const ids = made.tenantDrafts.splice(0, 10);
    if (!ids.length) return { ok: true, status: 0 };
    const res = await request(c.base, 'POST', '/v1/invoices/submit', keyed(c.tenant.headers), { ids });
    return res.status === 200 && res.json?.submitted === ids.length ? { ok: true, status: 200 } : { ok: false, status: res.status, why: `submitted ${res.json?.submitted} of ${ids.length}` };
  },
} satisfies Record<string, (c: Caller, made: Made) => Promise<Outcome>>;

export type Kind = keyof typeof KINDS;

/** Requests a second per kind at LOAD_SCALE 1 (about 17 requests and 13 invoices a second in all). */
export const RATES: Record<Kind, number> = {
  'partner POST invoice': 4,
  'partner bulk (10)': 0.5,
  'partner GET invoice': 4,
  'partner list': 1,
  'partner validate-trn': 2,
  'tenant POST draft': 4,
  'tenant submit': 0.5,
};

export function closeAgent(): void {
  agent.destroy();
}
