import { Client } from 'pg';
import { ProvisioningError, say } from './log';
import { isReachable } from './net';

// PostgreSQL for FerretDB's postgresql handler: EINVOICE_POSTGRES_URL, else the local server on 127.0.0.1:5432
// when one answers. We only need a role that may create databases; FerretDB keeps one schema per MongoDB database.

const LOCAL_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const TEST_DATABASE = /^einvoice_test_(\d+)$/;
/** Any run's database named after its pid: the tests' and the durable benchmark's (dropped when its run is gone). */
const RUN_DATABASE = /^einvoice_(?:test|bench)_(\d+)$/;

export interface PostgresStore {
  /** Creates the database when missing; returns the URL FerretDB should use. */
  ensureDatabase(): Promise<string>;
  dropDatabase(): Promise<void>;
  describe(): string;
}

/** null when no URL was given and nothing answers on 127.0.0.1:5432; throws when a given URL does not work. */
export async function findPostgres(explicitUrl: string | undefined, database: string): Promise<PostgresStore | null> {
  const url = explicitUrl || LOCAL_URL;
  if (!explicitUrl && !(await isReachable('127.0.0.1:5432', 500))) return null;
  try {
    await withClient(url, (c) => c.query('SELECT 1'));
  } catch (err) {
    const why = (err as Error).message;
    if (explicitUrl) throw new ProvisioningError('PostgreSQL', `EINVOICE_POSTGRES_URL does not answer: ${why}`, 'fix the URL, or unset it to use FerretDB on SQLite');
    say(`MongoDB: PostgreSQL on 127.0.0.1:5432 refused us (${why}); using SQLite`);
    return null;
  }
  const target = new URL(url);
  target.pathname = `/${database}`;
  withoutTlsOnLoopback(target);
  return {
    describe: () => `${target.host}/${database}`,
    async ensureDatabase() {
      await withClient(url, async (c) => {
        await dropAbandonedTestDatabases(c);
        const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
        if (exists.rowCount === 0) await c.query(`CREATE DATABASE ${quote(database)}`).catch(ignoreDuplicate);
        if (isThrowAwayDatabase(database)) await setOnDatabase(c, database, 'synchronous_commit', 'off');
        await setOnDatabase(c, database, 'default_toast_compression', 'lz4');
        await setOnDatabase(c, database, 'gin_pending_list_limit', "'64kB'");
      });
      return target.toString();
    },
    async dropDatabase() {
      await withClient(url, (c) => c.query(`DROP DATABASE IF EXISTS ${quote(database)} WITH (FORCE)`)).catch((err) =>
        say(`MongoDB: could not drop PostgreSQL database ${database}: ${(err as Error).message}`),
      );
    },
  };
}

/**
 * FerretDB's connections to a PostgreSQL on this machine go without TLS (`sslmode=disable`) unless the URL names an
 * sslmode: pgx's default (`prefer`) encrypted every query on loopback, where it protects nothing, and it cost a share
 * of PostgreSQL's and FerretDB's CPU in a bench:e2e burst (`perf record`: libssl/libcrypto, Go's AES-GCM; figures:
 * docs/performance.md).
 */
export function withoutTlsOnLoopback(url: URL): void {
  if (isLoopback(url) && !url.searchParams.has('sslmode')) url.searchParams.set('sslmode', 'disable');
}

export const isLoopback = (url: URL): boolean => ['localhost', '[::1]'].includes(url.hostname) || url.hostname.startsWith('127.');

/**
 * A test or benchmark run's database is dropped when the run ends, so its commits need not wait for the WAL to reach
 * the disk (`synchronous_commit = off`, set on that database only; atomicity and isolation are unchanged, only a crash
 * of PostgreSQL or of the machine could lose the last ~0.6 s of commits, of data thrown away anyway). The flushes had
 * cost a share of a bench:e2e burst's CPU (PostgreSQL and the kernel's writeback); `npm start`'s database keeps
 * PostgreSQL's default.
 */
export const isThrowAwayDatabase = (database: string): boolean => TEST_DATABASE.test(database);

/**
 * A setting for every later session on the database. Used for `default_toast_compression = lz4`: invoice documents
 * are jsonb of a few kilobytes, compressed by TOAST on every write and decompressed on every read, and pglz, the
 * default, cost a share of a bench:e2e burst's CPU (only new values are written with lz4; older ones stay readable).
 * Refused (a server built without lz4, a role that does not own the database): said, and the default stays.
 */
async function setOnDatabase(c: Client, database: string, name: string, value: string): Promise<void> {
  await c.query(`ALTER DATABASE ${quote(database)} SET ${name} = ${value}`).catch((err) =>
    say(`MongoDB: PostgreSQL database ${database} keeps its default ${name} (${(err as Error).message})`),
  );
}

/** Test runs name their database after their pid; one whose process is gone (killed run) is dropped. */
async function dropAbandonedTestDatabases(c: Client): Promise<void> {
  const rows = (await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'einvoice\\_%\\_%'")).rows;
  for (const { datname } of rows) {
    const pid = Number(RUN_DATABASE.exec(datname)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    await c.query(`DROP DATABASE IF EXISTS ${quote(datname)} WITH (FORCE)`).catch(() => {});
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function ignoreDuplicate(err: { code?: string }): void {
  if (err.code !== '42P04' && err.code !== '23505') throw err; // created concurrently by another process
}
