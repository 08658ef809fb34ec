// Invoices stored before listStatus (issue 33) get the status they list as from the start-up migration, which also
// mends a listStatus an older build left behind, and drops the list index on status that listStatus's replaces;
// then ops stuck's index on status goes too.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { Invoice } from '../../src/db/models';
import { migrateListStatus } from '../../src/db/migrations/invoice-list-status';
import { migrateStuckIndex } from '../../src/db/migrations/invoice-stuck-index';
import { einvoice } from '../helpers/cli';
import { call } from '../helpers/http';
import { invoiceBody, postInvoice } from '../helpers/invoices';
import { newPartner } from '../helpers/partners';

const db = () => mongoose.connection.db!;

describe('invoices stored before listStatus (issue 33 migration)', () => {
  it('every status and both kinds of draft, in batches; a stale listStatus mended; the old list index dropped; a second run finds nothing', async () => {
    const invoices = db().collection(`mig_list_${randomUUID().replace(/-/g, '').slice(0, 10)}`);
    try {
      await invoices.createIndex({ numberScope: 1, status: 1, createdAt: -1, _id: -1 });
      await invoices.createIndex({ status: 1, updatedAt: 1 });
      const statuses = ['draft', 'queued', 'transformed', 'validated', 'blocked_no_credit', 'delivered', 'acknowledged', 'rejected'];
      const docs = Array.from({ length: 90 }, (_, i) => {
        const status = statuses[i % statuses.length];
        // Drafts: held (a heldReason), not held (null, or no field at all, as MongoDB's null matches it).
        const held = status === 'draft' ? [{ heldReason: 'missing_trn' }, { heldReason: null }, {}][Math.floor(i / 8) % 3] : { heldReason: null };
        return { _id: `inv-${i}`, numberScope: 'sme:s', status, ...held };
      });
      await invoices.insertMany(docs as never[]);
      // Left behind by an older build that moved the status without it.
      await invoices.updateOne({ _id: 'inv-1' } as never, { $set: { listStatus: 'draft' } });

      const result = await migrateListStatus(invoices, { batch: 7 });
      expect(result).to.deep.equal({ invoices: 90, droppedIndexes: ['numberScope_1_status_1_createdAt_-1__id_-1'] });
      const stored = new Map((await invoices.find({}).toArray()).map((d) => [d._id as unknown as string, d.listStatus]));
      for (const d of docs) {
        const expected = d.status === 'draft' ? (d.heldReason ? 'held' : 'draft') : d.status;
        expect(stored.get(d._id), d._id).to.equal(expected);
      }
      expect(stored.get('inv-1')).to.equal('queued');
      expect([...stored.values()]).to.include.members(['held', 'draft']);
      expect((await invoices.listIndexes().toArray()).map((ix) => ix.name).sort()).to.deep.equal(['_id_', 'status_1_updatedAt_1']);
      expect(await migrateListStatus(invoices)).to.deep.equal({ invoices: 0, droppedIndexes: [] });
    } finally {
      await invoices.drop().catch(() => {});
    }
  });

  it("ops stuck's index on status gives way to the one on listStatus; the other indexes on status stay", async () => {
    const invoices = db().collection(`mig_stuck_${randomUUID().replace(/-/g, '').slice(0, 10)}`);
    try {
      await invoices.createIndex({ status: 1, updatedAt: 1 });
      await invoices.createIndex({ listStatus: 1, updatedAt: 1 });
      await invoices.createIndex({ updatedAt: 1, status: 1 });
      await invoices.createIndex({ numberScope: 1, status: 1, createdAt: -1, _id: -1 });
      expect(await migrateStuckIndex(invoices)).to.deep.equal({ droppedIndexes: ['status_1_updatedAt_1'] });
      expect((await invoices.listIndexes().toArray()).map((ix) => ix.name).sort()).to.deep.equal(['_id_', 'listStatus_1_updatedAt_1', 'numberScope_1_status_1_createdAt_-1__id_-1', 'updatedAt_1_status_1']);
      expect(await migrateStuckIndex(invoices)).to.deep.equal({ droppedIndexes: [] });
    } finally {
      await invoices.drop().catch(() => {});
    }
    expect(await migrateStuckIndex(db().collection(`mig_none_${randomUUID().slice(0, 8)}`)), 'no collection yet').to.deep.equal({ droppedIndexes: [] });
  });

  it('a held invoice stored without listStatus is listed as held again after `einvoice ops migrate`', async () => {
    const p = await newPartner();
    const posted = await postInvoice(p, invoiceBody(p, (b) => delete b.buyer.address));
    expect(posted.body.status, posted.text).to.equal('held');
    const id = posted.body.invoiceId as string;
    expect(await Invoice.collection.findOne({ _id: id } as never)).to.include({ status: 'draft', listStatus: 'held' });
    const held = async () => (await call('GET', '/v1/partner/invoices?status=held', { headers: p.headers })).body.data.map((i: { invoiceId: string }) => i.invoiceId);
    expect(await held()).to.deep.equal([id]);

    await Invoice.collection.updateOne({ _id: id } as never, { $unset: { listStatus: '' } });
    expect(await held(), 'not listed without it').to.deep.equal([]);
    const run = await einvoice('ops', 'migrate');
    expect(run.code, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout)['list-status'].invoices).to.be.at.least(1);
    expect(await held()).to.deep.equal([id]);
  });
});
