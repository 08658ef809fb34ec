// A request that died between storing its invoices and storing its answer (the API killed mid-request) leaves
// in-flight idempotency records and invoices without a workflow. The same request resent with the same key, once
// the dead request's lease has run out, adopts those invoices (same ids) and starts their pipelines, instead of
// answering 409 invoice_number_duplicate for its own invoices. The crash is reproduced by writing exactly what the
// dead request left behind; the fault suite (test/faults/4-api-kill.fault.ts) does it with a real kill -9.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { IdempotencyRecord, Invoice, Partner, SmeConnection } from '../../src/db/models';
import { hashRequest } from '../../src/domain/request-hash';
import { IN_FLIGHT_LEASE_MS, keepLeases, originKey } from '../../src/services/idempotency';
import { partnerOwner, type PartnerOwner } from '../../src/domain/owner';
import { prepareInvoice } from '../../src/services/invoices-create';
import { call } from '../helpers/http';
import { invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { ensureWorker } from '../helpers/worker';

const BULK_PATH = '/v1/partner/invoices/bulk';

async function ownerOf(p: TestPartner): Promise<PartnerOwner> {
  const partner = await Partner.findById(p.partnerId).lean();
  const sme = await SmeConnection.findById(p.sme.smeId).lean();
  return partnerOwner(partner!, sme!);
}

/** What a request killed after its insert leaves: its key in flight (owner gone, lease over) and maybe its invoice. */
async function leftByCrash(p: TestPartner, key: string, requestHash: string, body: any | null): Promise<string | null> {
  const scope = `partner:${p.partnerId}:sme:${p.sme.smeId}`;
  const now = Date.now();
  await IdempotencyRecord.create({ scope, key, requestHash, state: 'in_flight', owner: 'killed-process', lockedUntil: new Date(now - 1000), expiresAt: new Date(now + 3600_000) });
  if (!body) return null;
  const prepared = prepareInvoice(await ownerOf(p), body, { origin: originKey(scope, { key, requestHash }) });
  await Invoice.create(prepared.doc);
  return prepared.created._id;
}

describe('crash recovery: a resent request adopts the invoices of its dead attempt', function () {
  this.timeout(120_000);
  before(() => ensureWorker());

  it('a running request renews its in-flight lease (and only its own); a dead one keeps a lease of seconds, not minutes', async () => {
    expect(IN_FLIGHT_LEASE_MS).to.be.at.most(60_000);
    const scope = `test:${randomUUID()}`;
    const soon = new Date(Date.now() + 1000);
    const expiresAt = new Date(Date.now() + 3600_000);
    const mine = await IdempotencyRecord.create({ scope, key: 'mine', requestHash: 'h', state: 'in_flight', owner: 'me', lockedUntil: soon, expiresAt });
    const other = await IdempotencyRecord.create({ scope, key: 'other', requestHash: 'h', state: 'in_flight', owner: 'someone-else', lockedUntil: soon, expiresAt });
    const renewing = keepLeases([{ _id: mine._id, owner: 'me' }, { _id: other._id, owner: 'not-the-owner' }]);
    try {
      await new Promise((r) => setTimeout(r, 11_000)); // one renewal period
    } finally {
      renewing.stop();
    }
    const [renewed, untouched] = await Promise.all([IdempotencyRecord.findById(mine._id).lean(), IdempotencyRecord.findById(other._id).lean()]);
    expect(renewed!.lockedUntil!.getTime()).to.be.greaterThan(Date.now() + IN_FLIGHT_LEASE_MS / 2);
    expect(untouched!.lockedUntil!.getTime()).to.equal(soon.getTime());
  });

  it('bulk: items inserted before the crash keep their ids, the one never inserted is created, all acknowledged', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const bodies = [invoiceBody(p), invoiceBody(p), invoiceBody(p)];
    const itemHash = (i: number) => hashRequest('POST', `${BULK_PATH}#item`, bodies[i]);
    const stranded = [await leftByCrash(p, `${key}:0`, itemHash(0), bodies[0]), await leftByCrash(p, `${key}:1`, itemHash(1), bodies[1]), await leftByCrash(p, `${key}:2`, itemHash(2), null)];

    const res = await call('POST', BULK_PATH, { headers: { ...p.headers, 'Idempotency-Key': key }, json: { invoices: bodies } });
    expect(res.status).to.equal(207);
    expect(res.body.summary).to.deep.equal({ total: 3, ok: 3, failed: 0 });
    const results = res.body.results as { ok: boolean; invoiceId: string; status: string }[];
    expect(results.map((r) => r.status)).to.deep.equal(['queued', 'queued', 'queued']);
    expect(results[0].invoiceId).to.equal(stranded[0]);
    expect(results[1].invoiceId).to.equal(stranded[1]);
    expect(await Invoice.countDocuments({ smeId: p.sme.smeId })).to.equal(3);
    for (const r of results) expect((await waitForStatus(p, r.invoiceId, ['acknowledged', 'rejected'])).status).to.equal('acknowledged');

    // The answers are stored now: the same request replays them.
    const again = await call('POST', BULK_PATH, { headers: { ...p.headers, 'Idempotency-Key': key }, json: { invoices: bodies } });
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.results.map((r: any) => r.invoiceId)).to.deep.equal(results.map((r) => r.invoiceId));
  });

  it('single POST: the same id, queued, acknowledged; another key with the same number is still a 409', async () => {
    const p = await newPartner();
    const key = randomUUID();
    const body = invoiceBody(p);
    const stranded = await leftByCrash(p, key, hashRequest('POST', '/v1/partner/invoices', body), body);

    const res = await postInvoice(p, body, key);
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ invoiceId: stranded, status: 'queued' });
    expect((await waitForStatus(p, stranded!, ['acknowledged', 'rejected'])).status).to.equal('acknowledged');

    const other = await postInvoice(p, body, randomUUID());
    expect(other.status).to.equal(409);
    expect(other.body.code).to.equal('invoice_number_duplicate');
  });
});
