import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { connectSme } from '../../src/services/admin';
import { call } from '../helpers/http';
import { newPartner, randomTrn } from '../helpers/partners';

const post = (headers: Record<string, string>, json: unknown, key = randomUUID()) =>
  call('POST', '/v1/partner/customers', { headers: { ...headers, 'Idempotency-Key': key }, json });
const get = (headers: Record<string, string>, externalRef: string) => call('GET', `/v1/partner/customers/${encodeURIComponent(externalRef)}`, { headers });

const CUSTOMER_KEYS = ['customerId', 'externalRef', 'name', 'kind', 'country', 'trn', 'email', 'phone', 'createdAt', 'updatedAt'];

describe('Customers (POST /v1/partner/customers, GET /v1/partner/customers/{externalRef})', () => {
  it('creates a customer with defaults and returns the SPEC Customer shape', async () => {
    const p = await newPartner();
    const res = await post(p.headers, { externalRef: 'CUST-1', name: 'Gulf Trading LLC' });
    expect(res.status).to.equal(200);
    expect(res.body).to.have.all.keys(...CUSTOMER_KEYS);
    expect(res.body.customerId).to.match(/^[0-9a-f-]{36}$/);
    expect(res.body).to.include({ externalRef: 'CUST-1', name: 'Gulf Trading LLC', kind: 'buyer', country: 'AE', trn: null, email: null, phone: null });
    expect(Date.parse(res.body.createdAt)).to.be.a('number').and.not.NaN;
    expect(res.body.updatedAt).to.equal(res.body.createdAt);
  });

  it('stores every field, including the address with its default country', async () => {
    const p = await newPartner();
    const body = {
      externalRef: 'CUST-2',
      name: 'Desert Foods FZE',
      kind: 'both',
      country: 'ae',
      trn: '100234567800003',
      email: 'ap@desertfoods.ae',
      phone: '+971 4 123 4567',
      address: { line1: 'Warehouse 5', line2: 'Jebel Ali Free Zone', city: 'Dubai', emirate: 'Dubai', postalCode: '17000' },
    };
    const res = await post(p.headers, body);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ kind: 'both', country: 'AE', trn: '100234567800003', email: 'ap@desertfoods.ae', phone: '+971 4 123 4567' });
    expect(res.body.address).to.deep.equal({ ...body.address, country: 'AE' });
    const fetched = await get(p.headers, 'CUST-2');
    expect(fetched.status).to.equal(200);
    expect(fetched.body).to.deep.equal(res.body);
  });

  it('upserts on externalRef: a new Idempotency-Key with the same externalRef updates the same customerId', async () => {
    const p = await newPartner();
    const created = await post(p.headers, { externalRef: 'CUST-3', name: 'Old Name', email: 'old@example.ae', address: { city: 'Sharjah' } });
    await new Promise((r) => setTimeout(r, 20));
    const updated = await post(p.headers, { externalRef: 'CUST-3', name: 'New Name', kind: 'seller' });
    expect(updated.status).to.equal(200);
    expect(updated.body.customerId).to.equal(created.body.customerId);
    expect(updated.body.createdAt).to.equal(created.body.createdAt);
    expect(Date.parse(updated.body.updatedAt)).to.be.greaterThan(Date.parse(created.body.createdAt));
    // The body is the full representation: omitted optional fields go back to their defaults.
    expect(updated.body).to.include({ name: 'New Name', kind: 'seller', email: null });
    expect(updated.body).not.to.have.property('address');
    expect((await get(p.headers, 'CUST-3')).body).to.deep.equal(updated.body);
  });

  it('replays the same Idempotency-Key and body byte for byte; 409 for that key with another body', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const first = await post(p.headers, { externalRef: 'CUST-4', name: 'A' }, key);
    const again = await post(p.headers, { externalRef: 'CUST-4', name: 'A' }, key);
    expect(again.text).to.equal(first.text);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    const other = await post(p.headers, { externalRef: 'CUST-4', name: 'B' }, key);
    expect(other.status).to.equal(409);
    expect(other.body.code).to.equal('idempotency_key_mismatch');
  });

  it('concurrent first upserts of one externalRef make one customer', async () => {
    const p = await newPartner();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => post(p.headers, { externalRef: 'CUST-RACE', name: `Name ${i}` })));
    for (const r of results) expect(r.status).to.equal(200);
    expect(new Set(results.map((r) => r.body.customerId)).size).to.equal(1);
  });

  it('404 for a missing externalRef, and for another SME or partner (isolation)', async () => {
    const p = await newPartner();
    await post(p.headers, { externalRef: 'MINE', name: 'Mine LLC' });
    const missing = await get(p.headers, 'nope');
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('content-type')).to.match(/^application\/problem\+json/);

    const other = await newPartner();
    expect((await get(other.headers, 'MINE')).status).to.equal(404);

    const secondSme = await connectSme({ partnerId: p.partnerId, trn: randomTrn(), name: 'Second SME' });
    const sameOtherSme = { ...p.keyHeaders, 'x-erp-partner-secret': secondSme.connectionSecret };
    expect((await get(sameOtherSme, 'MINE')).status).to.equal(404);
    // The same externalRef under the other SME is its own customer.
    const theirs = await post(sameOtherSme, { externalRef: 'MINE', name: 'Theirs LLC' });
    const mine = await get(p.headers, 'MINE');
    expect(theirs.body.customerId).not.to.equal(mine.body.customerId);
    expect(mine.body.name).to.equal('Mine LLC');
  });

  it('handles externalRefs with URL-special characters', async () => {
    const p = await newPartner();
    await post(p.headers, { externalRef: 'ACME/42 #b', name: 'Acme' });
    const res = await get(p.headers, 'ACME/42 #b');
    expect(res.status).to.equal(200);
    expect(res.body.externalRef).to.equal('ACME/42 #b');
  });

  it('401 without the connection secret, and without credentials', async () => {
    const p = await newPartner();
    expect((await call('GET', '/v1/partner/customers/x', { headers: p.keyHeaders })).status).to.equal(401);
    expect((await call('GET', '/v1/partner/customers/x')).status).to.equal(401);
    const res = await call('POST', '/v1/partner/customers', { headers: { ...p.keyHeaders, 'Idempotency-Key': 'k' }, json: { externalRef: 'a', name: 'b' } });
    expect(res.status).to.equal(401);
  });

  describe('validation: 400 validation_failed with meta.errors [{code, path, message}]', () => {
    async function errorsFor(body: unknown) {
      const p = await newPartner();
      const res = await post(p.headers, body);
      expect(res.status).to.equal(400);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(res.body.code).to.equal('validation_failed');
      expect(res.body.detail).to.match(/InvalidBody/);
      for (const e of res.body.meta.errors) expect(e).to.have.all.keys('code', 'path', 'message');
      return res.body.meta.errors as { code: string; path: string; message: string }[];
    }
    const pick = (errors: { code: string; path: string }[]) => errors.map((e) => `${e.path}:${e.code}`).sort();

    it('required fields', async () => {
      expect(pick(await errorsFor({}))).to.deep.equal(['externalRef:required', 'name:required']);
    });

    it('lengths: externalRef 128, name 300, country 2, address lines 200', async () => {
      const errors = await errorsFor({ externalRef: 'x'.repeat(129), name: 'n'.repeat(301), country: 'ARE', address: { line1: 'l'.repeat(201), country: 'A' } });
      expect(pick(errors)).to.deep.equal(['address.country:invalid_length', 'address.line1:too_long', 'country:invalid_length', 'externalRef:too_long', 'name:too_long']);
      // At the limits it is fine.
      const p = await newPartner();
      expect((await post(p.headers, { externalRef: 'x'.repeat(128), name: 'n'.repeat(300) })).status).to.equal(200);
    });

    it('formats and enums: trn 15 digits, email, kind', async () => {
      const errors = await errorsFor({ externalRef: 'a', name: 'b', trn: '12345', email: 'not-an-email', kind: 'vendor' });
      expect(pick(errors)).to.deep.equal(['email:invalid_format', 'kind:invalid_enum', 'trn:invalid_format']);
      expect(pick(await errorsFor({ externalRef: 'a', name: 'b', trn: '1002345678000AB' }))).to.deep.equal(['trn:invalid_format']);
    });

    it('unknown fields are rejected with their path, nested ones too', async () => {
      const errors = await errorsFor({ externalRef: 'a', name: 'b', vatNumber: 'x', address: { street: 'y' } });
      expect(pick(errors)).to.deep.equal(['address.street:unknown_field', 'vatNumber:unknown_field']);
    });

    it('wrong types', async () => {
      const errors = await errorsFor({ externalRef: 5, name: 'b', address: 'Dubai' });
      expect(pick(errors)).to.deep.equal(['address:invalid_type', 'externalRef:invalid_type']);
    });

    it('a body that is not an object', async () => {
      const errors = await errorsFor([1, 2]);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.include({ code: 'invalid_type', path: '' });
    });

    it('null is accepted for trn, email and phone', async () => {
      const p = await newPartner();
      const res = await post(p.headers, { externalRef: 'n', name: 'N', trn: null, email: null, phone: null });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ trn: null, email: null, phone: null });
    });

    it('a validation failure is not stored against the Idempotency-Key: fix the body, keep the key', async () => {
      const p = await newPartner();
      const key = randomUUID();
      expect((await post(p.headers, { externalRef: 'fix-me' }, key)).status).to.equal(400);
      const fixed = await post(p.headers, { externalRef: 'fix-me', name: 'Fixed' }, key);
      expect(fixed.status).to.equal(200);
      expect(fixed.body.name).to.equal('Fixed');
    });
  });
});
