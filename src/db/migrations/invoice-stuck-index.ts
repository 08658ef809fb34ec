// The index `ops stuck` and reconcile walk was on status: the held-draft test read each candidate's document. It is
// on listStatus now (src/db/models/invoice.ts), so the one on status goes; the list-status migration, which runs
// first, has given every invoice its listStatus.
import type { mongo } from 'mongoose';
import { dropIndexesWhere } from './drop-indexes';

const isOldStuckIndex = (key: mongo.Document): boolean => Object.keys(key).join() === 'status,updatedAt';

export async function migrateStuckIndex(invoices: mongo.Collection): Promise<{ droppedIndexes: string[] }> {
  return { droppedIndexes: await dropIndexesWhere(invoices, isOldStuckIndex) };
}
