// Evidence of what was sent to the ASP and what came back (issue: authority audits). The submission record is
// created when the document is handed over; every later answer (a poll, a callback) adds the statuses it
// reports. Recording the same answer twice changes nothing, so duplicate callbacks are harmless.
import { createHash } from 'node:crypto';
import { AspSubmission, AspSubmissionDocument, Invoice, type AspSubmissionDoc } from '../db/models';
import type { Submission } from '../provider/asp-api';
import { verdictOfEvidence } from '../provider/asp-verdicts';
import { chainAnswers, chainFreshAnswers, chainHandOver, type InvoiceFacts } from '../records/evidence-chain';

export interface HandedOver {
  invoiceId: string;
  run: number;
  xml: string;
  documentUuid: string;
  submissionId: string | null;
  /** The ASP's raw reply, when it gave one (the in-process simulation of test mode does not). */
  answer?: Submission;
  /** The invoice's seller TRN and number, when the caller has read them (the chain needs them). */
  seller?: InvoiceFacts;
}

export const documentIdOf = (invoiceId: string, run: number): string => `${invoiceId}-${run}`;

/**
 * Opens the record of a hand-over before the document goes to the ASP: the ASP may call back (naming our document
 * id) before its submit answer reaches us, and the callback must find the record. Repeating it (a retried step)
 * keeps the first XML.
 */
export async function openHandOver(h: Pick<HandedOver, 'invoiceId' | 'run' | 'xml' | 'documentUuid'>): Promise<void> {
  const _id = documentIdOf(h.invoiceId, h.run);
  await insertOnce(() => AspSubmissionDocument.create({ _id, xml: h.xml }));
  await insertOnce(() =>
    AspSubmission.create({
      _id,
      invoiceId: h.invoiceId,
      run: h.run,
      submissionId: null,
      documentUuid: h.documentUuid,
      documentSha256: createHash('sha256').update(h.xml, 'utf8').digest('hex'),
      statusAt: {},
      mls: null,
      ackRef: null,
      answers: [],
    }),
  );
}

/** An insert that a retried step repeats: the first one stands. */
async function insertOnce(insert: () => Promise<unknown>): Promise<void> {
  try {
    await insert();
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
  }
}

/** The ASP's answer to the hand-over: its submission id and the statuses it reports (openHandOver came first). */
export async function recordHandOver(h: HandedOver): Promise<void> {
  const _id = documentIdOf(h.invoiceId, h.run);
  // The evidence chain (src/records): the hand-over first, then what the ASP answered.
  await chainHandOver(h);
  if (h.submissionId && !h.answer) {
    // The usual case of the in-process simulation: both facts in one write (a repeated step falls through to one each).
    const uploadedAt = new Date().toISOString();
    const both = await AspSubmission.updateOne({ _id, submissionId: null, 'statusAt.UPLOADED': { $exists: false } }, { $set: { submissionId: h.submissionId, 'statusAt.UPLOADED': uploadedAt } });
    if (both.matchedCount === 1) {
      // (a callback that overtook us chained its own statuses and reference)
      return chainFreshAnswers({ invoiceId: h.invoiceId, run: h.run, source: 'handover', fresh: { UPLOADED: uploadedAt }, ackRef: null, ackRefChanged: false, submissionId: h.submissionId, seller: h.seller });
    }
  }
  if (h.submissionId) await AspSubmission.updateOne({ _id, submissionId: null }, { $set: { submissionId: h.submissionId } });
  if (h.answer) await recordAnswer(h.answer, 'submit');
  // The in-process simulation of test mode gives no answer: the hand-over time stands for UPLOADED.
  else await AspSubmission.updateOne({ _id, 'statusAt.UPLOADED': { $exists: false } }, { $set: { 'statusAt.UPLOADED': new Date().toISOString() } });
  await chainAnswers(h.invoiceId, h.run, h.answer ? 'submit' : 'handover');
}

