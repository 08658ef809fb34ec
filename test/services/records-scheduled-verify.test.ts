import { expect } from 'chai';
import { AspSubmissionDocument } from '../../src/db/models';
import { EvidenceChainCheck, EvidenceChainEntry } from '../../src/db/models/evidence-chain-entry';
import { verifyEvidenceChains } from '../../src/records/scheduled-verify';
import { invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { ensureWorker } from '../helpers/worker';

async function acknowledged(p: TestPartner): Promise<string> {
  const { body } = await postInvoice(p, invoiceBody(p));
  await waitForStatus(p, body.invoiceId, 'acknowledged');
  return body.invoiceId;
}

/** The runs a budget of nothing takes to walk the TRN's whole chain once, and what each of them reported. */
async function passInSlices(trn: string, now?: Date) {
  const runs = [];
  for (let i = 0; i < 50; i++) {
    const run = await verifyEvidenceChains({ trns: [trn], budgetMs: 0, ...(now && { now }) });
    const check = await EvidenceChainCheck.findById(trn).lean();
    runs.push({ ...run, passAt: check?.pass?.seq ?? null, head: check?.seq ?? null });
    if (run.fullPasses > 0) break;
  }
  return runs;
}

describe('records: the scheduled chain check keeps to its budget (real Temporal, API, store)', function () {
  this.timeout(180_000);
  before(() => ensureWorker());

  it('a full pass a run cannot finish goes on from where it stopped, one run after another, to the same verdict', async () => {
    const p = await newPartner();
    await acknowledged(p);
    await acknowledged(p);
    const entries = await EvidenceChainEntry.countDocuments({ trn: p.sme.trn });
    expect(entries).to.be.at.least(4);

    // A budget of nothing: each run moves the pass on by one entry (never zero), and saves where it stopped.
    const first = await passInSlices(p.sme.trn);
    expect(first).to.have.length(entries);
    expect(first.slice(0, -1).map((r) => [r.unfinished, r.fullPasses, r.passAt, r.head])).to.deep.equal(first.slice(0, -1).map((_, i) => [1, 0, i + 1, null]));
    expect(first.at(-1)).to.deep.include({ unfinished: 0, fullPasses: 1, passAt: null, head: entries, breaks: [] });
    expect(first.reduce((n, r) => n + r.entriesVerified, 0)).to.equal(entries);

    // Until the next day only new links are checked; then a pass starts again and meets a document changed meanwhile
    // when it reaches that document's entry, in whichever run that is.
    const second = await EvidenceChainEntry.findOne({ trn: p.sme.trn, kind: 'handover' }).sort({ seq: -1 }).lean();
    const docId = `${second!.invoiceId}-1`;
    const xml = (await AspSubmissionDocument.findById(docId).lean())!.xml;
    await AspSubmissionDocument.updateOne({ _id: docId }, { $set: { xml: xml.replace('</', ' </') } });
    try {
      expect(await verifyEvidenceChains({ trns: [p.sme.trn], budgetMs: 0 })).to.deep.include({ fullPasses: 0, unfinished: 0, breaks: [] });
      const nextDay = new Date(Date.now() + 24 * 3600_000);
      const runs: Awaited<ReturnType<typeof verifyEvidenceChains>>[] = [];
      for (let i = 0; i < entries && !runs.at(-1)?.breaks.length; i++) runs.push(await verifyEvidenceChains({ trns: [p.sme.trn], budgetMs: 0, now: nextDay }));
      expect(runs).to.have.length(second!.seq);
      expect(runs.at(-1)!.breaks.map((b) => [b.seq, b.kind, b.invoiceId])).to.deep.equal([[second!.seq, 'handover', second!.invoiceId]]);
      // The pass stays before the break: the next run reports it again rather than passing over it.
      const again = await verifyEvidenceChains({ trns: [p.sme.trn], budgetMs: 0, now: nextDay });
      expect(again.breaks.map((b) => b.seq)).to.deep.equal([second!.seq]);
      expect((await EvidenceChainCheck.findById(p.sme.trn).lean())!.pass!.seq).to.equal(second!.seq - 1);
    } finally {
      await AspSubmissionDocument.updateOne({ _id: docId }, { $set: { xml } });
    }
  });

  it('with a budget to spare, every chain is checked whole in one run, the one waiting longest first', async () => {
    const [a, b] = [await newPartner(), await newPartner()];
    await acknowledged(a);
    await acknowledged(b);
    // b was checked long ago, a never: with a budget of nothing, a's pass goes first and b's waits.
    await EvidenceChainCheck.updateOne({ _id: b.sme.trn }, { $set: { seq: 1, hash: (await EvidenceChainEntry.findOne({ trn: b.sme.trn, seq: 1 }).lean())!.hash, fullAt: new Date(Date.now() - 3 * 24 * 3600_000) } }, { upsert: true });
    const starved = await verifyEvidenceChains({ trns: [b.sme.trn, a.sme.trn], budgetMs: 0 });
    expect(starved).to.deep.include({ fullPasses: 0, unfinished: 2, breaks: [] });
    expect((await EvidenceChainCheck.findById(a.sme.trn).lean())!.pass!.seq).to.equal(1);
    expect((await EvidenceChainCheck.findById(b.sme.trn).lean())!.pass).to.equal(undefined);

    const whole = await verifyEvidenceChains({ trns: [a.sme.trn, b.sme.trn] });
    expect(whole).to.deep.include({ chains: 2, fullPasses: 2, unfinished: 0, breaks: [] });
    for (const trn of [a.sme.trn, b.sme.trn]) {
      const check = (await EvidenceChainCheck.findById(trn).lean())!;
      expect(check.pass).to.equal(undefined);
      expect(check.seq).to.equal(await EvidenceChainEntry.countDocuments({ trn }));
    }
  });

  it('checks every chain when no TRN is named', async () => {
    const p = await newPartner();
    await acknowledged(p);
    // (other tests' invoices may still be chaining: a first entry can appear between the counts)
    const before = (await EvidenceChainEntry.distinct('trn')).length;
    const run = await verifyEvidenceChains({ budgetMs: 0 });
    const after = new Set<string>(await EvidenceChainEntry.distinct('trn'));
    expect(run.chains).to.be.within(before, after.size);
    expect(after.has(p.sme.trn)).to.equal(true);
  });
});
