// Stored documents of the shape before issue 36: a Tenant invoice kept its number scope in smeId
// (`tenant:<tenantId>:<mode>`) with issueYear 0, a Partner invoice its SME in smeId and the issue year in issueYear,
// and a Tenant status update row copied that smeId. Now every invoice has numberScope and numberPeriod
// (src/domain/owner.ts), smeId is only ever an SME, and issueYear is gone.
//
// Idempotent (a migrated document is not selected again) and batched. FerretDB 1.x has no aggregation-pipeline
// updates, so each batch is read and written back as one bulkWrite of $set/$unset.
import type { mongo } from 'mongoose';
import { dropIndexesWhere } from './drop-indexes';
import { numberKey, storedOwnerOf } from '../../domain/owner';

/** Documents read and written back per round trip. */
const BATCH = 500;

/** Indexes of the old shape: they name smeId or issueYear. The old unique one would refuse migrated tenant invoices. */
const isOldInvoiceIndex = (key: mongo.Document): boolean => 'issueYear' in key || 'smeId' in key;

export interface OwnerFieldsMigration {
  invoices: number;
  deliveries: number;
  droppedIndexes: string[];
}

/** The old indexes first (the old unique key would refuse migrated tenant invoices), then the documents. */
export async function migrateOwnerFields(invoices: mongo.Collection, deliveries: mongo.Collection, opts: { batch?: number } = {}): Promise<OwnerFieldsMigration> {
  const batch = opts.batch ?? BATCH;
  const droppedIndexes = await dropOldIndexes(invoices);
  return { invoices: await migrateInvoices(invoices, batch), deliveries: await migrateDeliveries(deliveries, batch), droppedIndexes };
}

function dropOldIndexes(invoices: mongo.Collection): Promise<string[]> {
  return dropIndexesWhere(invoices, isOldInvoiceIndex);
}

/** Pure: the $set and $unset that bring one old-shape invoice to the new shape. */
export function invoiceUpdate(doc: mongo.Document): { $set: mongo.Document; $unset: mongo.Document } {
  const owner = storedOwnerOf({ partnerId: doc.partnerId, smeId: doc.smeId, tenantId: doc.tenantId, mode: doc.mode });
  const { numberScope, numberPeriod } = numberKey(owner, String(doc.number), String(doc.issueDate ?? ''));
  // An old partner invoice's issueYear is the year of its issueDate; kept as stored should the two ever differ.
  const period = owner.kind === 'partner' && typeof doc.issueYear === 'number' ? doc.issueYear : numberPeriod;
  return { $set: { numberScope, numberPeriod: period, ...(owner.kind === 'tenant' ? { smeId: null } : {}) }, $unset: { issueYear: '' } };
}

async function migrateInvoices(invoices: mongo.Collection, size: number): Promise<number> {
  let migrated = 0;
  for (;;) {
    const batch = await invoices
      .find({ numberScope: { $exists: false } }, { projection: { partnerId: 1, smeId: 1, tenantId: 1, mode: 1, number: 1, issueDate: 1, issueYear: 1 } })
      .limit(size)
      .toArray();
    if (!batch.length) return migrated;
    const res = await invoices.bulkWrite(
      batch.map((doc) => ({ updateOne: { filter: { _id: doc._id, numberScope: { $exists: false } }, update: invoiceUpdate(doc) } })),
      { ordered: false },
    );
    // (a document another process migrated between our read and write is not matched, and not read again)
    migrated += res.modifiedCount;
  }
}

/** Tenant status update rows copied the invoice's smeId (the tenant's number scope): an SME they never named. */
async function migrateDeliveries(deliveries: mongo.Collection, size: number): Promise<number> {
  let migrated = 0;
  for (;;) {
    const batch = await deliveries.find({ tenantId: { $ne: null }, smeId: { $ne: null } }, { projection: { _id: 1 } }).limit(size).toArray();
    if (!batch.length) return migrated;
    const res = await deliveries.bulkWrite(
      batch.map((doc) => ({ updateOne: { filter: { _id: doc._id, tenantId: { $ne: null } }, update: { $set: { smeId: null } } } })),
      { ordered: false },
    );
    migrated += res.modifiedCount;
  }
}
