import { expect } from 'chai';
import { createHash } from 'node:crypto';
import {
  GENESIS_HASH, canonicalJson, chainEntryHash, nextChainEntry, verifyChainSegment, type ChainEntry,
} from '../../../src/records/chain-hash';

const TRN = '100000000000003';

function chain(n: number): ChainEntry[] {
  const out: ChainEntry[] = [];
  for (let i = 0; i < n; i += 1) {
    const prev = out.at(-1) ?? null;
    out.push(nextChainEntry(prev, {
      trn: TRN, kind: i % 2 ? 'asp_answer' : 'handover', invoiceId: `inv-${i}`, number: `N-${i}`,
      at: `2026-11-27T08:0${i}:00.000Z`,
      data: i % 2 ? { run: 1, status: 'accepted', ackRef: `ACK-${i}`, source: 'asp', answeredAt: '2026-11-27T08:00:00.000Z' }
        : { run: 1, sha256: 'a'.repeat(64), documentUuid: `uuid-${i}` },
    }));
  }
  return out;
}

describe('records: evidence chain hash (pure)', () => {
  it('canonical JSON sorts keys recursively, drops undefined and has no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 'x' }], c: undefined } })).to.equal('{"a":{"d":[2,{"y":"x","z":1}]},"b":1}');
    expect(canonicalJson({ a: '1.10' })).to.not.equal(canonicalJson({ a: '1.1' }));
  });

  it('hashes the body as sha256 of its canonical JSON, whatever the key order or extra stored fields', () => {
    const [e] = chain(1);
    const body = { trn: e.trn, seq: e.seq, kind: e.kind, invoiceId: e.invoiceId, number: e.number, at: e.at, data: e.data, prevHash: e.prevHash };
    const expected = createHash('sha256').update(canonicalJson(body)).digest('hex');
    expect(chainEntryHash(body)).to.equal(expected).and.to.equal(e.hash);
    const shuffled = { prevHash: e.prevHash, data: e.data, at: e.at, number: e.number, invoiceId: e.invoiceId, kind: e.kind, seq: e.seq, trn: e.trn };
    expect(chainEntryHash(shuffled)).to.equal(expected);
    expect(chainEntryHash({ ...e, _id: 'x', createdAt: 'y' } as ChainEntry)).to.equal(expected);
    expect(e.prevHash).to.equal(GENESIS_HASH);
    expect(e.seq).to.equal(1);
  });

  it('verifies an intact chain and a segment started from its first prevHash', () => {
    const c = chain(5);
    expect(verifyChainSegment(c)).to.deep.equal({ ok: true, count: 5, head: c[4].hash });
    expect(verifyChainSegment([])).to.deep.equal({ ok: true, count: 0, head: null });
    expect(verifyChainSegment(c.slice(2), c[2].prevHash)).to.deep.equal({ ok: true, count: 3, head: c[4].hash });
    // Without the start hash, a segment that skips seq 1 is a break.
    expect(verifyChainSegment(c.slice(2))).to.include({ ok: false, seq: 3 });
  });

  it('reports the first altered entry: a changed data byte, a changed field, a recomputed hash without relinking', () => {
    const c = chain(5);
    const altered = c.map((e) => ({ ...e, data: { ...e.data } }));
    altered[2].data.sha256 = 'b' + 'a'.repeat(63);
    const v1 = verifyChainSegment(altered);
    expect(v1).to.include({ ok: false, seq: 3 });
    expect((v1 as { reason: string }).reason).to.match(/altered/);

    const renumbered = c.map((e, i) => (i === 3 ? { ...e, number: 'N-X' } : e));
    expect(verifyChainSegment(renumbered)).to.include({ ok: false, seq: 4 });

    // A forger recomputes entry 2's hash: the link from entry 3 breaks instead.
    const forged = c.map((e) => ({ ...e }));
    forged[1] = { ...forged[1], data: { ...forged[1].data, status: 'rejected' } };
    forged[1].hash = chainEntryHash(forged[1]);
    const v2 = verifyChainSegment(forged);
    expect(v2).to.include({ ok: false, seq: 3 });
    expect((v2 as { reason: string }).reason).to.match(/broken link/);
  });

  it('reports a removed or reordered entry', () => {
    const c = chain(5);
    expect(verifyChainSegment([c[0], c[1], c[3], c[4]])).to.include({ ok: false, seq: 4 });
    expect(verifyChainSegment([c[0], c[2], c[1]])).to.include({ ok: false, seq: 3 });
    expect(verifyChainSegment([c[1], c[2]])).to.include({ ok: false, seq: 2 });
  });
});