/** The evidence record an ASP answer is about, as recordAnswer reads it. */
export type AnsweredRecord = Pick<AspSubmissionDoc, '_id' | 'invoiceId' | 'run' | 'statusAt' | 'ackRef' | 'submissionId'>;

/** The record an ASP answer is about; null for a submission we never made. */
export async function answeredRecord(sub: Submission): Promise<AnsweredRecord | null> {
  // By our document id (the primary key, one index lookup) when the answer names it; the ASP's id must then agree.
  const fields = { invoiceId: 1, run: 1, statusAt: 1, ackRef: 1, submissionId: 1 };
  const record = sub.documentId
    ? await AspSubmission.findById(sub.documentId, fields).lean<AspSubmissionDoc>()
    : await AspSubmission.findOne({ submissionId: sub.submissionId }, fields).lean<AspSubmissionDoc>();
  if (!record || (record.submissionId && record.submissionId !== sub.submissionId)) return null;
  return record;
}

/** The mode (test, sandbox, live) of the invoice an evidence record belongs to; null when it is gone. */
export async function modeOfRecord(record: Pick<AspSubmissionDoc, 'invoiceId'>): Promise<string | null> {
  return (await Invoice.findById(record.invoiceId, { mode: 1 }).lean())?.mode ?? null;
}

/**
 * Adds what an ASP answer says to its submission's record. Returns null for a submission we never made, else
 * the invoice it belongs to and whether the answer told us anything new.
 */
export async function recordAnswer(sub: Submission, source: 'submit' | 'poll' | 'callback' | 'simulated', found?: AnsweredRecord): Promise<{ invoiceId: string; run: number; changed: boolean } | null> {
  const record = found ?? (await answeredRecord(sub));
  if (!record) return null;
  const known = (record.statusAt ?? {}) as Record<string, string>;
  const times = statusTimes(sub);
  const fresh = Object.entries(times).filter(([status]) => !known[status]);
  if (!fresh.length && (record.ackRef ?? null) === (sub.ackRef ?? null) && record.submissionId) {
    // Nothing new. The answer to our submit is still kept when callbacks overtook it and told the same first: it is
    // the ASP's own receipt of the document. Chains what a crash after the last write may have left unchained.
    if (source === 'submit') await AspSubmission.updateOne({ _id: record._id }, { $push: { answers: { at: new Date(), source, body: sub } } });
    await chainAnswers(record.invoiceId, record.run, source);
    return { invoiceId: record.invoiceId, run: record.run, changed: false };
  }
  const ackRef = sub.ackRef ?? record.ackRef ?? null;
  // The reference and the MLS only when this answer carries them: two answers recorded at once (a poll and a
  // callback) both read the record first, and the one without would write back the stale null over the other's.
  const $set: Record<string, unknown> = { submissionId: sub.submissionId, ...(sub.mls && { mls: sub.mls }), ...(sub.ackRef && { ackRef: sub.ackRef }) };
  for (const [status, at] of fresh) $set[`statusAt.${status}`] = at;
  await AspSubmission.updateOne({ _id: record._id }, { $set, $push: { answers: { at: new Date(), source, body: sub } } });
  if (sub.ackRef && !record.ackRef) {
    const settled = verdictOfEvidence({ submissionId: sub.submissionId, statusAt: { ...known, ...times }, mls: sub.mls, ackRef: sub.ackRef });
    await showAckRef(record.invoiceId, sub.ackRef, settled.status === 'acknowledged');
  }
  const ackRefChanged = ackRef !== (record.ackRef ?? null);
  await chainFreshAnswers({ invoiceId: record.invoiceId, run: record.run, source, fresh: Object.fromEntries(fresh), ackRef, ackRefChanged, submissionId: sub.submissionId });
  return { invoiceId: record.invoiceId, run: record.run, changed: true };
}

