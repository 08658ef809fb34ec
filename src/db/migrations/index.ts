// Migrations of stored documents, run before the indexes are built (connection.ts): at every API, worker and CLI
// start, each idempotent, so a store already migrated costs one empty read per migration.
import mongoose from 'mongoose';
import { logger } from '../../logger';
import { migrateOwnerFields } from './invoice-owner-fields';

export async function migrateStore(): Promise<void> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('migrateStore before the connection is open');
  const owner = await migrateOwnerFields(db.collection('invoices'), db.collection('webhook_deliveries'));
  if (owner.invoices || owner.deliveries || owner.droppedIndexes.length) logger.info({ migration: 'owner-fields', ...owner }, 'stored documents migrated');
}
