import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { EvidenceChainEntry } from '../../src/db/models/evidence-chain-entry';
import { AspSubmission, AspSubmissionDocument, Invoice } from '../../src/db/models';
import { answeredRecord, openHandOver, recordAnswer, recordHandOver } from '../../src/services/asp-evidence';
import type { Submission } from '../../src/provider/asp-api';
import { advanceInvoiceStatus } from '../../activities/invoice-pipeline';
import { newPartner } from '../helpers/partners';
import { invoiceAt } from '../helpers/webhook-receiver';

// The ASP may call back before its answer to our submit reaches us (the simulator does within 50 ms). The record is
// opened before the document leaves, so the early callback is recorded, not refused as an unknown submission.
describe('ASP evidence: a callback that overtakes the submit answer', () => {
  const answer = (documentId: string, submissionId: string, status: Submission['status']): Submission => ({
    submissionId,
    documentId,
    status,
    history: [{ status: 'UPLOADED', at: '2026-11-23T06:00:00.000Z' }, ...(status === 'REPORTED' ? [{ status: 'REPORTED' as const, at: '2026-11-23T06:00:01.000Z' }] : [])],
    mls: null,
    ackRef: status === 'REPORTED' ? 'FTA-EARLY' : null,
  });

  it('is recorded against the opened hand-over; the later submit answer adds to it; another ASP id is refused', async () => {
    const invoiceId = randomUUID();
    const documentId = `${invoiceId}-1`;
    await openHandOver({ invoiceId, run: 1, xml: '<Invoice/>', documentUuid: randomUUID() });
    const early = await recordAnswer(answer(documentId, 'sub-1', 'REPORTED'), 'callback');
    expect(early).to.deep.equal({ invoiceId, run: 1, changed: true });
    await recordHandOver({ invoiceId, run: 1, xml: '<Invoice/>', documentUuid: 'x', submissionId: 'sub-1', answer: answer(documentId, 'sub-1', 'UPLOADED') });
    const stored = await AspSubmission.findById(documentId).lean();
    expect(stored).to.include({ submissionId: 'sub-1', ackRef: 'FTA-EARLY' });
    expect((await AspSubmissionDocument.findById(documentId).lean())?.xml).to.equal('<Invoice/>'); // kept apart, once
    expect(Object.keys(stored!.statusAt as object)).to.have.members(['UPLOADED', 'REPORTED']);
    expect(await recordAnswer(answer(documentId, 'sub-other', 'REPORTED'), 'callback')).to.equal(null);
    expect(await recordAnswer(answer(`${randomUUID()}-1`, 'sub-2', 'REPORTED'), 'callback')).to.equal(null);
  });
});

