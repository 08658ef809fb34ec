// The sorted, limited and ranged finds our reads rely on (the list pages, their cursor, the status and date
// filters, each owner's partition: src/domain/owner.ts). Our FerretDB build answers a find with a limit from PostgreSQL's
// (rank, key) indexes when its filter and sort translate exactly, and takes FerretDB's own path otherwise
// (scripts/infra/ferretdb-patch/ordered_query.go.txt): both must give MongoDB's answer, including the order of
// mixed types, null against a missing field, and arrays (which turn the pushdown off for the field).
import { expect } from 'chai';
import { Long, ObjectId, type Collection, type Document } from 'mongodb';
import { Invoice as InvoiceModel } from '../../src/db/models';
import { encodeCursor, listFilter, listStatusOf, LIST_SORT, type InvoiceListQuery, type ListStatus } from '../../src/domain/invoice-list-query';
import type { InvoiceStatus } from '../../src/domain/invoice-status';
import { numberKey, ownerFields, ownerFilter, ownerLabel, type OwnerRef } from '../../src/domain/owner';

type AnyDoc = Document & { _id: string };

const OID_LOW = new ObjectId('000000000000000000000001');
const OID_HIGH = new ObjectId('ffffffffffffffffffffffff');

/** One value of each scalar type, in MongoDB's ascending order of (k, _id) (null and missing tie, _id decides). */
const MIXED: AnyDoc[] = [
  { _id: 'm-01-missing' },
  { _id: 'm-02-null', k: null },
  { _id: 'm-03-double', k: 2.5 },
  { _id: 'm-04-int', k: 5 },
  { _id: 'm-05-long', k: Long.fromNumber(10) },
  { _id: 'm-06-B', k: 'B' }, // bytewise: 'B' < 'a' < 'z' < 'é'
  { _id: 'm-07-a', k: 'a' },
  { _id: 'm-08-z', k: 'z' },
  { _id: 'm-09-e-acute', k: 'é' },
  { _id: 'm-10-oid-low', k: OID_LOW },
  { _id: 'm-11-oid-high', k: OID_HIGH },
  { _id: 'm-12-false', k: false },
  { _id: 'm-13-true', k: true },
  { _id: 'm-14-date-before-1970', k: new Date(-5000) },
  { _id: 'm-15-date-1000', k: new Date(1000) },
  { _id: 'm-16-date-2000', k: new Date(2000) },
];
const ASC = MIXED.map((d) => d._id);

/**
 * Invoice-shaped documents: 3 owners (two partners' SMEs and a tenant), ties on createdAt (three per millisecond),
 * every status, held drafts; listStatus as the model derives it (the lists filter on it alone).
 */
const STATUSES: InvoiceStatus[] = ['draft', 'queued', 'transformed', 'validated', 'delivered', 'acknowledged', 'rejected'];
const OWNERS: OwnerRef[] = [
  { kind: 'partner', partnerId: 'p1', smeId: 's1' },
  { kind: 'partner', partnerId: 'p2', smeId: 's2' },
  { kind: 'tenant', tenantId: 't1', mode: 'live' },
];
const T0 = Date.UTC(2025, 0, 1);
const INVOICES = Array.from({ length: 300 }, (_, i) => {
  const status = STATUSES[(i * 7) % STATUSES.length];
  const owner = OWNERS[i % 3];
  const issueDate = new Date(T0 + Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10);
  const heldReason = status === 'draft' && i % 2 ? 'missing_trn' : null;
  return {
    _id: `inv-${String((i * 37) % 1000).padStart(4, '0')}-${i}`, // _id order unrelated to creation order
    ...ownerFields(owner),
    ...numberKey(owner, `N-${i}`, issueDate),
    issueDate,
    status,
    heldReason,
    listStatus: listStatusOf({ status, heldReason }),
    createdAt: new Date(T0 + Math.floor(i / 9) * 1000),
  };
});
type Invoice = (typeof INVOICES)[number];

/** The semantics a list query requires, computed here: newest first, _id descending on ties. */
function expectedList(owner: (typeof OWNERS)[number], q: Omit<InvoiceListQuery, 'limit'>): string[] {
  const wanted = new Set(q.status ?? []);
  const statusOk = (inv: Invoice) =>
    !wanted.size ||
    (inv.status === 'draft' ? (inv.heldReason ? wanted.has('held') : wanted.has('draft')) : wanted.has(inv.status as ListStatus));
  const own = Object.entries(ownerFilter(owner));
  return INVOICES.filter(
    (inv) =>
      own.every(([field, value]) => inv[field as keyof Invoice] === value) &&
      statusOk(inv) &&
      (q.number === undefined || inv.number === q.number) &&
      (!q.from || inv.issueDate >= q.from) &&
      (!q.to || inv.issueDate <= q.to),
  )
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0))
    .map((inv) => inv._id);
}

