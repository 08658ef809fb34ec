import { expect } from 'chai';
import { uaeToday } from '../../src/domain/submission-rules';
import { randomUUID } from 'node:crypto';
import { Invoice } from '../../src/db/models';
import { call } from '../helpers/http';
import { getInvoice, invoiceBody } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { ensureWorker } from '../helpers/worker';

const bulk = (p: TestPartner, invoices: unknown, key: string | null = randomUUID()) =>
  call('POST', '/v1/partner/invoices/bulk', { headers: { ...p.headers, ...(key ? { 'Idempotency-Key': key } : {}) }, json: { invoices } });

describe('POST /v1/partner/invoices/bulk (SPEC 4.1 rule 3, BulkResponse)', function () {
  this.timeout(120_000);
  before(() => ensureWorker());

  it('207 with one result per item, in order, externalRef echoed, and a summary', async () => {
    const p = await newPartner();
    const ok = invoiceBody(p, (b) => ((b.externalRef = 'ERP-OK'), (b.issueDate = uaeToday()))); // today: no late_issuance warning
    const items = [
      ok,
      invoiceBody(p, (b) => {
        delete b.lines;
        b.externalRef = 'ERP-BAD';
      }),
      invoiceBody(p, (b) => (b.trn = '100111222300003')),
      invoiceBody(p, (b) => delete b.buyer.address),
      invoiceBody(p, (b) => ((b.number = ok.number), (b.issueDate = ok.issueDate))), // numbers are unique per year
      invoiceBody(p, (b) => (b.seller.trn = '100000000000666')),
      invoiceBody(p, (b) => (b.seller.trn = '100000000000000')),
      'not an invoice',
    ];
    const res = await bulk(p, items);
    expect(res.status, res.text).to.equal(207);
    const r = res.body.results;
    expect(r.map((x: any) => x.index)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(r[0]).to.deep.equal({ index: 0, ok: true, invoiceId: r[0].invoiceId, number: ok.number, status: 'queued', externalRef: 'ERP-OK' });
    expect(r[1]).to.include({ index: 1, ok: false, externalRef: 'ERP-BAD' });
    expect(r[1].error.code).to.equal('validation_failed');
    expect(r[1].error.message).to.contain('lines');
    expect(r[1].error.errors).to.deep.include({ code: 'required', path: 'lines', message: r[1].error.errors[0].message });
    expect(r[2]).to.deep.include({ ok: false, error: { code: 'trn_mismatch', message: r[2].error.message } });
    expect(r[3]).to.include({ ok: true, status: 'held', heldReason: 'address_required' });
    expect(r[3].heldErrors.map((e: any) => e.path)).to.deep.equal(['buyer.address']);
    expect(r[4].error.code).to.equal('invoice_number_duplicate');
    expect(r[5].error.code).to.equal('test_trn_reject');
    expect(r[6]).to.include({ ok: true, status: 'delivered' });
    expect(r[7].error.code).to.equal('validation_failed');
    expect(res.body.summary).to.deep.equal({ total: 8, ok: 3, failed: 5 });
    const stored = await Invoice.findById(r[0].invoiceId).lean();
    expect(stored!.externalRef).to.equal('ERP-OK');
    expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(3);
    expect((await getInvoice(p, r[0].invoiceId)).status).to.equal(200);
  });

  it('400 for the envelope: no key, no items, more than 100, unknown fields, not an object', async () => {
    const p = await newPartner();
    const noKey = await bulk(p, [invoiceBody(p)], null);
    expect([noKey.status, noKey.body.code]).to.deep.equal([400, 'idempotency_key_required']);
    const empty = await bulk(p, []);
    expect(empty.status).to.equal(400);
    expect(empty.body.meta.errors.map((e: any) => [e.path, e.code])).to.deep.equal([['invoices', 'too_few']]);
    const many = await bulk(p, Array.from({ length: 101 }, () => invoiceBody(p)));
    expect(many.body.meta.errors.map((e: any) => [e.path, e.code])).to.deep.equal([['invoices', 'too_many']]);
    const extra = await call('POST', '/v1/partner/invoices/bulk', { headers: { ...p.headers, 'Idempotency-Key': randomUUID() }, json: { invoices: [invoiceBody(p)], dryRun: true } });
    expect(extra.body.meta.errors.map((e: any) => [e.path, e.code])).to.deep.equal([['dryRun', 'unknown_field']]);
    const array = await call('POST', '/v1/partner/invoices/bulk', { headers: { ...p.headers, 'Idempotency-Key': randomUUID() }, json: [invoiceBody(p)] });
    expect([array.status, array.body.code]).to.deep.equal([400, 'validation_failed']);
    expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(0);
  });

  it('the same key and body replays every item; nothing is created twice', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const items = [invoiceBody(p), invoiceBody(p, (b) => delete b.seller.address), invoiceBody(p, (b) => (b.trn = '100111222300003'))];
    const first = await bulk(p, items, key);
    const again = await bulk(p, items, key);
    expect(again.status).to.equal(207);
    expect(again.body).to.deep.equal(first.body);
    // Every item ran under its key (a refusal such as trn_mismatch is stored too), so all replayed.
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(2);
  });

  it('recovers a partial failure by resending the original body; a shifted subset is 409 by hash mismatch', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const items = Array.from({ length: 6 }, () => invoiceBody(p));
    // The first attempt "crashed" after three items: only they were done under <key>:0..2.
    const partial = await bulk(p, items.slice(0, 3), key);
    expect(partial.body.summary).to.deep.equal({ total: 3, ok: 3, failed: 0 });
    const resent = await bulk(p, items, key);
    expect(resent.status).to.equal(207);
    expect(resent.body.summary).to.deep.equal({ total: 6, ok: 6, failed: 0 });
    expect(resent.body.results.slice(0, 3)).to.deep.equal(partial.body.results);
    expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(6);
    const full = await bulk(p, items, key);
    expect(full.headers.get('idempotent-replayed')).to.equal('true');
    expect(full.body).to.deep.equal(resent.body);

    const subset = await bulk(p, items.slice(3), key);
    expect(subset.status).to.equal(409);
    expect(subset.body.code).to.equal('idempotency_key_mismatch');
    expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(6);
  });

  it('an item whose number is already stored is 409 invoice_number_duplicate; the rest of the batch is created, and a resend replays both', async () => {
    const p = await newPartner();
    const first = await bulk(p, [invoiceBody(p)]);
    const taken = first.body.results[0].number;
    const key = randomUUID();
    const items = [invoiceBody(p), invoiceBody(p, (b) => (b.number = taken)), invoiceBody(p)];
    const res = await bulk(p, items, key);
    expect(res.body.results.map((r: any) => r.ok)).to.deep.equal([true, false, true]);
    expect(res.body.results[1].error.code).to.equal('invoice_number_duplicate');
    expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(3);
    const again = await bulk(p, items, key);
    expect(again.body).to.deep.equal(res.body);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('the same batch sent twice at once creates each invoice once; every item answers created or in progress', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const items = Array.from({ length: 20 }, () => invoiceBody(p));
    const [a, b] = await Promise.all([bulk(p, items, key), bulk(p, items, key)]);
    expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(20);
    for (let i = 0; i < 20; i++) {
      const outcomes = [a.body.results?.[i], b.body.results?.[i]].filter(Boolean);
      const created = outcomes.filter((r: any) => r.ok);
      expect(created.length, `item ${i}`).to.be.at.least(1);
      for (const r of outcomes) if (!r.ok) expect(r.error.code).to.equal('idempotency_in_progress');
      if (created.length === 2) expect(created[0].invoiceId).to.equal(created[1].invoiceId);
    }
    const after = await bulk(p, items, key);
    expect(after.body.summary).to.deep.equal({ total: 20, ok: 20, failed: 0 });
  });
});
