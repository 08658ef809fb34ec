// Temporal worker entry: runs the invoice and webhook workflows and their activities.
import { Runtime, DefaultLogger, NativeConnection } from '@temporalio/worker';
import { config } from './config';
import { connectMongo, disconnectMongo } from './db/connection';
import { createWorker } from './temporal/worker-factory';
import { logger } from './logger';
import { temporalClient, closeTemporalClient, useTemporalConnection } from './temporal/client';
import { ensureMaintenanceSchedule } from './temporal/maintenance-schedule';

async function main(): Promise<void> {
  const cfg = config();
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await connectMongo(cfg.mongodbUri);
  const connection = await NativeConnection.connect({ address: cfg.temporalAddress });
  useTemporalConnection(connection);
  const worker = await createWorker({ address: cfg.temporalAddress, namespace: cfg.temporalNamespace, taskQueue: cfg.temporalTaskQueue, connection });
  logger.info({ taskQueue: cfg.temporalTaskQueue, temporal: cfg.temporalAddress }, 'worker started');
  // Purges expired idempotency records, TRN cache and rate-limit windows (no TTL indexes on FerretDB).
  await temporalClient()
    .then((client) => ensureMaintenanceSchedule(client, cfg.temporalTaskQueue))
    .catch((err) => logger.error({ err }, 'maintenance schedule not set up'));
  await worker.run(); // resolves after SIGINT/SIGTERM (the SDK installs the handlers) once in-flight tasks finish
  await closeTemporalClient();
  await connection.close();
  await disconnectMongo();
  logger.info('worker stopped');
}

main().catch((err) => {
  logger.error({ err }, 'worker failed');
  process.exit(1);
});
