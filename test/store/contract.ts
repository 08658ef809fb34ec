// Why this suite exists: FerretDB 1.x runs an update as a read followed by a separate write of the whole
// document, with no lock or transaction in between (FerretDB issue #3040). Under concurrency that loses $inc
// increments and lets several callers "win" one conditional update, which breaks our forward-only status
// writer (activities/invoice-status.ts), counters and upserts. Our FerretDB build is patched for single-document
// atomicity and pushes equality filters down to indexes (scripts/infra/ferretdb-patch.ts). These tests state
// every MongoDB semantic our code relies on, under real concurrency (a 64-connection pool, every batch fired at
// once), with exact counts, and must pass on whatever server the tests run against: our FerretDB build on
// PostgreSQL or SQLite, or a real MongoDB (MONGODB_URI). EINVOICE_FERRETDB_UNLOCKED=1 turns the atomicity patch
// off, as stock FerretDB: the concurrency cases must then fail.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { BSON, Double, Long, MongoClient, ObjectId, type Collection, type Db, type Document } from 'mongodb';
import { describeOrderedFinds } from './contract-ordered';

const POOL = 64;
/** How long a batch may go unanswered before the test calls the server hung (the batches take well under 1 s). */
const HANG_MS = 15_000;

/** Documents of any shape, with _id of any type (the tests use string and ObjectId ids). */
type Doc = Document & { _id: string | ObjectId };

const isDuplicateKey = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 11000;

/** MongoDB answers a concurrent upsert with E11000 at times; its drivers document retrying once. */
async function retryDuplicateKeyOnce<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return op();
  }
}

