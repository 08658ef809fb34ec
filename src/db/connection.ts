import mongoose from 'mongoose';
import { migrateStore } from './migrations';

/** One mongoose connection per process; models are registered on the default connection. */
export async function connectMongo(uri: string): Promise<typeof mongoose> {
  if (mongoose.connection.readyState === 1) return mongoose;
  // FerretDB 1.x and MongoDB both: no autoIndex races at request time, build indexes at start.
  mongoose.set('strictQuery', true);
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 10_000, autoIndex: false });
  // Documents of an older shape first: the indexes built next are declared for the current one.
  await migrateStore();
  await syncIndexes();
  return mongoose;
}

export async function disconnectMongo(): Promise<void> {
  await mongoose.disconnect();
}

/**
 * The indexes each collection needs are declared in its model file (with the query each one serves). They are
 * built at start and then checked: a missing index means a full scan on a hot path or a lost uniqueness
 * guarantee, so the process refuses to start rather than run degraded.
 */
async function syncIndexes(): Promise<void> {
  for (const model of Object.values(mongoose.models)) await model.createIndexes();
  const missing = await missingIndexes();
  if (missing.length) throw new Error(`the MongoDB server did not build these indexes: ${missing.join('; ')}`);
}

/** Declared indexes (key and uniqueness) that the server does not report. */
async function missingIndexes(): Promise<string[]> {
  const missing: string[] = [];
  for (const model of Object.values(mongoose.models)) {
    const existing = await model.collection.listIndexes().toArray();
    const have = new Set(existing.map((ix) => `${JSON.stringify(ix.key)}${ix.unique ? ' unique' : ''}`));
    for (const [fields, options] of model.schema.indexes()) {
      const want = `${JSON.stringify(fields)}${options?.unique ? ' unique' : ''}`;
      if (!have.has(want)) missing.push(`${model.collection.collectionName} ${want}`);
    }
  }
  return missing;
}

/** Cheap liveness check used by /readyz. */
export async function pingMongo(): Promise<boolean> {
  try {
    const db = mongoose.connection.db;
    if (!db) return false;
    await db.admin().ping();
    return true;
  } catch {
    return false;
  }
}
