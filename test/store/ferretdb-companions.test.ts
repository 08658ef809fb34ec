import { expect } from 'chai';
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { Client } from 'pg';
import { testInfra } from '../helpers/root-hooks';

// Our FerretDB build on PostgreSQL creates a (type rank, value) btree index beside each index a client declares (its
// "companion", scripts/infra/ferretdb-patch/ordered_keys.go.txt) and answers limited finds from it. The store
// contract checks the answers; this checks the indexes themselves, so a change that leaves queries and indexes
// disagreeing (every answer still right, every list page a full scan) fails here rather than at 100,000 invoices.
describe('FerretDB on PostgreSQL: the companion indexes the limited finds walk', function () {
  let pg: Client;
  let schema: string;

  before(async function () {
    const mongo = testInfra().mongo;
    if (!mongo.started || !mongo.pid || !/PostgreSQL/.test(mongo.how)) this.skip();
    const arg = fs.readFileSync(`/proc/${mongo.pid}/cmdline`, 'utf8').split('\0').find((a) => a.startsWith('--postgresql-url='));
    pg = new Client({ connectionString: arg!.slice('--postgresql-url='.length) });
    await pg.connect();
    schema = mongoose.connection.db!.databaseName;
  });
  after(() => pg?.end());

  // (FerretDB's own catalogue names each collection's table)
  const tableOf = async (collection: string): Promise<string> =>
    (await pg.query<{ t: string }>(`SELECT _jsonb->>'table' AS t FROM ${pgIdent(schema)}._ferretdb_database_metadata WHERE _jsonb->>'_id' = $1`, [collection])).rows[0].t;
  const indexesOf = async (table: string) =>
    (await pg.query<{ name: string; def: string }>('SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND tablename = $2', [schema, table])).rows;
  const scansOf = async (index: string): Promise<number> =>
    Number((await pg.query<{ n: string }>('SELECT idx_scan AS n FROM pg_stat_user_indexes WHERE schemaname = $1 AND indexrelname = $2', [schema, index])).rows[0]?.n ?? 0);

  it("a sorted, limited find is answered from the declared index's companion", async function () {
    this.timeout(60_000);
    const name = `companion_${randomUUID().slice(0, 8)}`;
    const coll = mongoose.connection.db!.collection(name);
    await coll.insertMany(Array.from({ length: 3000 }, (_, i) => ({ _id: `d${i}`, k: i, pad: 'x'.repeat(200) })) as never[]);
    await coll.createIndex({ k: 1 });
    const table = await tableOf(name);
    const companion = (await indexesOf(table)).find((i) => i.name.endsWith('_eix') && !i.name.includes('__id_'));
    expect(companion, 'the companion of { k: 1 }').to.not.equal(undefined);

    const before = await scansOf(companion!.name);
    const page = await coll.find({ k: { $gte: 10 } }).sort({ k: 1 }).limit(3).toArray();
    expect(page.map((d) => d.k)).to.deep.equal([10, 11, 12]);
    // PostgreSQL publishes a backend's counters once it is idle (within about 10 s): wait for them.
    let after = before;
    for (let i = 0; i < 120 && after === before; i++) {
      await new Promise((r) => setTimeout(r, 250));
      after = await scansOf(companion!.name);
    }
    expect(after, `index scans of ${companion!.name}`).to.be.greaterThan(before);
    await coll.drop();
  });

  it("an index whose companion is missing (a database from a build before companions) gets it when the client declares its indexes, as every start does", async () => {
    const name = `missing_${randomUUID().slice(0, 8)}`;
    const coll = mongoose.connection.db!.collection(name);
    await coll.insertOne({ _id: 'a', k: 1 } as never);
    await coll.createIndex({ k: 1 });
    const table = await tableOf(name);
    const companion = (await indexesOf(table)).find((i) => i.name.endsWith('_eix') && !i.name.includes('__id_'))!;
    await pg.query(`DROP INDEX ${pgIdent(schema)}.${pgIdent(companion.name)}`);
    await coll.createIndex({ k: 1 }); // (the index itself exists: FerretDB answers "all indexes already exist")
    expect((await indexesOf(table)).map((i) => i.name)).to.include(companion.name);
    // Dropping the declared index drops its companion too.
    await coll.dropIndex('k_1');
    const companions = (await indexesOf(table)).map((i) => i.name).filter((n) => n.endsWith('_eix'));
    expect(companions).to.have.length(1); // _id's
    expect(companions[0]).to.match(/__id_.*_eix$/);
    await coll.drop();
  });
});

const pgIdent = (s: string): string => `"${s.replace(/"/g, '""')}"`;
