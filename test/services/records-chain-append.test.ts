import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { EvidenceChainEntry } from '../../src/db/models/evidence-chain-entry';
import { appendChainEntry, chainKey, type ChainFact } from '../../src/records/chain-append';
import { nextChainEntry, verifyChainSegment, type ChainEntry } from '../../src/records/chain-hash';

const trnOf = () => `1${String(Math.floor(Math.random() * 1e14)).padStart(14, '0')}`;
const fact = (trn: string, invoiceId: string): ChainFact => ({ trn, kind: 'handover', invoiceId, number: 'INV-1', at: new Date().toISOString(), data: { run: 1 } });
const chainOf = (trn: string) => EvidenceChainEntry.find({ trn }).sort({ seq: 1 }).lean<ChainEntry[]>();

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
});
