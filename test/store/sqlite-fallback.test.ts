// The SQLite fallback (machines without PostgreSQL) must honour the same contract: the suite runs again against a
// FerretDB on SQLite of its own, unless the run's server is not our FerretDB build (a real MongoDB via MONGODB_URI).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFerretOnSqlite, type MongoHandle } from '../../scripts/infra/mongo-server';
import { testInfra } from '../helpers/root-hooks';
import { describeStoreContract } from './contract';

describe('the SQLite fallback', function () {
  this.timeout(120_000);
  let server: MongoHandle | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-sqlite-'));

  before(async function () {
    const how = testInfra().mongo.how;
    if (!how.includes('ferretdb')) return this.skip(); // not our FerretDB build: nothing of ours to check
    if (how.includes('(SQLite)')) return this.skip(); // the main suite already runs on SQLite
    server = await startFerretOnSqlite({ dataDir: dir, port: 0, logDir: path.join(dir, 'logs'), database: 'einvoice_sqlite' });
  });

  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describeStoreContract('store contract on FerretDB with SQLite', () => server?.uri);
});
