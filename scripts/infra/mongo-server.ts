import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { ProvisioningError, say } from './log';
import { freePort, isReachable, waitUntil } from './net';
import { ferretDbEnv, startLogged, tail, type ManagedProcess } from './process';
import { patchFerretSource, PATCH_LEVEL } from './ferretdb-patch';
import { findPostgres, isThrowAwayDatabase, type PostgresStore } from './postgres';
import { isExecutable, onPath, runVisible, toolDir } from './tools-cache';

export const FERRETDB_VERSION = '1.24.2';

/**
 * Connections each of our processes opens to the FerretDB we start (the URI's maxPoolSize; the driver's default is
 * 100). Our FerretDB runs at most 16 write commands at once, and every client connection it serves holds PostgreSQL
 * backends of its own: with 100 per process, PostgreSQL spent more CPU per invoice (more backends, each preparing
 * the same statements, and more switches between them; figures: docs/performance.md). A MONGODB_URI given by the caller keeps
 * its own pool settings.
 */
export const FERRETDB_CLIENT_POOL = 8;

export interface MongoOptions {
  /** URI to reuse when reachable (MONGODB_URI). */
  reuseUri?: string;
  /** Where a server we start keeps its data. */
  dataDir: string;
  /** Port for a server we start; 0 picks a free one. */
  port: number;
  logDir: string;
  /** Database name appended to the URI of a server we start. */
  database: string;
  /** PostgreSQL for FerretDB (EINVOICE_POSTGRES_URL, else 127.0.0.1:5432 when reachable); false: SQLite only. */
  postgresUrl?: string | false;
  /** PostgreSQL database FerretDB stores in; created when missing (a test run's is dropped at stop). */
  postgresDatabase: string;
  /** Drop the PostgreSQL database when the server stops (test runs). */
  throwAway: boolean;
}

export interface MongoHandle {
  uri: string;
  started: boolean;
  how: string;
  /** The server process when we started it (benchmarks read its CPU time). */
  pid?: number;
  stop(): Promise<void>;
}

/**
 * Reuse a reachable server, else mongod on PATH, else FerretDB (built with Go and patched for atomicity) on
 * PostgreSQL when one is reachable, else FerretDB on SQLite. docs/decisions/0024-patched-ferretdb-store.md says why.
 */
export async function ensureMongo(opts: MongoOptions): Promise<MongoHandle> {
  if (opts.reuseUri && (await pings(opts.reuseUri))) {
    say(`MongoDB: reusing the server at ${redact(opts.reuseUri)}`);
    return { uri: opts.reuseUri, started: false, how: 'reused', stop: async () => {} };
  }
  const mongod = onPath('mongod');
  if (mongod) return startMongod(mongod, opts);
  const binary = await ferretBinary();
  const pg = opts.postgresUrl === false ? null : await findPostgres(opts.postgresUrl, opts.postgresDatabase);
  return startFerret(binary, opts, pg);
}

/** FerretDB on SQLite, whatever else is reachable: the fallback, started on its own (the store tests check it too). */
export async function startFerretOnSqlite(opts: Pick<MongoOptions, 'dataDir' | 'port' | 'logDir' | 'database'>): Promise<MongoHandle> {
  return startFerret(await ferretBinary(), { ...opts, postgresDatabase: '', throwAway: false }, null);
}

async function pings(uri: string): Promise<boolean> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1500, connectTimeoutMS: 1500 });
  try {
    await client.connect();
    await client.db().admin().ping();
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => {});
  }
}

async function startMongod(binary: string, opts: MongoOptions): Promise<MongoHandle> {
  const port = opts.port || (await freePort());
  const dbPath = path.join(opts.dataDir, 'mongod');
  fs.mkdirSync(dbPath, { recursive: true });
  fs.mkdirSync(opts.logDir, { recursive: true });
  const logFile = path.join(opts.logDir, `mongod-${port}.log`);
  say(`MongoDB: starting mongod from PATH on 127.0.0.1:${port}`);
  const proc = startLogged(binary, ['--dbpath', dbPath, '--port', String(port), '--bind_ip', '127.0.0.1'], logFile);
  const uri = `mongodb://127.0.0.1:${port}/${opts.database}`;
  await waitForMongo(uri, proc, logFile, 'mongod');
  return { uri, started: true, how: binary, pid: proc.child.pid, stop: () => proc.stop() };
}