// The acknowledgement reference is shown with the invoice. An answer that settles a delivered invoice as
// acknowledged leaves it to the workflow's acknowledged transition (one invoice write instead of two); that
// transition, when its verdict named no reference, reads the evidence after its write, so a reference recorded
// while it was under way is not lost.
describe('ASP evidence: the ackRef reaches the invoice', () => {
  const reported = (documentId: string, submissionId: string, ackRef: string | null, at = '2026-11-23T06:00:01.000Z'): Submission => ({
    submissionId, documentId, status: 'REPORTED', mls: null, ackRef,
    history: [{ status: 'UPLOADED', at: '2026-11-23T06:00:00.000Z' }, { status: 'REPORTED', at }],
  });
  async function deliveredWithHandOver(): Promise<{ invoiceId: string; documentId: string }> {
    const invoiceId = await invoiceAt(await newPartner(), 'delivered');
    await openHandOver({ invoiceId, run: 1, xml: '<Invoice/>', documentUuid: randomUUID() });
    return { invoiceId, documentId: `${invoiceId}-1` };
  }
  const ackRefOf = async (invoiceId: string) => (await Invoice.findById(invoiceId, { ackRef: 1 }).lean())?.ackRef ?? null;

  it('an acknowledging answer on a delivered invoice: written by the acknowledged transition, with the verdict', async () => {
    const { invoiceId, documentId } = await deliveredWithHandOver();
    await recordAnswer(reported(documentId, 'sub-a', 'FTA-A0001'), 'callback');
    expect(await ackRefOf(invoiceId)).to.equal(null); // still delivered: the transition carries it
    expect((await AspSubmission.findById(documentId).lean())?.ackRef).to.equal('FTA-A0001');
    await advanceInvoiceStatus({ invoiceId, to: 'acknowledged', expected: { status: 'delivered', run: 1 }, ackRef: 'FTA-A0001' });
    expect(await Invoice.findById(invoiceId, { status: 1, ackRef: 1 }).lean()).to.include({ status: 'acknowledged', ackRef: 'FTA-A0001' });
  });

  it('a verdict without a reference: the transition takes the one the evidence holds by then', async () => {
    const { invoiceId, documentId } = await deliveredWithHandOver();
    await recordAnswer(reported(documentId, 'sub-b', null), 'poll'); // the verdict the workflow acts on: no reference yet
    await recordAnswer(reported(documentId, 'sub-b', 'FTA-B0001'), 'callback'); // arrives while the transition is under way
    expect(await ackRefOf(invoiceId)).to.equal(null);
    await advanceInvoiceStatus({ invoiceId, to: 'acknowledged', expected: { status: 'delivered', run: 1 } });
    expect(await ackRefOf(invoiceId)).to.equal('FTA-B0001');
  });

  it('two answers recorded at once (each read the record first): the one without a reference does not erase the other\'s', async () => {
    const { invoiceId, documentId } = await deliveredWithHandOver();
    const stale = (await answeredRecord(reported(documentId, 'sub-d', null)))!; // both answers read this, before either writes
    const polled: Submission = { ...reported(documentId, 'sub-d', null), status: 'DELIVERED', history: [{ status: 'DELIVERED', at: '2026-11-23T06:00:00.500Z' }] };
    await recordAnswer(reported(documentId, 'sub-d', 'FTA-D0001'), 'callback', stale);
    await recordAnswer(polled, 'poll', stale);
    expect((await AspSubmission.findById(documentId).lean())?.ackRef).to.equal('FTA-D0001');
    await advanceInvoiceStatus({ invoiceId, to: 'acknowledged', expected: { status: 'delivered', run: 1 } }); // a verdict read before the callback
    expect(await ackRefOf(invoiceId)).to.equal('FTA-D0001');
  });

  it('a reference that comes after the invoice is acknowledged is written by the answer itself', async () => {
    const { invoiceId, documentId } = await deliveredWithHandOver();
    await recordAnswer(reported(documentId, 'sub-c', null), 'poll');
    await advanceInvoiceStatus({ invoiceId, to: 'acknowledged', expected: { status: 'delivered', run: 1 } });
    expect(await ackRefOf(invoiceId)).to.equal(null);
    await recordAnswer(reported(documentId, 'sub-c', 'FTA-C0001'), 'callback');
    expect(await ackRefOf(invoiceId)).to.equal('FTA-C0001');
  });
});

// The seller and number of a handed-over invoice cannot change: the answers that follow in the same process chain
// them without reading the invoice again.
describe('ASP evidence: answers after a hand-over in this process', () => {
  it('chain the invoice\'s seller and number without reading the invoice', async () => {
    const invoiceId = await invoiceAt(await newPartner(), 'validated');
    const facts = (await Invoice.findById(invoiceId, { sellerTrn: 1, number: 1 }).lean())!;
    const seller = { sellerTrn: facts.sellerTrn, number: facts.number };
    await openHandOver({ invoiceId, run: 1, xml: '<Invoice/>', documentUuid: randomUUID() });
    await recordHandOver({ invoiceId, run: 1, xml: '<Invoice/>', documentUuid: randomUUID(), submissionId: 'sub-m', seller });
    const invoiceReads: string[] = [];
    mongoose.set('debug', (collection: string, method: string) => void (collection === 'invoices' && method.startsWith('find') && invoiceReads.push(method)));
    try {
      const reported: Submission = { submissionId: 'sub-m', documentId: `${invoiceId}-1`, status: 'REPORTED', mls: { code: 'AP' }, ackRef: 'TEST-M', history: [{ status: 'REPORTED', at: new Date().toISOString() }] };
      expect(await recordAnswer(reported, 'simulated')).to.deep.equal({ invoiceId, run: 1, changed: true });
    } finally {
      mongoose.set('debug', false);
    }
    expect(invoiceReads).to.deep.equal([]);
    const chained = await EvidenceChainEntry.find({ invoiceId }).sort({ seq: 1 }).lean();
    expect(chained.map((e) => [e.kind, (e.data as { status?: string }).status ?? null, e.trn, e.number])).to.deep.equal([
      ['handover', null, facts.sellerTrn, facts.number],
      ['asp_answer', 'UPLOADED', facts.sellerTrn, facts.number],
      ['asp_answer', 'REPORTED', facts.sellerTrn, facts.number],
    ]);
  });
});
