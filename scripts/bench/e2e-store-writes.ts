// PostgreSQL's view of bench:e2e's database (FerretDB's backend): its synchronous_commit, and the rows written
// (inserted + updated + deleted, pg_stat_user_tables), to count the store writes one invoice makes.
import { Client } from 'pg';
import { cmdlineOf } from './proc-cpu';

/** FerretDB's --postgresql-url, or null on SQLite. */
export const postgresUrlOf = (ferretPid: number | undefined): string | null => /postgresql-url=(\S+)/.exec(cmdlineOf(ferretPid))?.[1] ?? null;

async function query<T>(url: string, sql: string): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows[0] as T;
  } finally {
    await c.end();
  }
}

export const synchronousCommit = async (url: string): Promise<string> => (await query<{ synchronous_commit: string }>(url, 'SHOW synchronous_commit')).synchronous_commit;

// Backends publish their table counters when idle, up to 10 s late (PostgreSQL 15's PGSTAT_IDLE_INTERVAL).
const STATS_LAG_MS = 11_000;

/** Rows written in the database so far, once every backend's counters have reached the shared statistics. */
export async function rowWrites(url: string): Promise<number> {
  await new Promise((r) => setTimeout(r, STATS_LAG_MS));
  const row = await query<{ n: string }>(url, 'SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) AS n FROM pg_stat_user_tables');
  return Number(row.n);
}
