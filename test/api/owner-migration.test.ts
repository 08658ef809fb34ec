// Stored documents of the owner shape before issue 36 (a Tenant invoice's number scope in smeId with issueYear 0, a
// Partner invoice's year in issueYear, a Tenant delivery row's smeId copied from its invoice) are brought to the
// current shape (numberScope, numberPeriod, smeId only an SME) by the start-up migration, and then read, listed,
// keep their numbers taken and are deleted as any other.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { Invoice, WebhookDelivery } from '../../src/db/models';
import { migrateOwnerFields } from '../../src/db/migrations/invoice-owner-fields';
import { einvoice } from '../helpers/cli';
import { call } from '../helpers/http';
import { getInvoice, invoiceBody, postInvoice } from '../helpers/invoices';
import { newPartner } from '../helpers/partners';
import { mutation, newTenant, tenantInvoice } from '../helpers/tenants';

const db = () => mongoose.connection.db!;
const migrate = () => migrateOwnerFields(db().collection('invoices'), db().collection('webhook_deliveries'));

describe('stored documents of the old owner shape (issue 36 migration)', () => {
  it('Partner and Tenant invoices of the old shape: migrated, then read, listed, their numbers taken, deleted', async () => {
    const p = await newPartner();
    const t = await newTenant();
    // Held (no buyer address), so that no worker of the run hands it over before the DELETE below.
    const partnerBody = invoiceBody(p, (b) => delete b.buyer.address);
    const posted = await postInvoice(p, partnerBody);
    expect(posted.status, posted.text).to.equal(201);
    expect(posted.body.status).to.equal('held');
    const partnerId = posted.body.invoiceId as string;
    const tenantBody = tenantInvoice(t);
    const drafted = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantBody });
    expect(drafted.status, drafted.text).to.equal(201);
    const tenantId = drafted.body.id as string;

    // Back to the old shape, as an older build stored them.
    const tenantScope = `tenant:${t.tenantId}:test`;
    await Invoice.collection.updateOne({ _id: partnerId } as never, { $set: { issueYear: 2025 }, $unset: { numberScope: '', numberPeriod: '' } });
    await Invoice.collection.updateOne({ _id: tenantId } as never, { $set: { smeId: tenantScope, issueYear: 0 }, $unset: { numberScope: '', numberPeriod: '' } });
    const deliveryId = randomUUID();
    await WebhookDelivery.collection.insertOne({
      _id: deliveryId, invoiceId: tenantId, partnerId: null, tenantId: t.tenantId, smeId: tenantScope, mode: 'test', event: 'tenant.status_update', eventStatus: 'delivered',
      eventReason: null, trigger: 'api', status: 'exhausted', attempts: 1, maxAttempts: 1, retryScheduleMs: [], nextAttemptAt: new Date(), attemptLog: [],
    } as never);
    expect((await getInvoice(p, partnerId)).status, 'the old shape is not found by the current reads').to.equal(404);

    const first = await migrate();
    expect(first.invoices).to.be.at.least(2);
    expect(first.deliveries).to.be.at.least(1);
    expect((await migrate()).invoices, 'a second run finds nothing left').to.equal(0);

    const storedPartner = await Invoice.collection.findOne({ _id: partnerId } as never);
    expect(storedPartner).to.include({ partnerId: p.partnerId, smeId: p.sme.smeId, numberScope: `sme:${p.sme.smeId}`, numberPeriod: 2025 });
    expect(storedPartner).to.not.have.property('issueYear');
    const storedTenant = await Invoice.collection.findOne({ _id: tenantId } as never);
    expect(storedTenant).to.include({ partnerId: null, smeId: null, tenantId: t.tenantId, numberScope: tenantScope, numberPeriod: 0 });
    expect(storedTenant).to.not.have.property('issueYear');
    expect(await WebhookDelivery.collection.findOne({ _id: deliveryId } as never)).to.include({ smeId: null, tenantId: t.tenantId });

    // Read and listed.
    expect((await getInvoice(p, partnerId)).body).to.include({ invoiceId: partnerId, number: partnerBody.number });
    const partnerList = await call('GET', `/v1/partner/invoices?number=${encodeURIComponent(partnerBody.number)}`, { headers: p.headers });
    expect(partnerList.body.data.map((i: { invoiceId: string }) => i.invoiceId)).to.deep.equal([partnerId]);
    const tenantGet = await call('GET', `/v1/invoices/${tenantId}`, { headers: t.headers });
    expect(tenantGet.status, tenantGet.text).to.equal(200);
    expect(tenantGet.body).to.include({ id: tenantId, number: tenantBody.number });
    const tenantList = await call('GET', '/v1/invoices', { headers: t.headers });
    expect(tenantList.body.data.map((i: { id: string }) => i.id)).to.deep.equal([tenantId]);

    // The numbers stay taken.
    const again = await postInvoice(p, invoiceBody(p, (b) => (b.number = partnerBody.number)));
    expect(again.status).to.equal(409);
    expect(again.body).to.include({ code: 'invoice_number_duplicate' });
    expect(again.body.meta).to.include({ invoiceId: partnerId });
    const tenantAgain = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t, (b) => (b.number = tenantBody.number)) });
    expect(tenantAgain.status).to.equal(409);
    expect(tenantAgain.body).to.include({ code: 'invoice_number_duplicate' });

    // Deleted, which frees the number.
    const deleted = await call('DELETE', `/v1/partner/invoices/${partnerId}`, { headers: p.headers });
    expect(deleted.status, deleted.text).to.equal(204);
    expect((await getInvoice(p, partnerId)).status).to.equal(404);
    expect((await postInvoice(p, invoiceBody(p, (b) => (b.number = partnerBody.number)))).status).to.equal(201);
  });

  it('drops the old indexes before it migrates (the old unique key would refuse migrated tenant invoices), in batches', async () => {
    const suffix = randomUUID().replace(/-/g, '').slice(0, 10);
    const invoices = db().collection(`mig_invoices_${suffix}`);
    const deliveries = db().collection(`mig_deliveries_${suffix}`);
    try {
      await invoices.createIndex({ smeId: 1, issueYear: 1, number: 1 }, { unique: true });
      await invoices.createIndex({ partnerId: 1, smeId: 1, createdAt: -1, _id: -1 });
      await invoices.createIndex({ status: 1, updatedAt: 1 });
      // 120 invoices of 3 tenants and an SME: one number per tenant each, which the old key allowed (smeId differed).
      const docs = Array.from({ length: 120 }, (_, i) => {
        const tenant = i % 4 < 3 ? `t${i % 4}` : null;
        const number = `N-${Math.floor(i / 4)}`;
        return tenant
          ? { _id: `inv-${i}`, partnerId: null, tenantId: tenant, smeId: `tenant:${tenant}:live`, mode: 'live', number, issueYear: 0, issueDate: '2026-03-01' }
          : { _id: `inv-${i}`, partnerId: 'p', tenantId: null, smeId: 's', mode: 'test', number, issueYear: 2026, issueDate: '2026-03-01' };
      });
      await invoices.insertMany(docs as never[]);
      await deliveries.insertOne({ _id: 'd1', invoiceId: 'inv-0', partnerId: null, tenantId: 't0', smeId: 'tenant:t0:live' } as never);

      const result = await migrateOwnerFields(invoices, deliveries, { batch: 25 });
      expect(result.droppedIndexes.sort()).to.deep.equal(['partnerId_1_smeId_1_createdAt_-1__id_-1', 'smeId_1_issueYear_1_number_1']);
      expect(result).to.include({ invoices: 120, deliveries: 1 });
      expect((await invoices.listIndexes().toArray()).map((ix) => ix.name).sort()).to.deep.equal(['_id_', 'status_1_updatedAt_1']);
      expect(await invoices.countDocuments({ numberScope: { $exists: false } })).to.equal(0);
      expect(await invoices.countDocuments({ issueYear: { $exists: true } })).to.equal(0);
      expect(await invoices.findOne({ _id: 'inv-5' } as never)).to.include({ smeId: null, tenantId: 't1', numberScope: 'tenant:t1:live', numberPeriod: 0 });
      expect(await invoices.findOne({ _id: 'inv-7' } as never)).to.include({ smeId: 's', partnerId: 'p', numberScope: 'sme:s', numberPeriod: 2026 });
      // The current unique key builds on the migrated documents.
      await invoices.createIndex({ numberScope: 1, numberPeriod: 1, number: 1 }, { unique: true });
      expect(await migrateOwnerFields(invoices, deliveries)).to.deep.equal({ invoices: 0, deliveries: 0, droppedIndexes: [] });
    } finally {
      await invoices.drop().catch(() => {});
      await deliveries.drop().catch(() => {});
    }
  });

  it('`einvoice ops migrate` runs the migrations again: an old-shape invoice written since is migrated, JSON per migration', async () => {
    const p = await newPartner();
    const posted = await postInvoice(p, invoiceBody(p));
    const id = posted.body.invoiceId as string;
    await Invoice.collection.updateOne({ _id: id } as never, { $set: { issueYear: 2025 }, $unset: { numberScope: '', numberPeriod: '' } });
    const run = await einvoice('ops', 'migrate');
    expect(run.code, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout)['owner-fields'].invoices).to.be.at.least(1);
    expect(await Invoice.collection.findOne({ _id: id } as never)).to.include({ numberScope: `sme:${p.sme.smeId}`, numberPeriod: 2025 });
    expect((await einvoice('ops', 'migrate', 'extra')).code, 'no arguments').to.equal(2);
  });
});
