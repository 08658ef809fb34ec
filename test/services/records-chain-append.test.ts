import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { EvidenceChainEntry } from '../../src/db/models/evidence-chain-entry';
import { appendChainEntry, chainKey, type ChainFact } from '../../src/records/chain-append';
import { nextChainEntry, verifyChainSegment, type ChainEntry } from '../../src/records/chain-hash';

const trnOf = () => `1${String(Math.floor(Math.random() * 1e14)).padStart(14, '0')}`;
const fact = (trn: string, invoiceId: string): ChainFact => ({ trn, kind: 'handover', invoiceId, number: 'INV-1', at: new Date().toISOString(), data: { run: 1 } });
const chainOf = (trn: string) => EvidenceChainEntry.find({ trn }).sort({ seq: 1 }).lean<ChainEntry[]>();

/** Runs `fn` counting the insert commands sent to the chain's collection (mongoose's command hook). */
async function countingChainInserts<T>(fn: () => Promise<T>): Promise<{ result: T; inserts: number }> {
  let inserts = 0;
  mongoose.set('debug', (collection: string, method: string) => void (collection === 'evidence_chain' && method.startsWith('insert') && (inserts += 1)));
  try {
    return { result: await fn(), inserts };
  } finally {
    mongoose.set('debug', false);
  }
}

describe('records: chain appends (real store)', () => {
  it('an append after another process moved the head (the remembered head is stale) takes the next free seq', async () => {
    const trn = trnOf();
    await appendChainEntry(fact(trn, 'a'), chainKey('a', 1, 'handover'));
    // Another process appends behind this one's back: the head this process remembers is now one behind.
    const [head] = await chainOf(trn);
    await EvidenceChainEntry.create({ ...nextChainEntry(head, fact(trn, 'b')), key: chainKey('b', 1, 'handover') });
    const third = await appendChainEntry(fact(trn, 'c'), chainKey('c', 1, 'handover'));
    expect(third.seq).to.equal(3);
    const chain = await chainOf(trn);
    expect(chain.map((e) => e.invoiceId)).to.deep.equal(['a', 'b', 'c']);
    expect(verifyChainSegment(chain)).to.deep.include({ ok: true, count: 3 });
  });

  it('a repeated fact appends nothing and returns the stored entry, whatever head is remembered', async () => {
    const trn = trnOf();
    const id = randomUUID();
    const first = await appendChainEntry(fact(trn, id), chainKey(id, 1, 'handover'));
    await appendChainEntry(fact(trn, 'x'), chainKey('x', 1, 'handover'));
    const again = await appendChainEntry(fact(trn, id), chainKey(id, 1, 'handover'));
    expect(again).to.deep.include({ seq: first.seq, hash: first.hash });
    expect((await chainOf(trn)).length).to.equal(2);
  });

  it('racing appends of one TRN in one process each get their own seq, in one unbroken chain', async () => {
    const trn = trnOf();
    const ids = Array.from({ length: 20 }, () => randomUUID());
    await Promise.all(ids.map((id) => appendChainEntry(fact(trn, id), chainKey(id, 1, 'handover'))));
    const chain = await chainOf(trn);
    expect(chain.map((e) => e.seq)).to.deep.equal(ids.map((_, i) => i + 1));
    expect(verifyChainSegment(chain)).to.deep.include({ ok: true, count: 20 });
  });

  it('appends that arrive while an insert is in flight are written together by the next insert, each with its own seq', async () => {
    const trn = trnOf();
    const ids = Array.from({ length: 30 }, () => randomUUID());
    const { result, inserts } = await countingChainInserts(() => Promise.all(ids.map((id) => appendChainEntry(fact(trn, id), chainKey(id, 1, 'handover')))));
    expect(inserts, 'the first alone, the 29 that came meanwhile in one').to.equal(2);
    expect(result.map((e) => e.seq)).to.deep.equal(ids.map((_, i) => i + 1));
    const chain = await chainOf(trn);
    expect(chain.map((e) => e.invoiceId)).to.deep.equal(ids);
    expect(verifyChainSegment(chain)).to.deep.include({ ok: true, count: 30 });
  });

  it('a repeated fact inside a batch: the facts around it are chained once each, the repeat returns the stored entry', async () => {
    const trn = trnOf();
    const [x, a, b, c, d] = Array.from({ length: 5 }, () => randomUUID());
    const first = await appendChainEntry(fact(trn, x), chainKey(x, 1, 'handover'));
    const ids = [a, b, x, c, d];
    const entries = await Promise.all(ids.map((id) => appendChainEntry(fact(trn, id), chainKey(id, 1, 'handover'))));
    expect(entries[2]).to.deep.include({ seq: first.seq, hash: first.hash });
    const chain = await chainOf(trn);
    expect(chain.map((e) => e.invoiceId)).to.deep.equal([x, a, b, c, d]);
    expect(verifyChainSegment(chain)).to.deep.include({ ok: true, count: 5 });
  });

  it('a batch whose first seq another process took meanwhile is written after the new head, whole', async () => {
    const trn = trnOf();
    const [a, other, ...ids] = Array.from({ length: 6 }, () => randomUUID());
    await appendChainEntry(fact(trn, a), chainKey(a, 1, 'handover'));
    const [head] = await chainOf(trn);
    await EvidenceChainEntry.create({ ...nextChainEntry(head, fact(trn, other)), key: chainKey(other, 1, 'handover') });
    const entries = await Promise.all(ids.map((id) => appendChainEntry(fact(trn, id), chainKey(id, 1, 'handover'))));
    expect(entries.map((e) => e.seq)).to.deep.equal([3, 4, 5, 6]);
    const chain = await chainOf(trn);
    expect(chain.map((e) => e.invoiceId)).to.deep.equal([a, other, ...ids]);
    expect(verifyChainSegment(chain)).to.deep.include({ ok: true, count: 6 });
  });
});