async function ferretBinary(): Promise<string> {
  const dir = toolDir('ferretdb', `${FERRETDB_VERSION}-${PATCH_LEVEL}`);
  const file = path.join(dir, 'ferretdb');
  if (isExecutable(file)) return file;
  // Two cold runs at once (npm start and npm test): one builds, the other waits for its binary.
  const lock = `${dir}.building`;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  try {
    fs.mkdirSync(lock);
  } catch {
    say(`MongoDB: another process is building FerretDB (${lock}); waiting for it...`);
    const built = await waitUntil(async () => isExecutable(file) || !fs.existsSync(lock), 30 * 60_000, 2000);
    if (built && isExecutable(file)) return file;
    fs.rmSync(lock, { recursive: true, force: true }); // that build failed or died: build it ourselves
    return ferretBinary();
  }
  try {
    return buildFerret(dir, file);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function buildFerret(dir: string, file: string): string {
  const go = onPath('go');
  if (!go) {
    throw new ProvisioningError(
      'MongoDB-compatible server',
      'no mongod on PATH and Go is not installed to build FerretDB',
      'install MongoDB (mongod) or Go >= 1.22, or set MONGODB_URI to a running server',
    );
  }
  say(`MongoDB: building FerretDB v${FERRETDB_VERSION} (patched: ${PATCH_LEVEL}) from the Go module proxy into ${dir} (first run only; takes a few minutes)...`);
  const env = { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOFLAGS: '-mod=mod' };
  fs.mkdirSync(dir, { recursive: true });
  const moduleDir = downloadModule(go, env, dir);
  // The module lacks the generated build/version/version.txt; without it the binary panics at start.
  const src = path.join(dir, 'src');
  fs.rmSync(src, { recursive: true, force: true });
  fs.cpSync(moduleDir, src, { recursive: true });
  makeWritable(src);
  fs.writeFileSync(path.join(src, 'build', 'version', 'version.txt'), `v${FERRETDB_VERSION}`);
  patchFerretSource(src);
  const status = runVisible(go, ['build', '-buildvcs=false', '-o', file, './cmd/ferretdb'], { cwd: src, env });
  if (status !== 0 || !isExecutable(file)) {
    throw new ProvisioningError('FerretDB build', `go build exited with ${status}`, 'check Go and access to the Go module proxy (GOPROXY), or install mongod');
  }
  fs.rmSync(src, { recursive: true, force: true });
  say('MongoDB: FerretDB build finished and cached.');
  return file;
}

function downloadModule(go: string, env: NodeJS.ProcessEnv, dir: string): string {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const result = spawnSync(go, ['mod', 'download', '-json', `github.com/FerretDB/FerretDB@v${FERRETDB_VERSION}`], { env, encoding: 'utf8', cwd: dir });
  try {
    const dir = JSON.parse(result.stdout).Dir as string | undefined;
    if (result.status === 0 && dir) return dir;
  } catch {
    /* reported below */
  }
  const why = result.error?.message ?? (result.stderr || result.stdout || '').trim().split('\n').pop();
  throw new ProvisioningError('FerretDB download', `go mod download failed: ${why}`, 'check access to the Go module proxy (GOPROXY)');
}

function makeWritable(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    fs.chmodSync(full, entry.isDirectory() ? 0o755 : 0o644);
    if (entry.isDirectory()) makeWritable(full);
  }
}

async function startFerret(binary: string, opts: MongoOptions, pg: PostgresStore | null): Promise<MongoHandle> {
  const port = opts.port || (await freePort());
  if (await isReachable(`127.0.0.1:${port}`)) {
    throw new ProvisioningError('FerretDB', `port ${port} is taken by something else`, 'stop it, or set MONGODB_URI to reuse a running server');
  }
  fs.mkdirSync(opts.logDir, { recursive: true });
  const logFile = path.join(opts.logDir, `ferretdb-${port}.log`);
  const common = ['--telemetry=disable', '--debug-addr=-', `--listen-addr=127.0.0.1:${port}`, '--log-level=warn', `--state-dir=${opts.dataDir}`];
  let args: string[];
  if (pg) {
    const url = await pg.ensureDatabase();
    say(`MongoDB: starting FerretDB (PostgreSQL ${pg.describe()}) on 127.0.0.1:${port}`);
    args = ['--handler=postgresql', `--postgresql-url=${url}`, ...common];
  } else {
    const sqliteDir = path.join(opts.dataDir, 'ferretdb');
    fs.mkdirSync(sqliteDir, { recursive: true });
    say(`MongoDB: starting FerretDB (SQLite under ${sqliteDir}; no PostgreSQL reachable) on 127.0.0.1:${port}`);
    // immediate transactions: concurrent writers wait for the lock instead of failing with SQLITE_BUSY.
    args = ['--handler=sqlite', `--sqlite-url=file:${sqliteDir}/?_txlock=immediate&_pragma=synchronous(normal)`, ...common];
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const proc = startLogged(binary, args, logFile, ferretDbEnv());
  const uri = `mongodb://127.0.0.1:${port}/${opts.database}?maxPoolSize=${FERRETDB_CLIENT_POOL}`;
  await waitForMongo(uri, proc, logFile, 'FerretDB');
  const how = `${binary} (${!pg ? 'SQLite' : isThrowAwayDatabase(opts.postgresDatabase) ? 'PostgreSQL, throw-away database: synchronous_commit=off' : 'PostgreSQL'})`;
  return {
    uri,
    started: true,
    how,
    pid: proc.child.pid,
    async stop() {
      await proc.stop();
      if (pg && opts.throwAway) await pg.dropDatabase();
    },
  };
}

async function waitForMongo(uri: string, proc: ManagedProcess, logFile: string, name: string): Promise<void> {
  let exited = false;
  proc.child.once('exit', () => (exited = true));
  const ready = await waitUntil(async () => exited || (await pings(uri)), 60_000, 250);
  if (exited || !ready) {
    await proc.stop();
    throw new ProvisioningError(name, `did not become ready (log ${logFile}):\n${tail(logFile)}`, 'check the log above');
  }
}

function redact(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, '//***@');
}
