// Temporal worker entry: runs the invoice and webhook workflows and their activities. The wiring (activities,
// the ASP of each mode) is in ./worker/; src/temporal/ holds only the contract, the client and the Web UI text.
import { Runtime, DefaultLogger, NativeConnection } from '@temporalio/worker';
import { config } from './config';
import { connectMongo, disconnectMongo } from './db/connection';
import { createWorker } from './worker/create-worker';
import { logger } from './logger';
import { temporalClient, closeTemporalClient, useTemporalConnection } from './temporal/client';
import { ensureMaintenanceSchedule } from './temporal/maintenance-schedule';
import { freeLoopbackPort, sdkMetricsTelemetry, serveWorkerMetrics } from './worker-metrics';
import { guardStart } from './start-guard';

async function main(): Promise<void> {
  guardStart('worker'); // production: exits here, naming every unsafe setting
  const cfg = config();
  // WORKER_METRICS_PORT: our registry and the SDK's metrics (exported on a loopback port, appended) on one /metrics.
  const sdkPort = cfg.workerMetricsPort !== null ? await freeLoopbackPort() : null;
  Runtime.install({ logger: new DefaultLogger('WARN'), ...(sdkPort !== null ? { telemetryOptions: sdkMetricsTelemetry(`127.0.0.1:${sdkPort}`) } : {}) });
  const metricsServer =
    cfg.workerMetricsPort !== null ? await serveWorkerMetrics({ port: cfg.workerMetricsPort, host: cfg.workerMetricsHost, sdkMetricsUrl: `http://127.0.0.1:${sdkPort}/metrics` }) : null;
  if (metricsServer) logger.info({ port: cfg.workerMetricsPort, host: cfg.workerMetricsHost }, 'worker metrics on /metrics');
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
  metricsServer?.close();
  logger.info('worker stopped');
}

main().catch((err) => {
  logger.error({ err }, 'worker failed');
  process.exit(1);
});
