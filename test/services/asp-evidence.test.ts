import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { AspSubmission, AspSubmissionDocument } from '../../src/db/models';
import { openHandOver, recordAnswer, recordHandOver } from '../../src/services/asp-evidence';
import type { Submission } from '../../src/provider/asp-api';

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