export function describeOrderedFinds(collection: () => Collection<AnyDoc>): void {
  describe('sorted, limited and ranged finds (the list pages and their cursor)', () => {
    describe('one value of each scalar type, null and a missing field', () => {
      beforeEach(async () => {
        await collection().createIndex({ k: 1, _id: 1 });
        await collection().insertMany([...MIXED].reverse()); // stored in the opposite order
      });

      const find = async (filter: Document, sort: Document, limit: number) =>
        (await collection().find(filter).sort(sort).limit(limit).toArray()).map((d) => d._id);

      it('sort ascending and descending by (k, _id), whole and limited: MongoDB type order', async () => {
        expect(await find({}, { k: 1, _id: 1 }, 100)).to.deep.equal(ASC);
        expect(await find({}, { k: -1, _id: -1 }, 100)).to.deep.equal([...ASC].reverse());
        expect(await find({}, { k: 1, _id: 1 }, 4)).to.deep.equal(ASC.slice(0, 4));
        expect(await find({}, { k: -1, _id: -1 }, 3)).to.deep.equal(ASC.slice(-3).reverse());
        expect(await find({}, { k: 1, _id: -1 }, 2), 'null and missing tie on k').to.deep.equal(['m-02-null', 'm-01-missing']);
      });

      const cases: Array<[string, Document, string[]]> = [
        ['$gt on a number matches numbers of every kind only', { k: { $gt: 2.5 } }, ['m-04-int', 'm-05-long']],
        ['$gte/$lte on numbers', { k: { $gte: 5, $lte: 10 } }, ['m-04-int', 'm-05-long']],
        ['a string range is bytewise', { k: { $gte: 'B', $lt: 'z' } }, ['m-06-B', 'm-07-a']],
        ['$gt on a string reaches past ASCII', { k: { $gt: 'z' } }, ['m-09-e-acute']],
        ['a date range, before 1970 included', { k: { $lt: new Date(1500) } }, ['m-14-date-before-1970', 'm-15-date-1000']],
        ['$gt on an ObjectId', { k: { $gt: OID_LOW } }, ['m-11-oid-high']],
        ['$gt false', { k: { $gt: false } }, ['m-13-true']],
        ['$in of mixed types, null matching a missing field', { k: { $in: [5, 'a', null] } }, ['m-01-missing', 'm-02-null', 'm-04-int', 'm-07-a']],
        ['equality across int64 and double', { k: 10.0 }, ['m-05-long']],
        ['equality on null matches null and missing', { k: null }, ['m-01-missing', 'm-02-null']],
        ['$ne null', { k: { $ne: null }, _id: { $lt: 'm-05' } }, ['m-03-double', 'm-04-int']],
        ['$or of ranges on two types', { $or: [{ k: { $lt: 3 } }, { k: { $gte: new Date(2000) } }] }, ['m-03-double', 'm-16-date-2000']],
        ['an empty $in', { k: { $in: [] } }, []],
      ];
      for (const [what, filter, expected] of cases) {
        it(`${what}, sorted and limited`, async () => {
          expect(await find(filter, { k: 1, _id: 1 }, 50)).to.deep.equal(expected);
          expect(await find(filter, { k: -1, _id: -1 }, 50), 'descending').to.deep.equal([...expected].reverse());
          if (expected.length > 1) expect(await find(filter, { k: 1, _id: 1 }, 1), 'limit 1').to.deep.equal(expected.slice(0, 1));
        });
      }

      it('null on a field no index has (written key <= null on our build) matches null and missing, and $ne null the rest', async () => {
        // u: the same values as k, in a field without an index (heldReason and tenantId in ops stuck's filter).
        for (const d of MIXED) if ('k' in d) await collection().updateOne({ _id: d._id }, { $set: { u: d.k } });
        expect(await find({ u: null }, { k: 1, _id: 1 }, 50)).to.deep.equal(['m-01-missing', 'm-02-null']);
        expect(await find({ u: null, k: { $lt: 'z' } }, { k: 1, _id: 1 }, 50), 'beside a range').to.deep.equal([]);
        expect(await find({ u: { $ne: null } }, { k: 1, _id: 1 }, 50)).to.deep.equal(ASC.slice(2));
        expect(await find({ u: { $in: [null, 'a'] } }, { k: -1, _id: -1 }, 50)).to.deep.equal(['m-07-a', 'm-02-null', 'm-01-missing']);
        expect(await find({ $or: [{ u: null }, { u: false }] }, { k: 1, _id: 1 }, 2)).to.deep.equal(['m-01-missing', 'm-02-null']);
      });

      it('an array in the sorted field: sorted by its smallest element ascending, its largest descending; ranges and equality match an element', async () => {
        await collection().insertOne({ _id: 'm-arr', k: [7, 'c'] });
        const asc = [...ASC.slice(0, 4), 'm-arr', ...ASC.slice(4)]; // min 7: between 5 and 10
        expect(await find({}, { k: 1, _id: 1 }, 100)).to.deep.equal(asc);
        const desc = [...ASC].reverse();
        desc.splice(desc.indexOf('m-07-a'), 0, 'm-arr'); // max 'c': between 'z' and 'a'
        expect(await find({}, { k: -1, _id: -1 }, 100)).to.deep.equal(desc);
        expect(await find({ k: { $gt: 6 } }, { k: 1, _id: 1 }, 10)).to.deep.equal(['m-arr', 'm-05-long']);
        expect(await find({ k: 'c' }, { _id: 1 }, 10)).to.deep.equal(['m-arr']);
      });

      it('an embedded document in a filtered field: equality compares the whole document', async () => {
        await collection().insertOne({ _id: 'm-doc', k: { a: 1 } });
        expect(await find({ k: { a: 1 } }, { _id: 1 }, 10)).to.deep.equal(['m-doc']);
        expect(await find({ k: { $gte: 'a' } }, { k: 1 }, 10)).to.deep.equal(['m-07-a', 'm-08-z', 'm-09-e-acute']);
      });

      it('_id of several types in one collection: a find by _id (limit 1, as findOne sends) matches its own value and type only; sorted by _id, MongoDB type order', async () => {
        // (our build answers a limited find by _id without the type probe: _id never holds an array, and a
        // condition on it matches values of its own type only; a sort by _id keeps the probe)
        const ids: unknown[] = [5, '5', 2.5, { a: 1 }, OID_LOW, new Date(1000), true];
        const typed = collection() as unknown as Collection<{ _id: unknown; n: number }>;
        await typed.insertMany(ids.map((_id, n) => ({ _id, n })));
        const one = async (filter: Document) => (await typed.find(filter).limit(1).toArray()).map((d) => d.n);
        expect(await one({ _id: 5 })).to.deep.equal([0]);
        expect(await one({ _id: '5' })).to.deep.equal([1]);
        expect(await one({ _id: 5.0 }), 'a double equal to an int').to.deep.equal([0]);
        expect(await one({ _id: OID_LOW })).to.deep.equal([4]);
        expect(await one({ _id: new Date(1000) })).to.deep.equal([5]);
        expect(await one({ _id: true })).to.deep.equal([6]);
        expect(await one({ _id: 'nobody' })).to.deep.equal([]);
        expect((await typed.findOne({ _id: { a: 1 } }))?.n, 'an embedded document as _id').to.equal(3);
        const ranged = async (filter: Document) => (await typed.find(filter).limit(10).toArray()).map((d) => d.n).sort();
        expect(await ranged({ _id: { $gte: 2.5 } }), 'a range matches its own type only').to.deep.equal([0, 2]);
        expect(await ranged({ _id: { $gt: '4', $lt: '6' } })).to.deep.equal([1]);
        expect(await ranged({ _id: { $gte: 2.5, $lt: 'zzzz' } }), 'a number and a string range: nothing is both').to.deep.equal([]);
        const sorted = (await typed.find({ n: { $gte: 0 } }).sort({ _id: 1 }).limit(7).toArray()).map((d) => d.n);
        expect(sorted, 'numbers, strings, documents, ObjectId, boolean, date').to.deep.equal([2, 0, 1, 3, 4, 6, 5]);
      });

      it('findOne by a non-_id field returns a matching document', async () => {
        expect((await collection().findOne({ k: true }))?._id).to.equal('m-13-true');
        expect(await collection().findOne({ k: 'nobody' })).to.equal(null);
      });
    });

    describe('a filter allowing a few values of a field an index orders by the sort after it (one walk per value, merged)', () => {
      // g: strings, null, missing, and 5 stored as int, long and double (one equality matches all three).
      const G: unknown[] = ['a', 'b', 'c', null, undefined, 5, Long.fromNumber(5), 5.0];
      const DOCS: AnyDoc[] = Array.from({ length: 80 }, (_, i) => {
        const g = G[(i * 3) % G.length];
        return { _id: `g-${String(i).padStart(3, '0')}`, ...(g === undefined ? {} : { g }), k: (i * 7) % 80, t: i % 2 ? 'odd' : 'even' };
      });
      const gOf = (d: AnyDoc) => (d.g === undefined ? null : d.g instanceof Long ? d.g.toNumber() : d.g);

      beforeEach(async () => {
        await collection().createIndex({ g: 1, k: -1, _id: -1 });
        await collection().createIndex({ t: 1, g: 1, k: -1, _id: -1 });
        await collection().insertMany([...DOCS].reverse());
      });

      const cases: Array<[string, Document, (d: AnyDoc) => boolean]> = [
        ['$in of two strings', { g: { $in: ['a', 'c'] } }, (d) => ['a', 'c'].includes(gOf(d) as string)],
        ['$in repeating a value', { g: { $in: ['b', 'a', 'b'] } }, (d) => ['a', 'b'].includes(gOf(d) as string)],
        ['$in with null: null and missing', { g: { $in: [null, 'b'] } }, (d) => gOf(d) === null || gOf(d) === 'b'],
        ['$in of one number as int, long and double', { g: { $in: [5, Long.fromNumber(5), 5.0] } }, (d) => gOf(d) === 5],
        ['$in with a range on the same field', { g: { $in: ['a', 'b', 'c'], $gt: 'a' } }, (d) => gOf(d) === 'b' || gOf(d) === 'c'],
        ['$in after a pinned field', { t: 'odd', g: { $in: ['a', 'c', 5] } }, (d) => d.t === 'odd' && ['a', 'c', 5].includes(gOf(d) as string)],
        [
          '$or whose branches each give the field values, overlapping',
          { t: 'even', $or: [{ g: { $in: ['a', 'b'] } }, { g: 'b', k: { $lt: 40 } }, { g: null }] },
          (d) => d.t === 'even' && (['a', 'b'].includes(gOf(d) as string) || gOf(d) === null),
        ],
        ['a range on the sorted field too', { g: { $in: ['a', 'c'] }, k: { $lt: 50 } }, (d) => ['a', 'c'].includes(gOf(d) as string) && (d.k as number) < 50],
      ];
      for (const [what, filter, matches] of cases) {
        it(`${what}: sorted both ways, whole and limited`, async () => {
          const desc = DOCS.filter(matches)
            .sort((a, b) => (b.k as number) - (a.k as number) || (a._id < b._id ? 1 : -1))
            .map((d) => d._id);
          expect(desc.length, 'the case matches something').to.be.at.least(3);
          for (const limit of [1, 3, 100]) {
            const got = async (sort: Document) => (await collection().find(filter).sort(sort).limit(limit).toArray()).map((d) => d._id);
            expect(await got({ k: -1, _id: -1 }), `descending, limit ${limit}`).to.deep.equal(desc.slice(0, limit));
            expect(await got({ k: 1, _id: 1 }), `ascending, limit ${limit}`).to.deep.equal([...desc].reverse().slice(0, limit));
          }
        });
      }
    });

    describe('the invoice list query (listFilter, LIST_SORT and its cursor) on 300 invoices of three owners', () => {
      beforeEach(async () => {
        // The indexes the invoices model declares (src/db/models/invoice.ts), the unique number key among them.
        for (const [keys, options] of InvoiceModel.schema.indexes()) await collection().createIndex(keys as Record<string, 1 | -1>, { unique: options?.unique === true });
        await collection().insertMany(INVOICES);
      });

      /** Every page of the query, following the cursor as the API does. */
      async function allPages(owner: (typeof OWNERS)[number], q: Omit<InvoiceListQuery, 'limit'>, limit: number): Promise<string[][]> {
        const pages: string[][] = [];
        let cursor: InvoiceListQuery['cursor'];
        for (;;) {
          const rows = await collection()
            .find(listFilter(ownerFilter(owner), { ...q, limit, cursor }))
            .sort(LIST_SORT)
            .limit(limit + 1)
            .toArray();
          const page = rows.slice(0, limit);
          pages.push(page.map((d) => d._id));
          if (rows.length <= limit) return pages;
          const last = page[page.length - 1];
          cursor = { createdAt: last.createdAt as Date, id: last._id };
          expect(encodeCursor(cursor)).to.be.a('string');
          if (pages.length > 100) throw new Error('the cursor does not advance');
        }
      }

      const queries: Array<[string, Omit<InvoiceListQuery, 'limit'>]> = [
        ['no filter', {}],
        ['one status', { status: ['acknowledged'] }],
        ['two statuses', { status: ['rejected', 'queued'] }],
        ['drafts that are not held', { status: ['draft'] }],
        ['held drafts', { status: ['held'] }],
        ['held drafts and a status', { status: ['held', 'rejected'] }],
        ['held drafts and the others', { status: ['draft', 'held'] }],
        ['drafts that are not held and two statuses', { status: ['queued', 'draft', 'rejected'] }],
        ['held drafts, a week', { from: '2025-01-20', to: '2025-01-26', status: ['held'] }],
        ['from and to', { from: '2025-01-10', to: '2025-02-05' }],
        ['a week', { from: '2025-01-20', to: '2025-01-26' }],
        ['a week with two statuses', { from: '2025-01-20', to: '2025-01-26', status: ['acknowledged', 'queued'] }],
        ['a window too long to list its days', { from: '2024-12-01', to: '2025-03-01' }],
        ['from only, with a status', { from: '2025-02-20', status: ['delivered', 'acknowledged'] }],
        ['a number', { number: 'N-42' }],
        ['a number of another owner', { number: 'N-43' }],
      ];
      for (const owner of OWNERS) {
        for (const [what, q] of queries) {
          it(`${ownerLabel(owner)}: ${what}: every page in order, none missed or repeated`, async () => {
            const expected = expectedList(owner, q);
            const pages = await allPages(owner, q, 7);
            expect(pages.flat()).to.deep.equal(expected);
            expect(pages.slice(0, -1).every((p) => p.length === 7), 'full pages before the last').to.equal(true);
          });
        }
      }

      it('a cursor on a tie of createdAt continues within the tie by _id', async () => {
        const owner = OWNERS[0];
        const expected = expectedList(owner, {});
        const tied = INVOICES.filter((inv) => inv.partnerId === 'p1' && inv.createdAt.getTime() === INVOICES[9].createdAt.getTime());
        expect(tied.length, 'invoices of p1 sharing one createdAt').to.be.at.least(2);
        const after = tied.sort((a, b) => (a._id < b._id ? 1 : -1))[0];
        const rows = await collection()
          .find(listFilter(ownerFilter(owner), { limit: 5, cursor: { createdAt: after.createdAt, id: after._id } }))
          .sort(LIST_SORT)
          .limit(5)
          .toArray();
        const from = expected.indexOf(after._id) + 1;
        expect(rows.map((d) => d._id)).to.deep.equal(expected.slice(from, from + 5));
      });

      it('the unique number key (numberScope, numberPeriod, number): a number once per scope and period', async () => {
        const [partner, , tenant] = OWNERS;
        const doc = (owner: OwnerRef, _id: string, number: string, issueDate: string) => ({ _id, ...ownerFields(owner), ...numberKey(owner, number, issueDate), issueDate, status: 'draft' });
        const code = (p: Promise<unknown>) => p.then(() => null, (err: { code?: number }) => err.code);
        expect(await code(collection().insertOne(doc(partner, 'dup-p-same-year', 'N-0', '2025-12-31'))), 'the SME, same year').to.equal(11000);
        expect(await code(collection().insertOne(doc(partner, 'dup-p-next-year', 'N-0', '2026-01-01'))), 'the SME, next year').to.equal(null);
        expect(await code(collection().insertOne(doc(tenant, 'dup-t-other-year', 'N-2', '2031-06-01'))), 'the tenant, any year').to.equal(11000);
        const sandbox: OwnerRef = { kind: 'tenant', tenantId: 't1', mode: 'sandbox' };
        expect(await code(collection().insertOne(doc(sandbox, 'dup-t-sandbox', 'N-2', '2025-01-01'))), 'the tenant, another mode').to.equal(null);
      });

      it("a tenant's numbers looked up by the unique key's prefix, and an owner's invoices of a listed status oldest first", async () => {
        const tenant = OWNERS[2];
        const { numberScope, numberPeriod } = numberKey(tenant, '', '');
        const found = await collection().find({ numberScope, numberPeriod, number: { $in: ['N-2', 'N-5', 'N-3', 'nobody'] } }, { projection: { number: 1 } }).toArray();
        expect(found.map((d) => d.number).sort()).to.deep.equal(['N-2', 'N-5']);
        const rejected = INVOICES.filter((inv) => inv.numberScope === numberScope && inv.status === 'rejected')
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a._id < b._id ? -1 : 1))
          .map((inv) => inv._id);
        const rows = await collection().find({ numberScope, listStatus: 'rejected' }).sort({ createdAt: 1, _id: 1 }).limit(4).toArray();
        expect(rows.map((d) => d._id)).to.deep.equal(rejected.slice(0, 4));
      });
    });
  });
}