/** The values of a batch in order; fails listing every error when any call was rejected. */
function allFulfilled<T>(results: PromiseSettledResult<T>[]): T[] {
  const errors = results.flatMap((r, i) => (r.status === 'rejected' ? [`#${i}: ${(r.reason as Error)?.message ?? r.reason}`] : []));
  expect(errors, 'calls that failed').to.deep.equal([]);
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * How many times each race runs, on a fresh document each time, every round exact. One race window is narrow (on a
 * 2-core machine stock FerretDB gives a conditional update several winners in roughly one round of four), so a
 * single round would let a server without atomicity pass by luck.
 */
const ROUNDS = { counter: 3, race: 8, upsert: 5 };

/**
 * Invoice-sized content (100 lines, ~6 KB) for the documents of the conditional-update races: reading and writing
 * a real document takes long enough that a server without atomicity shows it; on a tiny one it rarely does.
 */
const INVOICE_LINES = range(1, 100).map((i) => ({ lineId: String(i), description: `item ${i}`, quantity: 1, unitPrice: 1.5 * i }));

/** Runs the rounds one after another; `at` labels an assertion with its round. */
async function rounds(n: number, round: (r: number, at: (what: string) => string) => Promise<void>): Promise<void> {
  for (let r = 0; r < n; r++) await round(r, (what) => `round ${r + 1} of ${n}: ${what}`);
}

/** The suite, against the server at uri() (read when the suite starts). */
export function describeStoreContract(title: string, uri: () => string | undefined): void {
  describe(title, function () {
    this.timeout(30_000);

    let client: MongoClient;
    let db: Db;
    let coll: Collection<Doc>;
    const created: string[] = [];
    let inFlight = 0;
    let peakInFlight = 0;

    /** Fires n calls at once (all started before any can finish) and waits for every one to settle. */
    async function concurrently<T>(n: number, op: (i: number) => Promise<T>): Promise<PromiseSettledResult<T>[]> {
      peakInFlight = inFlight;
      let unanswered = n;
      const calls = range(0, n - 1).map((i) => op(i).finally(() => unanswered--));
      // A hang detector, not a speed check: a server that deadlocks fails here with a count instead of a bare timeout.
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${unanswered} of ${n} concurrent calls still unanswered after ${HANG_MS / 1000} s: the server hangs`)), HANG_MS);
      });
      const results = await Promise.race([Promise.allSettled(calls), hung]).finally(() => clearTimeout(timer));
      // Guards the suite itself: the batch really had many requests on the wire at the same time.
      expect(peakInFlight, `requests in flight at once (of ${n})`).to.be.at.least(Math.ceil(Math.min(n, POOL) / 2));
      return results;
    }

    function freshCollection(): Collection<Doc> {
      const name = `store_contract_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      created.push(name);
      return db.collection(name);
    }

    before(async function () {
      const url = uri();
      if (!url) throw new Error('no server to test: the root hooks provision it (MONGODB_URI)');
      // A dedicated pool, opened up front, so a batch of 64 calls runs on 64 server connections at once.
      client = new MongoClient(url, { maxPoolSize: POOL, minPoolSize: POOL, maxConnecting: POOL });
      let ready = 0;
      client.on('connectionReady', () => ready++);
      client.on('connectionCheckedOut', () => (peakInFlight = Math.max(peakInFlight, ++inFlight)));
      client.on('connectionCheckedIn', () => inFlight--);
      await client.connect();
      db = client.db();
      await Promise.all(range(1, POOL).map(() => db.command({ ping: 1 })));
      expect(ready, 'pooled connections').to.be.at.least(POOL);
    });

    after(async () => {
      await client?.close();
    });

    beforeEach(async () => {
      coll = freshCollection();
      await db.createCollection(coll.collectionName);
    });

    afterEach(async () => {
      for (const name of created.splice(0)) {
        await db
          .collection(name)
          .drop()
          .catch((err: { code?: number }) => {
            if (err.code !== 26) throw err; // NamespaceNotFound: never created
          });
      }
    });

    describe('single-document atomicity under concurrency', () => {
      it(`50 concurrent $inc on one document: n is exactly 50 (${ROUNDS.counter} rounds)`, async () => {
        await rounds(ROUNDS.counter, async (r, at) => {
          const _id = `counter-${r}`;
          await coll.insertOne({ _id, n: 0 });
          const results = allFulfilled(await concurrently(50, () => coll.updateOne({ _id }, { $inc: { n: 1 } })));
          expect(results.map((res) => res.modifiedCount), at('modifiedCount of each call')).to.deep.equal(range(1, 50).map(() => 1));
          expect(await coll.findOne({ _id }), at('stored')).to.deep.equal({ _id, n: 50 });
        });
      });

      it(`20 concurrent conditional updates {_id, state: a} -> b: exactly one winner, and the stored winner is it (${ROUNDS.race} rounds)`, async () => {
        await rounds(ROUNDS.race, async (r, at) => {
          const _id = `cas-${r}`;
          await coll.insertOne({ _id, state: 'a', lines: INVOICE_LINES });
          const results = allFulfilled(await concurrently(20, (i) => coll.updateOne({ _id, state: 'a' }, { $set: { state: 'b', winner: i } })));
          const winners = range(0, 19).filter((i) => results[i].modifiedCount === 1);
          expect(winners, at('callers that modified the document')).to.have.length(1);
          expect(results.filter((res) => res.modifiedCount === 0), at('callers that did not')).to.have.length(19);
          expect(results.filter((res) => res.matchedCount !== res.modifiedCount), at('matched but not modified')).to.deep.equal([]);
          expect(await coll.findOne({ _id }, { projection: { lines: 0 } }), at('stored')).to.deep.equal({ _id, state: 'b', winner: winners[0] });
        });
      });

      it(`40 concurrent findOneAndUpdate $inc (returnDocument after): the returned values are exactly 1..40 (${ROUNDS.counter} rounds)`, async () => {
        await rounds(ROUNDS.counter, async (r, at) => {
          const _id = `seq-${r}`;
          await coll.insertOne({ _id, seq: 0 });
          const docs = allFulfilled(await concurrently(40, () => coll.findOneAndUpdate({ _id }, { $inc: { seq: 1 } }, { returnDocument: 'after' })));
          expect(docs.map((d) => d?.seq as number).sort((a, b) => a - b), at('values returned')).to.deep.equal(range(1, 40));
          expect((await coll.findOne({ _id }))?.seq, at('stored')).to.equal(40);
        });
      });

      it(`20 concurrent conditional findOneAndUpdate queued -> transformed with $push (the invoice status writer): one winner, one history entry (${ROUNDS.race} rounds)`, async () => {
        // The shape advanceInvoiceStatus (activities/invoice-status.ts) writes.
        type HistoryEntry = { status: string; at: Date; reason: string | null; run: number; by: number };
        type InvoiceLine = (typeof INVOICE_LINES)[number];
        const invoices = db.collection<{ _id: string; status: string; reason?: string | null; run: number; lines: InvoiceLine[]; history: HistoryEntry[] }>(
          coll.collectionName,
        );
        await rounds(ROUNDS.race, async (r, at) => {
          const _id = `inv-${r}`;
          await invoices.insertOne({ _id, status: 'queued', run: 1, lines: INVOICE_LINES, history: [] });
          const docs = allFulfilled(
            await concurrently(20, (i) =>
              invoices.findOneAndUpdate(
                { _id, status: 'queued' },
                { $set: { status: 'transformed', reason: null }, $push: { history: { status: 'transformed', at: new Date(), reason: null, run: 1, by: i } } },
                { returnDocument: 'after' },
              ),
            ),
          );
          const winners = range(0, 19).filter((i) => docs[i] !== null);
          expect(winners, at('callers that got the document')).to.have.length(1);
          const winner = winners[0];
          expect(docs[winner]?.status, at('status returned')).to.equal('transformed');
          expect(docs[winner]?.history.map((h) => h.by), at('history returned')).to.deep.equal([winner]);
          const stored = await invoices.findOne({ _id });
          expect(stored?.status, at('status stored')).to.equal('transformed');
          expect(stored?.history.map((h) => h.by), at('history stored')).to.deep.equal([winner]);
          expect(stored?.history[0], at('history entry')).to.include({ status: 'transformed', run: 1, by: winner });
        });
      });

      it('64 concurrent writers to 64 different documents: inserts, then $set, then deletes all succeed and the state is exact', async () => {
        const id = (i: number) => `doc-${i}`;
        const inserted = allFulfilled(await concurrently(64, (i) => coll.insertOne({ _id: id(i), i, v: 0 })));
        expect(inserted.map((r) => r.insertedId)).to.deep.equal(range(0, 63).map(id));
        expect(await coll.countDocuments({})).to.equal(64);

        const updated = allFulfilled(await concurrently(64, (i) => coll.updateOne({ _id: id(i) }, { $set: { v: 1, by: i } })));
        expect(updated.map((r) => [r.matchedCount, r.modifiedCount])).to.deep.equal(range(0, 63).map(() => [1, 1]));
        const docs = await coll.find({}).sort({ i: 1 }).toArray();
        expect(docs).to.deep.equal(range(0, 63).map((i) => ({ _id: id(i), i, v: 1, by: i })));

        const deleted = allFulfilled(await concurrently(64, (i) => coll.deleteOne({ _id: id(i) })));
        expect(deleted.map((r) => r.deletedCount)).to.deep.equal(range(0, 63).map(() => 1));
        expect(await coll.countDocuments({})).to.equal(0);
      });

      it('64 concurrent first inserts into a collection that does not exist yet: all 64 stored', async () => {
        const fresh = freshCollection(); // not created: the inserts create it
        allFulfilled(await concurrently(64, (i) => fresh.insertOne({ _id: `first-${i}`, i })));
        expect(await fresh.countDocuments({})).to.equal(64);
      });
    });

    describe('multi-document commands (bulk requests)', () => {
      it('8 concurrent update commands of 100 statements each (bulkWrite): all complete, every statement applied once', async () => {
        // Stock FerretDB 1.24 kept each statement's read query (a pooled connection) open to the command's end:
        // one command of 50 statements took the whole pool and waited for itself forever.
        await coll.insertMany(range(0, 799).map((i) => ({ _id: `b-${i}`, state: 'in_flight', n: 0 })));
        const results = allFulfilled(
          await concurrently(8, (c) =>
            coll.bulkWrite(
              range(0, 99).map((i) => ({ updateOne: { filter: { _id: `b-${c * 100 + i}`, state: 'in_flight' }, update: { $set: { state: 'completed' }, $inc: { n: 1 } } } })),
              { ordered: false },
            ),
          ),
        );
        expect(results.map((r) => [r.matchedCount, r.modifiedCount])).to.deep.equal(range(0, 7).map(() => [100, 100]));
        expect(await coll.countDocuments({ state: 'completed', n: 1 })).to.equal(800);
      });

      it('insertMany ordered:false with duplicates of a unique key: the earlier document wins, each refusal names its index', async () => {
        await coll.createIndex({ k: 1 }, { unique: true });
        await coll.insertOne({ _id: 'stored', k: 'taken' });
        const docs = [
          { _id: 'm0', k: 'a' },
          { _id: 'm1', k: 'taken' },
          { _id: 'm2', k: 'a' },
          { _id: 'm3', k: 'b' },
        ];
        const err = await coll.insertMany(docs, { ordered: false }).then(
          () => null,
          (e: { writeErrors?: { index: number; code: number }[] }) => e,
        );
        expect(err?.writeErrors?.map((w) => [w.index, w.code])).to.deep.equal([
          [1, 11000],
          [2, 11000],
        ]);
        expect((await coll.find({}).sort({ _id: 1 }).toArray()).map((d) => d._id)).to.deep.equal(['m0', 'm3', 'stored']);
      });

      // The evidence chain's batched append (src/records/chain-append.ts) relies on this: what precedes the
      // refused document is stored, nothing after it is, and the refusal names its index.
      it('insertMany ordered:true stops at the first duplicate of a unique key: the documents before it are stored, none after it', async () => {
        await coll.createIndex({ k: 1 }, { unique: true });
        await coll.insertOne({ _id: 'stored', k: 'taken' });
        const docs = [
          { _id: 'o0', k: 'a' },
          { _id: 'o1', k: 'b' },
          { _id: 'o2', k: 'taken' },
          { _id: 'o3', k: 'c' },
          { _id: 'o4', k: 'a' },
        ];
        const err = await coll.insertMany(docs, { ordered: true }).then(
          () => null,
          (e: { writeErrors?: { index: number; code: number }[] }) => e,
        );
        expect(err?.writeErrors?.map((w) => [w.index, w.code])).to.deep.equal([[2, 11000]]);
        expect((await coll.find({}).sort({ _id: 1 }).toArray()).map((d) => d._id)).to.deep.equal(['o0', 'o1', 'stored']);
      });
    });

    describe('unique indexes and upserts under concurrency', () => {
      const codesOf = (results: PromiseSettledResult<unknown>[]) =>
        results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: unknown }).code ?? (r.reason as Error).message] : []));

      it('20 concurrent inserts of one unique k: exactly one succeeds, the others fail with E11000', async () => {
        await coll.createIndex({ k: 1 }, { unique: true });
        const results = await concurrently(20, (i) => coll.insertOne({ _id: `ins-${i}`, k: 'same', i }));
        const ok = range(0, 19).filter((i) => results[i].status === 'fulfilled');
        expect(ok, 'inserts that succeeded').to.have.length(1);
        expect(codesOf(results), 'error codes of the others').to.deep.equal(range(1, 19).map(() => 11000));
        expect(await coll.find({ k: 'same' }).toArray()).to.deep.equal([{ _id: `ins-${ok[0]}`, k: 'same', i: ok[0] }]);
      });

      it('20 concurrent inserts of one compound unique key: exactly one succeeds; another value of the key is still accepted', async () => {
        await coll.createIndex({ partnerId: 1, smeId: 1, externalRef: 1 }, { unique: true });
        const results = await concurrently(20, (i) => coll.insertOne({ _id: `c-${i}`, partnerId: 'p', smeId: 's', externalRef: 'r1' }));
        expect(results.filter((r) => r.status === 'fulfilled'), 'inserts that succeeded').to.have.length(1);
        expect(codesOf(results), 'error codes of the others').to.deep.equal(range(1, 19).map(() => 11000));
        await coll.insertOne({ _id: 'c-other', partnerId: 'p', smeId: 's', externalRef: 'r2' });
        expect(await coll.countDocuments({ partnerId: 'p' })).to.equal(2);
      });

      it(`20 concurrent upserts $inc on a unique non-_id key: one document, n exactly 20 (${ROUNDS.upsert} rounds)`, async () => {
        await coll.createIndex({ key: 1 }, { unique: true });
        await rounds(ROUNDS.upsert, async (r, at) => {
          const key = `x-${r}`;
          const results = allFulfilled(await concurrently(20, () => retryDuplicateKeyOnce(() => coll.updateOne({ key }, { $inc: { n: 1 } }, { upsert: true }))));
          expect(results.filter((res) => res.upsertedCount === 1), at('calls that inserted')).to.have.length(1);
          expect(results.filter((res) => res.modifiedCount === 1), at('calls that updated')).to.have.length(19);
          const docs = await coll.find({ key }).toArray();
          expect(docs, at('documents with the key')).to.have.length(1);
          expect(docs[0].n, at('n')).to.equal(20);
        });
      });

      it(`20 concurrent upserts $inc on one _id: one document, n exactly 20 (${ROUNDS.upsert} rounds)`, async () => {
        await rounds(ROUNDS.upsert, async (r, at) => {
          const _id = `k-${r}`;
          const results = allFulfilled(await concurrently(20, () => retryDuplicateKeyOnce(() => coll.updateOne({ _id }, { $inc: { n: 1 } }, { upsert: true }))));
          expect(results.filter((res) => res.upsertedCount === 1), at('calls that inserted')).to.have.length(1);
          expect(results.filter((res) => res.modifiedCount === 1), at('calls that updated')).to.have.length(19);
          expect(await coll.find({ _id }).toArray(), at('stored')).to.deep.equal([{ _id, n: 20 }]);
        });
      });

      it(`20 concurrent findOneAndUpdate upserts on a compound unique key with $setOnInsert _id (the customers upsert): one document, the callers see n = 1..20 (${ROUNDS.upsert} rounds)`, async () => {
        await coll.createIndex({ partnerId: 1, smeId: 1, externalRef: 1 }, { unique: true });
        await rounds(ROUNDS.upsert, async (r, at) => {
          const filter = { partnerId: 'p', smeId: 's', externalRef: `ref-${r}` };
          const docs = allFulfilled(
            await concurrently(20, () =>
              retryDuplicateKeyOnce(() =>
                coll.findOneAndUpdate(filter, { $set: { name: 'n' }, $inc: { n: 1 }, $setOnInsert: { _id: randomUUID() } }, { upsert: true, returnDocument: 'after' }),
              ),
            ),
          );
          expect(docs.map((d) => d?.n as number).sort((a, b) => a - b), at('values returned')).to.deep.equal(range(1, 20));
          const stored = await coll.find(filter).toArray();
          expect(stored, at('documents with the key')).to.have.length(1);
          expect(stored[0].n, at('n')).to.equal(20);
          expect(new Set(docs.map((d) => d?._id)), at('ids the callers saw')).to.deep.equal(new Set([stored[0]._id]));
        });
      });
    });

    describe('indexes and queries', () => {
      it('listIndexes reports the indexes created, with their keys and uniqueness', async () => {
        await coll.createIndex({ k: 1 }, { unique: true });
        await coll.createIndex({ numberScope: 1, numberPeriod: 1, number: 1 }, { unique: true });
        await coll.createIndex({ numberScope: 1, createdAt: -1, _id: -1 });
        await coll.createIndex({ expiresAt: 1 });
        const indexes = await coll.listIndexes().toArray();
        const byName = new Map(indexes.map((ix) => [ix.name as string, ix]));
        expect([...byName.keys()].sort()).to.deep.equal(['_id_', 'expiresAt_1', 'k_1', 'numberScope_1_createdAt_-1__id_-1', 'numberScope_1_numberPeriod_1_number_1'].sort());
        expect(byName.get('k_1')).to.deep.include({ key: { k: 1 }, unique: true });
        expect(byName.get('numberScope_1_numberPeriod_1_number_1')).to.deep.include({ key: { numberScope: 1, numberPeriod: 1, number: 1 }, unique: true });
        expect(byName.get('numberScope_1_createdAt_-1__id_-1')?.key).to.deep.equal({ numberScope: 1, createdAt: -1, _id: -1 });
        expect(byName.get('numberScope_1_createdAt_-1__id_-1')?.unique).to.not.equal(true);
        expect(byName.get('expiresAt_1')?.key).to.deep.equal({ expiresAt: 1 });
        // Keys in the order given: a compound index is not the same index with its fields reordered.
        expect(Object.keys(byName.get('numberScope_1_createdAt_-1__id_-1')?.key)).to.deep.equal(['numberScope', 'createdAt', '_id']);
      });

      it('dropIndex by name removes that index only (the owner-fields migration drops the old ones)', async () => {
        await coll.createIndex({ smeId: 1, issueYear: 1, number: 1 }, { unique: true });
        await coll.createIndex({ numberScope: 1, number: 1 });
        await coll.dropIndex('smeId_1_issueYear_1_number_1');
        expect((await coll.listIndexes().toArray()).map((ix) => ix.name).sort()).to.deep.equal(['_id_', 'numberScope_1_number_1']);
        const again = await coll.dropIndex('smeId_1_issueYear_1_number_1').then(() => null, (err: { code?: number }) => err.code);
        expect(again, 'a second drop: IndexNotFound').to.equal(27);
      });

      describe('filters on fields other than _id return exactly the matching documents', () => {
        const oid = new ObjectId();
        const DOCS: Doc[] = [
          { _id: 'p1', name: 'alpha', flag: true, n: 1, tags: ['a', 'b'], status: 'queued' },
          { _id: 'p2', name: 'beta', flag: false, n: 2, tags: ['b', 'c'], status: 'queued' },
          { _id: 'p3', name: 'alpha', flag: false, n: 3, tags: 'a', status: 'sent' },
          { _id: 'p4', name: 'gamma', flag: true, n: new Double(1), tags: [], status: 'sent' },
          { _id: 'p5', name: 'delta', n: Long.fromNumber(1), nested: { name: 'alpha' }, flags: [false, true], nums: [7, 2] },
          { _id: oid, name: 'epsilon', ref: oid.toHexString() },
          { _id: 'p6', name: 'zeta', ref: oid, tags: ['z'] },
        ];

        beforeEach(async () => {
          await coll.createIndex({ name: 1 });
          await coll.createIndex({ tags: 1 });
          // Other documents around, as in a real collection.
          await coll.insertMany(range(1, 40).map((i) => ({ _id: `other-${i}`, name: `other-${i}`, n: 100 + i, tags: ['x', `t${i}`], status: 'delivered' })));
          await coll.insertMany(DOCS);
        });

        const ids = async (filter: Document): Promise<string[]> =>
          (await coll.find(filter, { projection: { _id: 1 } }).toArray()).map((d) => String(d._id)).sort();

        const cases: Array<[string, Document, string[]]> = [
          ['equality on a string field', { name: 'alpha' }, ['p1', 'p3']],
          ['$eq on a string field', { name: { $eq: 'alpha' } }, ['p1', 'p3']],
          ['equality on a boolean (true)', { flag: true }, ['p1', 'p4']],
          ['equality on a boolean (false)', { flag: false }, ['p2', 'p3']],
          ['equality on a number, across int32, double and int64', { n: 1 }, ['p1', 'p4', 'p5']],
          ['$in on a string field', { name: { $in: ['beta', 'gamma', 'nobody'] } }, ['p2', 'p4']],
          ['an array field containing the value (and a scalar equal to it)', { tags: 'a' }, ['p1', 'p3']],
          ['an array field containing the value, in several arrays', { tags: 'b' }, ['p1', 'p2']],
          ['an array of booleans containing the value', { flags: true }, ['p5']],
          ['an array of numbers containing the value', { nums: 2 }, ['p5']],
          ['a dotted path into a subdocument', { 'nested.name': 'alpha' }, ['p5']],
          ['two fields', { name: 'alpha', flag: false }, ['p3']],
          ['a string equal to an ObjectId hex matches only the string', { ref: oid.toHexString() }, [oid.toHexString()]],
          ['an ObjectId matches only the ObjectId', { ref: oid }, ['p6']],
          ['_id and another field, both matching', { _id: 'p1', name: 'alpha' }, ['p1']],
          ['_id and another field, the other not matching', { _id: 'p1', name: 'beta' }, []],
          ['_id and a boolean, not matching', { _id: 'p1', flag: false }, []],
          ['_id and an array field containing the value', { _id: 'p1', tags: 'a' }, ['p1']],
          ['_id and an array field not containing the value', { _id: 'p2', tags: 'a' }, []],
          ['an ObjectId _id and another field', { _id: oid, name: 'epsilon' }, [oid.toHexString()]],
          ['an ObjectId _id and another field, not matching', { _id: oid, name: 'alpha' }, []],
        ];
        for (const [what, filter, expected] of cases) {
          it(`${what}: ${BSON.EJSON.stringify(filter, { relaxed: true })}`, async () => {
            expect(await ids(filter)).to.deep.equal(expected.sort());
            expect(await coll.countDocuments(filter), 'countDocuments').to.equal(expected.length);
          });
        }

        it('updates and deletes by such filters touch exactly the matching documents', async () => {
          expect((await coll.updateMany({ tags: 'a' }, { $set: { hit: true } })).modifiedCount).to.equal(2);
          expect(await ids({ hit: true })).to.deep.equal(['p1', 'p3']);
          expect((await coll.updateOne({ _id: 'p2', tags: 'a' }, { $set: { miss: true } })).matchedCount).to.equal(0);
          expect((await coll.updateOne({ _id: 'p1', flag: true }, { $set: { both: true } })).modifiedCount).to.equal(1);
          expect(await coll.findOneAndUpdate({ _id: 'p3', status: 'queued' }, { $set: { status: 'x' } })).to.equal(null);
          expect((await coll.deleteMany({ flag: false })).deletedCount).to.equal(2);
          expect(await ids({ flag: false })).to.deep.equal([]);
          expect(await ids({ name: 'alpha' })).to.deep.equal(['p1']);
          expect((await coll.deleteOne({ _id: 'p1', name: 'beta' })).deletedCount).to.equal(0);
          expect((await coll.deleteOne({ _id: 'p1', tags: 'b' })).deletedCount).to.equal(1);
        });
      });
    });

    describeOrderedFinds(() => coll as unknown as Collection<Document & { _id: string }>);
  });
}
