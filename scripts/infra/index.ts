import path from 'node:path';
import { ensureMongo, type MongoHandle } from './mongo-server';
import { ensureTemporal, type TemporalHandle } from './temporal-server';

export { ProvisioningError, say } from './log';

export interface Infra {
  temporal: TemporalHandle;
  mongo: MongoHandle;
  stop(): Promise<void>;
}

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
export const DATA_DIR = path.join(PROJECT_ROOT, '.data');

/**
 * `npm start`: fixed ports, persistent data under .data/, Web UI on.
 * `npm test`: free ports, in-memory Temporal, throw-away data dir, headless.
 * Both reuse TEMPORAL_ADDRESS / MONGODB_URI when those are reachable.
 */
export async function provisionInfra(kind: 'dev' | 'test', env: NodeJS.ProcessEnv = process.env, opts: { durable?: boolean } = {}): Promise<Infra> {
  const namespace = env.TEMPORAL_NAMESPACE || 'default';
  const runDir = kind === 'dev' ? DATA_DIR : path.join(DATA_DIR, `test-${process.pid}`);
  const logDir = path.join(runDir, 'logs');
  const mongo = await ensureMongo({
    reuseUri: env.MONGODB_URI || (kind === 'dev' ? 'mongodb://127.0.0.1:27017/einvoice' : undefined),
    dataDir: runDir,
    port: kind === 'dev' ? Number(env.MONGODB_PORT || 27017) : 0,
    logDir,
    database: kind === 'dev' ? 'einvoice' : 'einvoice_test',
    postgresUrl: env.EINVOICE_POSTGRES_URL === 'off' ? false : env.EINVOICE_POSTGRES_URL || undefined,
    // durable (bench:e2e): a throw-away database named apart from the tests', so it keeps synchronous_commit (postgres.ts).
    postgresDatabase: kind === 'dev' ? 'einvoice' : `einvoice_${opts.durable ? 'bench' : 'test'}_${process.pid}`,
    throwAway: kind === 'test',
  });
  let temporal: TemporalHandle;
  try {
    temporal = await ensureTemporal({
      reuseAddress: env.TEMPORAL_ADDRESS || (kind === 'dev' ? '127.0.0.1:7233' : undefined),
      namespace,
      dataDir: kind === 'dev' ? runDir : undefined,
      port: kind === 'dev' ? 7233 : 0,
      uiPort: kind === 'dev' ? Number(env.TEMPORAL_UI_PORT || 8233) : null,
      logDir,
    });
  } catch (err) {
    await mongo.stop();
    throw err;
  }
  return {
    temporal,
    mongo,
    async stop() {
      await Promise.all([temporal.stop(), mongo.stop()]);
      if (kind === 'test') {
        const fs = await import('node:fs');
        fs.rmSync(runDir, { recursive: true, force: true });
      }
    },
  };
}
