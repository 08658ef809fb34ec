// Migrations of stored documents, run before the indexes are built (connection.ts): at every API, worker and CLI
// start. Each is idempotent and, once it has run to its end, recorded in `migrations`, so a migrated store costs
// one read at start instead of a scan per migration.
import mongoose from 'mongoose';
import { logger } from '../../logger';
import { migrateListStatus } from './invoice-list-status';
import { migrateOwnerFields } from './invoice-owner-fields';
import { migrateStuckIndex } from './invoice-stuck-index';

type Migration = { id: string; run: (db: mongoose.mongo.Db) => Promise<Record<string, unknown>> };

const MIGRATIONS: Migration[] = [
  // issue 36: invoices' numberScope/numberPeriod, smeId only an SME (src/domain/owner.ts).
  { id: 'owner-fields', run: async (db) => ({ ...(await migrateOwnerFields(db.collection('invoices'), db.collection('webhook_deliveries'))) }) },
  // issue 33: invoices' listStatus, what the lists filter on (held drafts apart from the others).
  { id: 'list-status', run: async (db) => ({ ...(await migrateListStatus(db.collection('invoices'))) }) },
  // issue 33: ops stuck's index on listStatus replaces the one on status.
  { id: 'stuck-index', run: async (db) => ({ ...(await migrateStuckIndex(db.collection('invoices'))) }) },
];

/** `einvoice ops migrate`: every migration again, recorded or not (each is idempotent); what each changed. */
export async function rerunMigrations(): Promise<Record<string, Record<string, unknown>>> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('rerunMigrations before the connection is open');
  const results: Record<string, Record<string, unknown>> = {};
  for (const m of MIGRATIONS) results[m.id] = await m.run(db);
  return results;
}

export async function migrateStore(): Promise<void> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('migrateStore before the connection is open');
  const done = db.collection<{ _id: string; at: Date }>('migrations');
  const ran = new Set((await done.find({}, { projection: { _id: 1 } }).toArray()).map((m) => m._id));
  for (const m of MIGRATIONS) {
    if (ran.has(m.id)) continue;
    const result = await m.run(db);
    logger.info({ migration: m.id, ...result }, 'store migration done');
    // (two processes starting together may both run it: it is idempotent, and the record is written once)
    await done.updateOne({ _id: m.id }, { $setOnInsert: { at: new Date() } }, { upsert: true });
  }
}
