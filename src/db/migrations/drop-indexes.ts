import type { mongo } from 'mongoose';

/**
 * Drops the collection's indexes whose key `old` recognises; the names dropped. Safe to run from several processes
 * starting at once, and on a collection not created yet.
 */
export async function dropIndexesWhere(collection: mongo.Collection, old: (key: mongo.Document) => boolean): Promise<string[]> {
  const existing = await collection.listIndexes().toArray().catch((err: { code?: number }) => (err.code === 26 ? [] : Promise.reject(err))); // 26: no collection yet
  const dropped: string[] = [];
  for (const ix of existing) {
    if (!old(ix.key as mongo.Document)) continue;
    await collection.dropIndex(ix.name as string).catch((err: { code?: number }) => {
      if (err.code !== 27) throw err; // IndexNotFound: another process starting at the same time dropped it
    });
    dropped.push(ix.name as string);
  }
  return dropped;
}
