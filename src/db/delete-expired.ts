// The periodic purges (src/services/purge-expired.ts): documents past their expiresAt, deleted in batches.
import type { Model } from 'mongoose';

/**
 * Deletes the documents of model whose expiresAt is at or before now; returns how many. A deleteMany with a range
 * on expiresAt reads the whole collection on the embedded FerretDB (a delete's range is not sent to PostgreSQL);
 * a sorted, limited find is answered from the {expiresAt: 1} index and a delete by _id from the _id index, so a
 * purge costs what it removes, not what the collection holds. The delete repeats the condition: a document renewed
 * meanwhile stays.
 */
export async function deleteExpired(model: Model<any>, now: Date, batch = 500): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await model.find({ expiresAt: { $lte: now } }, { _id: 1 }).sort({ expiresAt: 1 }).limit(batch).lean<Array<{ _id: unknown }>>();
    if (!rows.length) return deleted;
    const res = await model.bulkWrite(
      rows.map((r) => ({ deleteOne: { filter: { _id: r._id, expiresAt: { $lte: now } } } })),
      { ordered: false },
    );
    deleted += res.deletedCount;
    if (rows.length < batch) return deleted;
  }
}
