import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { ProvisioningError, say } from './log';
import { freePort, isReachable, waitUntil } from './net';
import { startLogged, tail, type ManagedProcess } from './process';
import { downloadRecentlyFailed, quietly, rememberDownloadFailure } from './download-memo';
import { isExecutable, onPath, runVisible, toolDir } from './tools-cache';

export const FERRETDB_VERSION = '1.24.2';

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
}

export interface MongoHandle {
  uri: string;
  started: boolean;
  how: string;
  stop(): Promise<void>;
}

/** Reuse a reachable server, else mongod on PATH, mongodb-memory-server's download, or FerretDB built with Go. */
export async function ensureMongo(opts: MongoOptions): Promise<MongoHandle> {
  if (opts.reuseUri && (await pings(opts.reuseUri))) {
    say(`MongoDB: reusing the server at ${redact(opts.reuseUri)}`);
    return { uri: opts.reuseUri, started: false, how: 'reused', stop: async () => {} };
  }
  const mongod = onPath('mongod');
  if (mongod) return startMongod(mongod, opts);
  const memory = await memoryServer(opts);
  if (memory) return memory;
  return startFerret(ferretBinary(), opts);
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
  return { uri, started: true, how: binary, stop: () => proc.stop() };
}

/** mongodb-memory-server downloads a real mongod; it needs internet access, so it is time-bound. */
async function memoryServer(opts: MongoOptions): Promise<MongoHandle | null> {
  if (downloadRecentlyFailed('mongodb-memory-server')) return null;
  say('MongoDB: no mongod on PATH; trying mongodb-memory-server download (needs internet)...');
  try {
    const { MongoMemoryServer } = await import('mongodb-memory-server-core');
    const dbPath = path.join(opts.dataDir, 'mongodb-memory');
    fs.mkdirSync(dbPath, { recursive: true });
    const server = await quietly(() => Promise.race([
      MongoMemoryServer.create({
        instance: { port: opts.port || undefined, dbPath, ip: '127.0.0.1' },
        binary: { downloadDir: toolDir('mongodb', 'memory-server') },
      }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out after 60 s')), 60_000)),
    ]));
    const uri = server.getUri(opts.database);
    return { uri, started: true, how: 'mongodb-memory-server', stop: async () => void (await server.stop()) };
  } catch (err) {
    say(`MongoDB: mongodb-memory-server unavailable (${(err as Error).message.split('\n')[0]}); not retried for 24 h`);
    rememberDownloadFailure('mongodb-memory-server');
    return null;
  }
}

function ferretBinary(): string {
  const dir = toolDir('ferretdb', FERRETDB_VERSION);
  const file = path.join(dir, 'ferretdb');
  if (isExecutable(file)) return file;
  const go = onPath('go');
  if (!go) {
    throw new ProvisioningError(
      'MongoDB-compatible server',
      'no mongod on PATH, the mongodb-memory-server download failed, and Go is not installed to build FerretDB',
      'install MongoDB (mongod) or Go >= 1.22, or set MONGODB_URI to a running server',
    );
  }
  say(`MongoDB: building FerretDB v${FERRETDB_VERSION} from the Go module proxy into ${dir} (first run only; takes a few minutes)...`);
  const env = { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOFLAGS: '-mod=mod' };
  fs.mkdirSync(dir, { recursive: true });
  const moduleDir = downloadModule(go, env);
  // The module lacks the generated build/version/version.txt; without it the binary panics at start.
  const src = path.join(dir, 'src');
  fs.rmSync(src, { recursive: true, force: true });
  fs.cpSync(moduleDir, src, { recursive: true });
  makeWritable(src);
  fs.writeFileSync(path.join(src, 'build', 'version', 'version.txt'), `v${FERRETDB_VERSION}`);
  const status = runVisible(go, ['build', '-buildvcs=false', '-o', file, './cmd/ferretdb'], { cwd: src, env });
  if (status !== 0 || !isExecutable(file)) {
    throw new ProvisioningError('FerretDB build', `go build exited with ${status}`, 'check Go and access to the Go module proxy (GOPROXY), or install mongod');
  }
  fs.rmSync(src, { recursive: true, force: true });
  say('MongoDB: FerretDB build finished and cached.');
  return file;
}

function downloadModule(go: string, env: NodeJS.ProcessEnv): string {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const result = spawnSync(go, ['mod', 'download', '-json', `github.com/FerretDB/FerretDB@v${FERRETDB_VERSION}`], { env, encoding: 'utf8', cwd: toolDir('ferretdb', FERRETDB_VERSION) });
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

async function startFerret(binary: string, opts: MongoOptions): Promise<MongoHandle> {
  const port = opts.port || (await freePort());
  if (await isReachable(`127.0.0.1:${port}`)) {
    throw new ProvisioningError('FerretDB', `port ${port} is taken by something else`, 'stop it, or set MONGODB_URI to reuse a running server');
  }
  const sqliteDir = path.join(opts.dataDir, 'ferretdb');
  fs.mkdirSync(sqliteDir, { recursive: true });
  fs.mkdirSync(opts.logDir, { recursive: true });
  const logFile = path.join(opts.logDir, `ferretdb-${port}.log`);
  say(`MongoDB: starting FerretDB (SQLite under ${sqliteDir}) on 127.0.0.1:${port}`);
  const args = [
    '--handler=sqlite',
    `--sqlite-url=file:${sqliteDir}/`,
    `--state-dir=${opts.dataDir}`,
    '--telemetry=disable',
    '--debug-addr=-',
    `--listen-addr=127.0.0.1:${port}`,
    '--log-level=warn',
  ];
  const proc = startLogged(binary, args, logFile);
  const uri = `mongodb://127.0.0.1:${port}/${opts.database}`;
  await waitForMongo(uri, proc, logFile, 'FerretDB');
  return { uri, started: true, how: binary, stop: () => proc.stop() };
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
