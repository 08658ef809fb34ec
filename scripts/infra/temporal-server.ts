import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { ProvisioningError, say } from './log';
import { freePort, isReachable, waitUntil } from './net';
import { goServerEnv, startLogged, tail, type ManagedProcess } from './process';
import { SEARCH_ATTRIBUTE_NAMES as SEARCH_ATTRIBUTES } from '../../src/temporal/contract';
import { downloadRecentlyFailed, quietly, rememberDownloadFailure } from './download-memo';
import { isExecutable, onPath, runVisible, toolDir } from './tools-cache';

export const TEMPORAL_CLI_VERSION = '1.5.1';

export interface TemporalOptions {
  /** Address to reuse when reachable (TEMPORAL_ADDRESS). */
  reuseAddress?: string;
  namespace: string;
  /** Directory for the SQLite file; omit for an in-memory server (tests). */
  dataDir?: string;
  /** Port for a server we start; 0 picks a free one. */
  port: number;
  /** Web UI port; null for headless. */
  uiPort: number | null;
  logDir: string;
}

export interface TemporalHandle {
  address: string;
  uiUrl: string | null;
  /** True when this process started the server (and stop() will end it). */
  started: boolean;
  how: string;
  /** The server process when we started it (benchmarks read its CPU time). */
  pid?: number;
  stop(): Promise<void>;
}

/** Reuse a reachable server, else start the Temporal CLI dev server from PATH, cache, SDK download or a Go build. */
export async function ensureTemporal(opts: TemporalOptions): Promise<TemporalHandle> {
  if (opts.reuseAddress && (await isReachable(opts.reuseAddress))) {
    say(`Temporal: reusing the server at ${opts.reuseAddress}`);
    await registerSearchAttributes(opts.reuseAddress, opts.namespace);
    return { address: opts.reuseAddress, uiUrl: null, started: false, how: 'reused', stop: async () => {} };
  }
  const binary = onPath('temporal') ?? cachedBinary() ?? (await sdkDownload(opts)) ?? buildWithGo();
  return startDevServer(binary, opts);
}

function cachedBinary(): string | null {
  const file = path.join(toolDir('temporal', TEMPORAL_CLI_VERSION), 'temporal');
  return isExecutable(file) ? file : null;
}

/** The SDK's own download of the CLI; only works with internet access, so time-bound it. */
async function sdkDownload(opts: TemporalOptions): Promise<string | null> {
  if (downloadRecentlyFailed('temporal-cli')) return null;
  const dir = path.join(toolDir('temporal', TEMPORAL_CLI_VERSION), 'sdk-download');
  say('Temporal: no temporal CLI on PATH or in the cache; trying the SDK download (needs internet)...');
  try {
    const { TestWorkflowEnvironment } = await import('@temporalio/testing');
    const env = await quietly(() =>
      withTimeout(
        TestWorkflowEnvironment.createLocal({
          server: { executable: { type: 'cached-download', downloadDir: dir }, namespace: opts.namespace },
        }),
        60_000,
      ),
    );
    await env.teardown();
    const found = findFile(dir, /^temporal(-cli)?[^/]*$/);
    if (found) return found;
  } catch (err) {
    say(`Temporal: SDK download unavailable (${(err as Error).message.split('\n')[0]}); not retried for 24 h`);
  }
  rememberDownloadFailure('temporal-cli');
  return null;
}

function buildWithGo(): string {
  const go = onPath('go');
  if (!go) {
    throw new ProvisioningError(
      'Temporal CLI',
      'no temporal binary on PATH, none cached, the SDK download failed, and Go is not installed',
      'install the Temporal CLI (https://docs.temporal.io/cli) or Go >= 1.22 so it can be built, or set TEMPORAL_ADDRESS to a running server',
    );
  }
  const dir = toolDir('temporal', TEMPORAL_CLI_VERSION);
  fs.mkdirSync(dir, { recursive: true });
  say(`Temporal: building the Temporal CLI v${TEMPORAL_CLI_VERSION} from the Go module proxy into ${dir} (first run only; takes several minutes)...`);
  const status = runVisible(go, ['install', `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`], {
    env: { ...process.env, GOBIN: dir, GOTOOLCHAIN: 'local', CGO_ENABLED: '0' },
  });
  const file = path.join(dir, 'temporal');
  if (status !== 0 || !isExecutable(file)) {
    throw new ProvisioningError('Temporal CLI build', `go install exited with ${status}`, 'check Go and access to the Go module proxy (GOPROXY), or install the Temporal CLI on PATH');
  }
  say('Temporal: build finished and cached.');
  return file;
}

async function startDevServer(binary: string, opts: TemporalOptions): Promise<TemporalHandle> {
  const port = opts.port || (await freePort());
  const address = `127.0.0.1:${port}`;
  if (await isReachable(address)) {
    throw new ProvisioningError('Temporal dev server', `port ${port} is taken by something else`, 'stop it, or set TEMPORAL_ADDRESS to reuse a running Temporal server');
  }
  fs.mkdirSync(opts.logDir, { recursive: true });
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--namespace', opts.namespace, '--log-level', 'warn'];
  if (opts.dataDir) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    // WAL and synchronous=normal: the dev server's default journal fsyncs every history write (a power cut may
    // lose the last moments; a crash of the process loses nothing).
    args.push('--db-filename', path.join(opts.dataDir, 'temporal.db'), '--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  for (const name of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${name}=Keyword`);
  const logFile = path.join(opts.logDir, `temporal-${port}.log`);
  say(`Temporal: starting the dev server on ${address}${opts.uiPort ? ` (Web UI http://127.0.0.1:${opts.uiPort})` : ''}`);
  const proc = startLogged(binary, args, logFile, goServerEnv());
  await waitForTemporal(address, opts.namespace, proc, logFile);
  return {
    address,
    uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : null,
    started: true,
    how: binary,
    pid: proc.child.pid,
    stop: () => proc.stop(),
  };
}

async function waitForTemporal(address: string, namespace: string, proc: ManagedProcess, logFile: string): Promise<void> {
  let exited = false;
  proc.child.once('exit', () => (exited = true));
  const ready = await waitUntil(async () => {
    if (exited) return true;
    return isServing(address, namespace);
  }, 120_000, 300);
  if (exited || !ready) {
    await proc.stop();
    throw new ProvisioningError('Temporal dev server', `did not become ready (log ${logFile}):\n${tail(logFile)}`, 'check the log above; remove .data/temporal.db if it is corrupt');
  }
}

async function isServing(address: string, namespace: string): Promise<boolean> {
  if (!(await isReachable(address, 500))) return false;
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 2000 });
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close();
  }
}

/** A reused server may lack our search attributes; adding an existing one is not an error for us. */
async function registerSearchAttributes(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: 5000 });
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = SEARCH_ATTRIBUTES.filter((name) => !(name in (existing.customAttributes ?? {})));
    if (missing.length === 0) return;
    const searchAttributes: Record<string, temporal.api.enums.v1.IndexedValueType> = {};
    for (const name of missing) searchAttributes[name] = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
    say(`Temporal: registered search attributes ${missing.join(', ')}`);
  } finally {
    await connection.close();
  }
}

function findFile(dir: string, pattern: RegExp): string | null {
  if (!fs.existsSync(dir)) return null;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = findFile(full, pattern);
      if (inner) return inner;
    } else if (pattern.test(entry.name) && isExecutable(full)) return full;
  }
  return null;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}
