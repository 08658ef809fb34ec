// Invoices stored before listStatus (src/domain/invoice-list-query.ts listStatusOf): each gets the status it lists
// as, and the list index on status gives way to the one on listStatus (src/db/models/invoice.ts).
//
// Idempotent and batched, and a repair as well: it selects every invoice whose listStatus is not the one its status
// and heldReason give (missing, or left behind by an older build that changed the status), so `einvoice ops migrate`
// also mends those. Each write names the status it was read with: a status moved meanwhile is left to its writer.
import type { mongo } from 'mongoose';
import { dropIndexesWhere } from './drop-indexes';
import { INVOICE_STATUSES } from '../../domain/invoice-status';
import type { ListStatus } from '../../domain/invoice-list-query';

/** Documents read and written back per round trip. */
const BATCH = 500;

/** The list index before listStatus: its walks skipped the drafts of the other kind (held or not) one by one. */
const isOldListIndex = (key: mongo.Document): boolean => 'status' in key && 'numberScope' in key;

/** Each listed status and the stored condition that gives it (listStatusOf, as a filter). */
const CONDITIONS: Array<[ListStatus, mongo.Document]> = [
  ...INVOICE_STATUSES.filter((s) => s !== 'draft').map((s): [ListStatus, mongo.Document] => [s, { status: s }]),
  ['draft', { status: 'draft', heldReason: null }],
  ['held', { status: 'draft', heldReason: { $ne: null } }],
];

export interface ListStatusMigration {
  invoices: number;
  droppedIndexes: string[];
}

export async function migrateListStatus(invoices: mongo.Collection, opts: { batch?: number } = {}): Promise<ListStatusMigration> {
  const batch = opts.batch ?? BATCH;
  let migrated = 0;
  for (const [listStatus, condition] of CONDITIONS) {
    for (;;) {
      const stale = await invoices.find({ ...condition, listStatus: { $ne: listStatus } }, { projection: { _id: 1 } }).limit(batch).toArray();
      if (!stale.length) break;
      const res = await invoices.bulkWrite(
        stale.map((doc) => ({ updateOne: { filter: { _id: doc._id, ...condition }, update: { $set: { listStatus } } } })),
        { ordered: false },
      );
      migrated += res.modifiedCount;
      if (res.matchedCount === 0) break; // every one moved on meanwhile (its writer sets listStatus); not read again
    }
  }
  return { invoices: migrated, droppedIndexes: await dropOldIndexes(invoices) };
}

function dropOldIndexes(invoices: mongo.Collection): Promise<string[]> {
  return dropIndexesWhere(invoices, isOldListIndex);
}
