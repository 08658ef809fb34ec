import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Invoice } from '../../src/db/models';
import { call } from '../helpers/http';
import { invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { ensureWorker } from '../helpers/worker';

const list = (p: TestPartner, query = '') => call('GET', `/v1/partner/invoices${query ? `?${query}` : ''}`, { headers: p.headers });

/** Every page of a query, following nextCursor; `between` runs after each page. */
async function allPages(p: TestPartner, query: string, between: (page: number) => Promise<void> = async () => {}): Promise<{ items: any[]; pages: number[] }> {
  const items: any[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const res = await list(p, [query, cursor ? `cursor=${encodeURIComponent(cursor)}` : ''].filter(Boolean).join('&'));
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.have.all.keys('data', 'nextCursor');
    items.push(...res.body.data);
    pages.push(res.body.data.length);
    cursor = res.body.nextCursor;
    await between(pages.length);
  } while (cursor);
  return { items, pages };
}

/**
 * 250 invoices of one SME, made through bulk: every 25th a normal invoice (pipeline), four in 25 delivered at
 * once by the reserved test TRN, the rest held (no workflow, so the run stays light). issueDate 2025-03-01..28.
 */
async function twoHundredFifty(p: TestPartner): Promise<{ ids: string[]; kinds: string[] }> {
  const kinds: string[] = [];
  const bodies = Array.from({ length: 250 }, (_, i) => {
    const kind = i % 25 === 0 ? 'normal' : i % 25 <= 4 ? 'reserved' : 'held';
    kinds.push(kind);
    return invoiceBody(p, (b) => {
      b.number = `L-${i}`;
      b.issueDate = `2025-03-${String(1 + (i % 28)).padStart(2, '0')}`;
      if (kind === 'reserved') b.seller.trn = '100000000000000';
      if (kind === 'held') delete b.seller.address;
    });
  });
  const ids: string[] = [];
  for (let start = 0; start < 250; start += 100) {
    const res = await call('POST', '/v1/partner/invoices/bulk', { headers: { ...p.headers, 'Idempotency-Key': randomUUID() }, json: { invoices: bodies.slice(start, start + 100) } });
    expect(res.status).to.equal(207);
    expect(res.body.summary.failed, res.text).to.equal(0);
    ids.push(...res.body.results.map((r: any) => r.invoiceId));
  }
  return { ids, kinds };
}

describe('GET /v1/partner/invoices (filters, cursor pagination)', function () {
  this.timeout(180_000);
  let p: TestPartner;
  let ids: string[];
  let kinds: string[];
  before(async () => {
    await ensureWorker();
    p = await newPartner();
    ({ ids, kinds } = await twoHundredFifty(p));
    // The normal ones go through the pipeline: let them settle, so a status filter never sees one in passing.
    await Promise.all(ids.filter((_, i) => kinds[i] === 'normal').map((id) => waitForStatus(p, id, 'acknowledged')));
  });

  it('pages through 250 invoices newest first with no duplicates or gaps while new invoices arrive', async () => {
    const arrived: string[] = [];
    const { items, pages } = await allPages(p, 'limit=100', async () => {
      for (let n = 0; n < 2; n++) arrived.push((await postInvoice(p, invoiceBody(p, (b) => delete b.seller.address))).body.invoiceId);
    });
    expect(pages).to.deep.equal([100, 100, 50]);
    const seen = items.map((i) => i.invoiceId);
    expect(new Set(seen).size).to.equal(250);
    expect([...seen].sort()).to.deep.equal([...ids].sort());
    expect(seen.some((id) => arrived.includes(id))).to.equal(false);
    const keys = items.map((i) => [Date.parse(i.createdAt), i.invoiceId] as const);
    for (let k = 1; k < keys.length; k++) {
      const [t0, id0] = keys[k - 1];
      const [t1, id1] = keys[k];
      expect(t0 > t1 || (t0 === t1 && id0 > id1), `order at ${k}`).to.equal(true);
    }
    for (const item of items) expect(item).to.have.all.keys('invoiceId', 'number', 'status', 'createdAt', 'updatedAt', 'reason', ...(item.status === 'acknowledged' ? ['ackRef'] : []));
    // The invoices that arrived meanwhile lead the next listing.
    const fresh = await list(p, 'limit=6');
    expect(fresh.body.data.map((i: any) => i.invoiceId).sort()).to.deep.equal([...arrived].sort());
  });

  it('default page size is 25', async () => {
    const { pages } = await allPages(p, 'from=2025-03-01');
    expect(pages).to.deep.equal([25, 25, 25, 25, 25, 25, 25, 25, 25, 25]);
  });

  it('filters: status (repeatable), from/to on issueDate (inclusive), number', async () => {
    const count = (kind: string) => kinds.filter((k) => k === kind).length;
    const held = await allPages(p, 'status=held&limit=100&from=2025-03-01');
    expect(held.items).to.have.length(count('held'));
    expect(held.items.every((i) => i.status === 'held' && i.reason === 'address_required')).to.equal(true);
    // draft is a draft that is not held: none here.
    expect((await list(p, 'status=draft&from=2025-03-01')).body).to.deep.equal({ data: [], nextCursor: null });
    const either = await allPages(p, 'status=held&status=delivered&limit=100&from=2025-03-01');
    expect(either.items).to.have.length(count('held') + count('reserved'));
    const day1 = await allPages(p, 'from=2025-03-01&to=2025-03-01');
    expect(day1.items.map((i) => i.number).sort()).to.deep.equal(ids.map((_, i) => i).filter((i) => i % 28 === 0).map((i) => `L-${i}`).sort());
    const range = await allPages(p, 'from=2025-03-27&to=2025-03-28&status=delivered');
    const expected = kinds.map((k, i) => (k === 'reserved' && i % 28 >= 26 ? `L-${i}` : null)).filter(Boolean);
    expect(range.items.map((i) => i.number).sort()).to.deep.equal(expected.sort());
    const one = await list(p, 'number=L-7');
    expect(one.body.data.map((i: any) => i.number)).to.deep.equal(['L-7']);
    expect(one.body.nextCursor).to.equal(null);
    const none = await list(p, 'number=L-7&status=acknowledged');
    expect(none.body).to.deep.equal({ data: [], nextCursor: null });
  });

  it('status=draft lists drafts that are not held (automatic start failed), status=held the held ones, both together both', async () => {
    const count = (kind: string) => kinds.filter((k) => k === kind).length;
    // What a failed automatic start leaves: a draft without heldReason (made here from a held one, in the store).
    const index = kinds.indexOf('held');
    await Invoice.updateOne({ _id: ids[index] }, { $set: { heldReason: null, heldErrors: null, listStatus: 'draft' } });
    const drafts = await allPages(p, 'status=draft&from=2025-03-01');
    expect(drafts.items.map((i) => [i.invoiceId, i.status])).to.deep.equal([[ids[index], 'draft']]);
    expect((await allPages(p, 'status=held&limit=100&from=2025-03-01')).items).to.have.length(count('held') - 1);
    const both = await allPages(p, 'status=draft&status=held&limit=100&from=2025-03-01');
    expect(both.items).to.have.length(count('held'));
    expect(both.items.filter((i) => i.status === 'draft').map((i) => i.invoiceId)).to.deep.equal([ids[index]]);
    // Across pages as well (the status filter beside the cursor's $or).
    const paged = await allPages(p, 'status=draft&status=delivered&limit=7&from=2025-03-01');
    expect(paged.items).to.have.length(count('reserved') + 1);
    expect(new Set(paged.items.map((i) => i.invoiceId)).size).to.equal(paged.items.length);
    expect(paged.items.map((i) => i.invoiceId)).to.include(ids[index]);
    const pagedHeld = await allPages(p, 'status=held&status=delivered&limit=7&from=2025-03-01');
    expect(pagedHeld.items).to.have.length(count('held') - 1 + count('reserved'));
    expect(pagedHeld.items.map((i) => i.invoiceId)).not.to.include(ids[index]);
  });

  it("lists only the connected SME's invoices submitted through this partner", async () => {
    const other = await newPartner();
    await postInvoice(other, invoiceBody(other, (b) => delete b.seller.address));
    const res = await list(other);
    expect(res.body.data).to.have.length(1);
  });

  it('400 validation_failed (InvalidQuery) for bad parameters, with the parameter as path', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=ten', 'limit'],
      ['status=HELD', 'status'],
      ['status=draft&status=nope', 'status[1]'],
      ['from=2025-13-01', 'from'],
      ['from=2025-03-02&to=2025-03-01', 'to'],
      ['cursor=not-a-cursor', 'cursor'],
      ['page=2', 'page'],
    ];
    for (const [query, path] of cases) {
      const res = await list(p, query);
      expect(res.status, query).to.equal(400);
      expect(res.body.code).to.equal('validation_failed');
      expect(res.body.detail).to.match(/InvalidQuery/);
      expect(res.body.meta.errors.map((e: any) => e.path), query).to.deep.equal([path]);
    }
  });
});
