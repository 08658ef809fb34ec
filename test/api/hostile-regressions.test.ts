// What the generated hostile-input suite (hostile-generated.test.ts) found, each pinned by hand (issue 13 item 2):
// routes that matched /V1/... without their router's authentication, a multipart body without its closing
// boundary that ended the process, bytes that are not UTF-8 stored as U+FFFD, a declared charset ignored, NUL
// characters that the store refused with a 500, an 800 KB invoice number (500 from the unique index), 400 KB
// values echoed back in validation messages, and one validation error listed per item of a 5,000-item array.
import { expect } from 'chai';
import { adminCall, apiBase, call, type ApiResponse } from '../helpers/http';
import { invoiceBody, postInvoice } from '../helpers/invoices';
import { newPartner } from '../helpers/partners';
import { expectTenantError, mutation, newTenant, tenantInvoice } from '../helpers/tenants';
import { keepAliveAgent, send } from '../helpers/hostile/send';

function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expect(res.body.code).to.equal(code);
}

describe('hostile input: what the generated suite found', () => {
  it('paths match case-sensitively: /V1/PARTNER/PING and /V1/ADMIN/... are no routes (they used to skip authentication)', async () => {
    expectProblem(await call('GET', '/V1/PARTNER/PING'), 404, 'route_not_found');
    expectProblem(await call('GET', '/v1/Partner/ping'), 404, 'route_not_found');
    const p = await newPartner();
    expectProblem(await call('GET', `/V1/ADMIN/SMES/${p.sme.smeId}/credits`), 404, 'route_not_found');
    expectProblem(await call('POST', '/V1/ADMIN/PARTNERS', { json: { name: 'Nobody', mode: 'test' } }), 404, 'route_not_found');
    expectProblem(await call('GET', '/v1/admin/smes/x/credits'), 404, 'route_not_found'); // the admin API has its own listener
    expectProblem(await adminCall('GET', '/v1/admin/smes/x/credits'), 401, 'invalid_admin_token');
  });

  it('a multipart upload that ends without its closing boundary: 400, and the process keeps serving', async () => {
    const t = await newTenant();
    const body = '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nnumber,issueDate\r\nX-1,2025-01-01\r\n';
    const res = await send(await apiBase(), keepAliveAgent(1), { method: 'POST', path: '/v1/invoices/bulk', headers: { ...mutation(t), 'Content-Type': 'multipart/form-data; boundary=b0undary' }, body: Buffer.from(body) });
    expect(res.status, res.text).to.equal(400);
    expect(JSON.parse(res.text).code).to.equal('invalid_body');
    expect((await call('GET', '/healthz')).status).to.equal(200);
  });

  it('a JSON body that is not UTF-8, or declares another charset: 400 / 415 on both surfaces, nothing stored', async () => {
    const p = await newPartner();
    const t = await newTenant();
    const latin1 = Buffer.concat([Buffer.from('{"externalRef":"c-1","name":"Caf'), Buffer.from([0xe9]), Buffer.from('","country":"AE"}')]);
    const base = await apiBase();
    const agent = keepAliveAgent(1);
    const partner = await send(base, agent, { method: 'POST', path: '/v1/partner/customers', headers: { ...p.headers, 'Idempotency-Key': 'utf8-1', 'Content-Type': 'application/json' }, body: latin1 });
    expect([partner.status, JSON.parse(partner.text).code]).to.deep.equal([400, 'malformed_body']);
    expectProblem(await call('GET', '/v1/partner/customers/c-1', { headers: p.headers }), 404, 'not_found');
    const tenant = await send(base, agent, { method: 'POST', path: '/v1/invoices', headers: { ...mutation(t), 'Content-Type': 'application/json' }, body: Buffer.concat([Buffer.from(JSON.stringify(tenantInvoice(t)).slice(0, -1)), Buffer.from(',"x":"\xff"}', 'latin1')]) });
    expect([tenant.status, JSON.parse(tenant.text).code]).to.deep.equal([400, 'invalid_body']);
    const utf16 = await call('POST', '/v1/partner/customers', { headers: { ...p.headers, 'Idempotency-Key': 'utf8-2', 'Content-Type': 'application/json; charset=utf-16' }, raw: '{"externalRef":"c-2","name":"X","country":"AE"}' });
    expectProblem(utf16, 415, 'unsupported_media_type');
    expect((await call('POST', '/v1/partner/customers', { headers: { ...p.headers, 'Idempotency-Key': 'utf8-3', 'Content-Type': 'application/json; charset=UTF-8' }, raw: '{"externalRef":"c-3","name":"Café","country":"AE"}' })).status).to.equal(200);
  });

  it('a NUL character in a path, query or body: 404 / 400, never the store\'s 500', async () => {
    const p = await newPartner();
    const t = await newTenant();
    expectProblem(await call('GET', '/v1/partner/customers/nul%00byte', { headers: p.headers }), 404, 'route_not_found');
    expectProblem(await call('POST', '/v1/partner/invoices/%00/replay-webhook', { headers: { ...p.headers, 'Idempotency-Key': 'nul-1' } }), 404, 'route_not_found');
    expectProblem(await call('GET', '/v1/partner/invoices?number=a%00b', { headers: p.headers }), 400, 'validation_failed');
    expectTenantError(await call('GET', '/v1/invoices?number=a%00b', { headers: t.headers }), 400, 'invalid_body');
    const body = await call('POST', '/v1/partner/customers', { headers: { ...p.headers, 'Idempotency-Key': 'nul-2' }, json: { externalRef: 'nul\u0000ref', name: 'X', country: 'AE' } });
    expectProblem(body, 400, 'forbidden_character');
    expect(body.body.meta.path).to.equal('externalRef');
    expectTenantError(await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t, (b) => (b.lines[0].description = 'a\u0000b')) }), 400, 'invalid_body');
  });

  it('an invoice number over 64 characters: 400 naming it (800 KB was a 500 from the unique index)', async () => {
    const p = await newPartner();
    const res = await postInvoice(p, invoiceBody(p, (b) => (b.number = 'é'.repeat(400_000))));
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.meta.errors.map((e: { code: string; path: string }) => [e.code, e.path])).to.deep.include(['too_long', 'number']);
  });

  it('a refused 400 KB value is not echoed back in full: the answer stays small', async () => {
    const p = await newPartner();
    const res = await call('POST', '/v1/partner/customers', { headers: { ...p.headers, 'Idempotency-Key': 'echo-1' }, json: { externalRef: 'c-9', name: 'X', country: '😀'.repeat(100_000) } });
    expectProblem(res, 400, 'validation_failed');
    expect(res.text.length).to.be.below(2_000);
    expect(res.text).to.include('(200000 characters)');
  });

  it('5,000 wrong array items in a 4 KB body: the first 100 problems listed and the rest counted (it was a 750 KB answer)', async () => {
    const t = await newTenant();
    const res = await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: Array(5000).fill(1) } });
    expectTenantError(res, 400, 'invalid_body');
    expect(res.text.length).to.be.below(40_000);
    const errors: { code: string; path: string; message: string }[] = res.body.meta.errors;
    expect(errors).to.have.length(101);
    expect(errors[0]).to.deep.include({ code: 'too_many', path: 'ids' });
    expect(errors[1]).to.deep.include({ code: 'invalid_type', path: 'ids[0]' });
    expect(errors[100].code).to.equal('too_many_errors');
    expect(errors[100].message).to.match(/^4901 more problem\(s\) not listed/);
  });
});