/**
 * The acknowledgement reference is shown with the invoice itself too. When the answer settles the hand-over as
 * acknowledged, the workflow's acknowledged transition writes it in the same update (one write of the invoice
 * fewer), so here it is written only to an invoice that has left delivered already. The order closes the race:
 * this runs after the evidence write, and an acknowledged transition whose verdict had no reference reads the
 * evidence after its own write (ackRefFromEvidence).
 */
async function showAckRef(invoiceId: string, ackRef: string, acknowledges: boolean): Promise<void> {
  await Invoice.updateOne(acknowledges ? { _id: invoiceId, status: { $ne: 'delivered' } } : { _id: invoiceId }, { $set: { ackRef } });
}

/** After an acknowledged transition whose verdict named no reference: the evidence's, if it holds one by now. */
export async function ackRefFromEvidence(invoiceId: string, run: number): Promise<void> {
  const ackRef = (await AspSubmission.findById(documentIdOf(invoiceId, run), { ackRef: 1 }).lean<AspSubmissionDoc>())?.ackRef;
  if (ackRef) await Invoice.updateOne({ _id: invoiceId, ackRef: null }, { $set: { ackRef } });
}

/** A submission's evidence record as the verdict check reads it (null: no such hand-over). */
export async function submissionEvidence(invoiceId: string, run: number): Promise<Pick<AspSubmissionDoc, 'submissionId' | 'statusAt' | 'mls' | 'ackRef' | 'refusedSignals'> | null> {
  return AspSubmission.findById(documentIdOf(invoiceId, run), { submissionId: 1, statusAt: 1, mls: 1, ackRef: 1, refusedSignals: 1 }).lean<AspSubmissionDoc>();
}

/** Refused signals kept per hand-over: enough for an audit, bounded against a flood of them. */
export const MAX_REFUSED_SIGNALS = 100;

/**
 * Notes a verdict signal the evidence did not support on its hand-over's record (the signal changed nothing).
 * `kept` is how many the record holds already: past MAX_REFUSED_SIGNALS only the log line remains.
 */
export async function recordRefusedSignal(invoiceId: string, run: number, kept: number, refusal: { claimed: Record<string, unknown>; why: string }): Promise<void> {
  if (kept >= MAX_REFUSED_SIGNALS) return;
  await AspSubmission.updateOne({ _id: documentIdOf(invoiceId, run) }, { $push: { refusedSignals: { at: new Date(), ...refusal } } });
}

function statusTimes(sub: Submission): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of sub.history ?? []) out[h.status] ??= h.at;
  return out;
}

export interface EvidenceView {
  invoiceId: string;
  submissions: {
    documentId: string;
    run: number;
    submissionId: string | null;
    documentUuid: string;
    documentSha256: string;
    statuses: { status: string; at: string }[];
    mls: unknown;
    ackRef: string | null;
    answers: { at: string; source: string; body: unknown }[];
  }[];
}

/** GET /invoices/{id}/evidence: every hand-over of the invoice, oldest run first. */
export async function evidenceOf(invoiceId: string): Promise<EvidenceView> {
  const rows = await AspSubmission.find({ invoiceId }, { xml: 0, refusedSignals: 0 }).lean<AspSubmissionDoc[]>();
  rows.sort((a, b) => a.run - b.run);
  return {
    invoiceId,
    submissions: rows.map((r) => ({
      documentId: r._id,
      run: r.run,
      submissionId: r.submissionId ?? null,
      documentUuid: r.documentUuid,
      documentSha256: r.documentSha256,
      statuses: Object.entries((r.statusAt ?? {}) as Record<string, string>)
        .map(([status, at]) => ({ status, at }))
        .sort((a, b) => a.at.localeCompare(b.at)),
      mls: r.mls ?? null,
      ackRef: r.ackRef ?? null,
      answers: (r.answers ?? []).map((a) => ({ at: new Date(a.at).toISOString(), source: a.source, body: a.body })),
    })),
  };
}
