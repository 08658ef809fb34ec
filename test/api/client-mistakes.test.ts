import { expect } from 'chai';
import { call } from '../helpers/http';
import { newPartner } from '../helpers/partners';

describe('client mistakes are 4xx problems, never 500', () => {
  it('malformed bodies, queries, ids and parameters on every partner endpoint', async () => {
    const p = await newPartner();
    const h = (k = String(Math.random())) => ({ ...p.headers, 'Idempotency-Key': k });
    const cases: [string, string, unknown?][] = [
      ['POST', '/v1/partner/invoices', []],
      ['POST', '/v1/partner/invoices', { lines: 'x', seller: 1 }],
      ['POST', '/v1/partner/invoices', { trn: p.sme.trn, number: 'A', issueDate: '2026-13-45', currency: 'AED', seller: {}, buyer: {}, lines: [{}] }],
      ['POST', '/v1/partner/invoices', { trn: p.sme.trn, number: 'A'.repeat(5000), issueDate: 'x', currency: 'AED', seller: null, buyer: null, lines: null }],
      ['POST', '/v1/partner/invoices/bulk', { invoices: null }],
      ['POST', '/v1/partner/invoices/bulk', { invoices: [null, 1, 'x', []] }],
      ['GET', '/v1/partner/invoices?limit=abc&cursor=%%%&status=nope&from=x'],
      ['GET', '/v1/partner/invoices?cursor=eyJ4IjoxfQ'],
      ['GET', '/v1/partner/invoices?status=queued&status=queued&limit=1000'],
      ['GET', '/v1/partner/invoices/not-a-uuid'],
      ['GET', '/v1/partner/invoices/%E0%A4%A'],
      ['DELETE', '/v1/partner/invoices/not-a-uuid'],
      ['POST', '/v1/partner/invoices/not-a-uuid/retry'],
      ['POST', '/v1/partner/invoices/00000000-0000-0000-0000-000000000000/replay-webhook'],
      ['GET', '/v1/partner/invoices/00000000-0000-0000-0000-000000000000/webhook-deliveries'],
      ['GET', '/v1/partner/invoices/00000000-0000-0000-0000-000000000000/document'],
      ['GET', '/v1/partner/validate-trn'],
      ['GET', '/v1/partner/validate-trn?trn=1&trn=2'],
      ['GET', '/v1/partner/customers/' + 'x'.repeat(600)],
      ['POST', '/v1/partner/customers', { externalRef: ['a'], name: { a: 1 } }],
      ['POST', '/v1/partner/customers', 'null'],
    ];
    for (const [method, path, json] of cases) {
      // the string 'null' stands for a literal JSON null body
      const body = json === 'null' ? { raw: 'null', headers: { ...h(), 'Content-Type': 'application/json' } } : { headers: h(), ...(json !== undefined ? { json } : {}) };
      const res = await call(method, path, body);
      // bulk answers 207 with per-item failures; everything else is a 4xx problem
      if (res.status === 207) continue;
      expect(res.status, `${method} ${path}`).to.be.within(400, 499);
      expect(res.headers.get('content-type'), path).to.match(/problem\+json/);
    }
  });
});
