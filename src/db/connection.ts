import mongoose from 'mongoose';

/** One mongoose connection per process; models are registered on the default connection. */
export async function connectMongo(uri: string): Promise<typeof mongoose> {
  if (mongoose.connection.readyState === 1) return mongoose;
  // FerretDB 1.x and MongoDB both: no autoIndex races at request time, build indexes at start.
  mongoose.set('strictQuery', true);
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 10_000, autoIndex: false });
  await syncIndexes();
  return mongoose;
}

export async function disconnectMongo(): Promise<void> {
  await mongoose.disconnect();
}

async function syncIndexes(): Promise<void> {
  for (const model of Object.values(mongoose.models)) await model.createIndexes();
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
