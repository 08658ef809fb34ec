import { expect } from 'chai';
import fs from 'node:fs';
import { provisionInfra } from '../../scripts/infra';
import { isReachable } from '../../scripts/infra/net';
import { Client } from 'pg';
import mongoose from 'mongoose';
import { FERRETDB_CLIENT_POOL } from '../../scripts/infra/mongo-server';
import { isLoopback, isThrowAwayDatabase, withoutTlsOnLoopback } from '../../scripts/infra/postgres';
import { ferretDbEnv, goServerEnv } from '../../scripts/infra/process';
import { schedule, DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS } from '../../src/config';
import { requestedServers, testInfra } from '../helpers/root-hooks';

describe('provisioning', () => {
  it('the run started its own servers unless TEMPORAL_ADDRESS / MONGODB_URI named reachable ones', () => {
    const infra = testInfra();
    if (!requestedServers.temporal) expect(infra.temporal.started).to.equal(true);
    if (!requestedServers.mongo) expect(infra.mongo.started).to.equal(true);
    expect(infra.temporal.address).to.match(/^127\.0\.0\.1:\d+$/);
    expect(infra.mongo.uri).to.match(/^mongodb:\/\//);
  });

  it('reuses reachable servers from TEMPORAL_ADDRESS and MONGODB_URI, and stopping leaves them running', async () => {
    const running = testInfra();
    const reused = await provisionInfra('test', { TEMPORAL_ADDRESS: running.temporal.address, MONGODB_URI: running.mongo.uri });
    expect(reused.temporal).to.include({ started: false, how: 'reused', address: running.temporal.address });
    expect(reused.mongo).to.include({ started: false, how: 'reused', uri: running.mongo.uri });
    await reused.stop();
    expect(await isReachable(running.temporal.address)).to.equal(true);
  });

  it('starts the Go servers (FerretDB, the Temporal dev server) with GOMAXPROCS=1 unless the caller set it', function () {
    expect(goServerEnv({ PATH: '/bin' })).to.deep.equal({ PATH: '/bin', GOMAXPROCS: '1' });
    expect(goServerEnv({ GOMAXPROCS: '4' })).to.deep.equal({ GOMAXPROCS: '4' });
    const infra = testInfra();
    const started = [infra.temporal, infra.mongo].filter((s) => s.started && s.pid && /temporal|ferretdb/.test(s.how));
    if (!started.length || process.env.GOMAXPROCS) this.skip(); // servers given by the caller, or a chosen GOMAXPROCS
    for (const server of started) {
      const environ = fs.readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0');
      expect(environ, server.how).to.include('GOMAXPROCS=1');
    }
  });

  it('starts FerretDB with GOGC=400 unless the caller set GOGC', function () {
    expect(ferretDbEnv({ PATH: '/bin' })).to.deep.equal({ PATH: '/bin', GOMAXPROCS: '1', GOGC: '400' });
    expect(ferretDbEnv({ GOGC: '100', GOMAXPROCS: '2' })).to.deep.equal({ GOGC: '100', GOMAXPROCS: '2' });
    const mongo = testInfra().mongo;
    if (!mongo.started || !mongo.pid || !/ferretdb/.test(mongo.how) || process.env.GOGC) this.skip();
    const environ = fs.readFileSync(`/proc/${mongo.pid}/environ`, 'utf8').split('\0');
    expect(environ).to.include('GOGC=400');
  });

  it('connects FerretDB to a PostgreSQL on loopback without TLS, unless the URL names an sslmode', async function () {
    const url = (s: string) => {
      const u = new URL(s);
      withoutTlsOnLoopback(u);
      return u.toString();
    };
    expect(url('postgres://postgres@127.0.0.1:5432/x')).to.equal('postgres://postgres@127.0.0.1:5432/x?sslmode=disable');
    expect(url('postgres://u@localhost/x')).to.equal('postgres://u@localhost/x?sslmode=disable');
    expect(url('postgres://u@[::1]:5432/x')).to.equal('postgres://u@[::1]:5432/x?sslmode=disable');
    expect(url('postgres://u@127.0.0.1/x?sslmode=require')).to.equal('postgres://u@127.0.0.1/x?sslmode=require');
    expect(url('postgres://u@db.example.com/x')).to.equal('postgres://u@db.example.com/x');

    // The run's own FerretDB on PostgreSQL: every connection it holds to its database is unencrypted.
    const mongo = testInfra().mongo;
    if (!mongo.started || !mongo.pid || !/PostgreSQL/.test(mongo.how)) this.skip();
    const arg = fs.readFileSync(`/proc/${mongo.pid}/cmdline`, 'utf8').split('\0').find((a) => a.startsWith('--postgresql-url='));
    const pgUrl = new URL(arg!.slice('--postgresql-url='.length));
    if (!isLoopback(pgUrl)) this.skip();
    expect(pgUrl.searchParams.get('sslmode')).to.equal('disable');
    const client = new Client({ connectionString: pgUrl.toString() });
    await client.connect();
    try {
      const { rows } = await client.query<{ ssl: boolean }>(
        "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = $1 AND a.backend_type = 'client backend' AND a.pid <> pg_backend_pid()",
        [pgUrl.pathname.slice(1)],
      );
      expect(rows.length, 'FerretDB connections to its database').to.be.greaterThan(0);
      expect(rows.map((r) => r.ssl)).to.not.include(true);
    } finally {
      await client.end();
    }
  });

  it("a run's throw-away PostgreSQL database commits without waiting for the WAL flush (npm start's keeps the default) and compresses with lz4, with short GIN pending lists", async function () {
    expect(isThrowAwayDatabase('einvoice_test_4242')).to.equal(true);
    expect(isThrowAwayDatabase('einvoice')).to.equal(false);
    const mongo = testInfra().mongo;
    if (!mongo.started || !mongo.pid || !/PostgreSQL/.test(mongo.how)) this.skip();
    const arg = fs.readFileSync(`/proc/${mongo.pid}/cmdline`, 'utf8').split('\0').find((a) => a.startsWith('--postgresql-url='));
    const pgUrl = new URL(arg!.slice('--postgresql-url='.length));
    expect(isThrowAwayDatabase(pgUrl.pathname.slice(1))).to.equal(true);
    // A new session on that database gets the database's setting, as each of FerretDB's connections does.
    const client = new Client({ connectionString: pgUrl.toString() });
    await client.connect();
    try {
      const { rows } = await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
      expect(rows[0].synchronous_commit).to.equal('off');
      // and stores large documents compressed with lz4 (when the server has it: CREATE with lz4 fails otherwise)
      const lz4 = await client.query("CREATE TEMP TABLE lz4_probe (v text COMPRESSION lz4)").then(() => true, () => false);
      if (lz4) expect((await client.query<{ default_toast_compression: string }>('SHOW default_toast_compression')).rows[0].default_toast_compression).to.equal('lz4');
      // and keeps GIN pending lists short: the pushdown's type probes read the whole list on every query
      expect((await client.query<{ gin_pending_list_limit: string }>('SHOW gin_pending_list_limit')).rows[0].gin_pending_list_limit).to.equal('64kB');
    } finally {
      await client.end();
    }
  });

  it('our processes open at most FERRETDB_CLIENT_POOL connections each to the FerretDB the run started', function () {
    const mongo = testInfra().mongo;
    if (!mongo.started || !/ferretdb/.test(mongo.how)) this.skip(); // a server given by the caller keeps its URI
    expect(new URL(mongo.uri).searchParams.get('maxPoolSize')).to.equal(String(FERRETDB_CLIENT_POOL));
    expect(mongoose.connection.getClient().options.maxPoolSize).to.equal(FERRETDB_CLIENT_POOL);
  });

  it('registers the Keyword search attributes', async () => {
    const { Connection } = await import('@temporalio/client');
    const connection = await Connection.connect({ address: testInfra().temporal.address });
    try {
      const res = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
      for (const name of ['InvoiceStatus', 'InvoiceNumber', 'SellerTrn', 'Mode', 'PartnerId']) {
        expect(res.customAttributes, name).to.have.property(name);
      }
    } finally {
      await connection.close();
    }
  });

  it('reads WEBHOOK_RETRY_SCHEDULE units and defaults to 30 s, 2 m, 10 m, 30 m, 1 h, 3 h', () => {
    expect(schedule('30s,2m,1h,150ms,5')).to.deep.equal([30_000, 120_000, 3_600_000, 150, 5]);
    expect(DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS).to.deep.equal([30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000]);
    expect(() => schedule('soon')).to.throw(/WEBHOOK_RETRY_SCHEDULE/);
  });
});
