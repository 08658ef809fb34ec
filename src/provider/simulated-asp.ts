// The built-in ASP of test mode (DESIGN: test mode never calls a provider). It accepts a hand-over, then
// acknowledges shortly after as a real ASP's callback would: its verdict recorded as evidence, then signalled.
// Integrators steer it deterministically with a marker in buyer.name, so every outcome can be tried in test mode.
import { createHash } from 'node:crypto';
import type { AspVerdict } from '../temporal/contract';
import { logger } from '../logger';
import type { AspClient, HandOver } from './asp';
import type { Submission } from './asp-api';

export const SIMULATE_REJECT = '[asp:reject]';
export const SIMULATE_REJECT_AFTER_DELIVERY = '[asp:reject-after-delivery]';
export const SIMULATE_NO_ACK = '[asp:no-ack]';

export type SimulatedBehaviour = 'acknowledge' | 'refuse' | 'reject_after_delivery' | 'no_ack';

/** Pure: what the simulated ASP does with an invoice, read from buyer.name. */
export function simulatedBehaviour(body: { buyer?: { name?: string } } | null | undefined): SimulatedBehaviour {
  const name = body?.buyer?.name ?? '';
  if (name.includes(SIMULATE_REJECT_AFTER_DELIVERY)) return 'reject_after_delivery';
  if (name.includes(SIMULATE_REJECT)) return 'refuse';
  if (name.includes(SIMULATE_NO_ACK)) return 'no_ack';
  return 'acknowledge';
}

export const SIMULATED_REFUSAL = 'buyer_trn_invalid: the simulated ASP refused the document ([asp:reject] in buyer.name)';
export const SIMULATED_AUTHORITY_REJECTION = 'buyer_trn_invalid: the simulated authority rejected the delivered document ([asp:reject-after-delivery] in buyer.name)';

/** Pure: the answer to a hand-over. The submission id is stable per run, so a retried activity gets the same one. */
export function simulatedHandOver(invoice: { _id: string; run?: number | null; body: unknown }): HandOver {
  if (simulatedBehaviour(invoice.body as never) === 'refuse') return { accepted: false, reason: SIMULATED_REFUSAL };
  return { accepted: true, submissionId: `sim-${invoice._id}-${invoice.run ?? 1}` };
}

/**
 * Pure: the simulated authority's acknowledgement reference of a submission. TEST- marks it as no authority's
 * (real ones never start so), so integrators can build against ackRef before sandbox; derived from the submission
 * id, so the callback, a poll and a retried step all give the same one.
 */
export function simulatedAckRef(submissionId: string): string {
  return `TEST-${createHash('sha256').update(submissionId).digest('hex').slice(0, 16).toUpperCase()}`;
}

/** Pure: the final answer about an accepted hand-over (what a poll returns; also what the signal carries). */
export function simulatedVerdict(invoice: { body: unknown }, submissionId: string): AspVerdict {
  return simulatedBehaviour(invoice.body as never) === 'reject_after_delivery'
    ? { submissionId, status: 'rejected', reason: SIMULATED_AUTHORITY_REJECTION }
    : { submissionId, status: 'acknowledged', reason: null, ackRef: simulatedAckRef(submissionId) };
}

/**
 * Pure: the verdict as an ASP answer (the wire shape a callback carries), recorded as the hand-over's evidence
 * before the workflow is told: the workflow acts only on verdicts the evidence holds. An acknowledgement carries
 * the simulated TEST- ackRef.
 */
export function simulatedAnswer(documentId: string, verdict: AspVerdict, at: string): Submission {
  const acknowledged = verdict.status === 'acknowledged';
  const status = acknowledged ? 'REPORTED' : 'FAILED';
  const [reasonCode, ...message] = (verdict.reason ?? '').split(': ');
  return {
    submissionId: verdict.submissionId,
    documentId,
    status,
    history: [{ status, at }],
    mls: acknowledged ? { code: 'AP' } : { code: 'RE', reasonCode, message: message.join(': ') },
    ackRef: acknowledged ? simulatedAckRef(verdict.submissionId) : null,
  };
}

/**
 * Records the verdict as evidence (`answer`), then tells the invoice workflow (the worker passes both in: the
 * evidence writer and the Temporal client's signal).
 */
export type VerdictSink = (invoiceId: string, verdict: AspVerdict, answer: Submission) => Promise<void>;

/**
 * The built-in ASP as a value: accepts or refuses at once, then sends its verdict through `notify` after
 * `ackDelayMs`, as a real ASP's callback would. Held in memory only: if the worker dies first, the workflow's
 * timer fallback polls instead, so no invoice waits forever.
 */
export function simulatedAsp(opts: { ackDelayMs: number; notify: VerdictSink }): AspClient {
  return {
    verdictsInEvidence: true,
    async submit({ invoiceId, run, body }) {
      const handOver = simulatedHandOver({ _id: invoiceId, run, body });
      if (handOver.accepted) scheduleAcknowledgement(invoiceId, run, body, handOver.submissionId, opts);
      return handOver;
    },
    async poll({ body, submissionId }) {
      // The timer fallback's answer is recorded as evidence too, so a poll also brings the ackRef.
      const verdict = simulatedVerdict({ body }, submissionId);
      return { ...verdict, answer: simulatedAnswer(submissionId.replace(/^sim-/, ''), verdict, new Date().toISOString()) };
    },
  };
}

function scheduleAcknowledgement(invoiceId: string, run: number, body: unknown, submissionId: string, opts: { ackDelayMs: number; notify: VerdictSink }): void {
  if (simulatedBehaviour(body as never) === 'no_ack') return;
  const verdict = simulatedVerdict({ body }, submissionId);
  const timer = setTimeout(() => {
    opts.notify(invoiceId, verdict, simulatedAnswer(`${invoiceId}-${run}`, verdict, new Date().toISOString())).catch((err: unknown) =>
      // The invoice was deleted (workflow terminated) or Temporal is away: the timer fallback covers the latter.
      logger.warn({ err, invoiceId }, 'simulated ASP could not signal the acknowledgement'),
    );
  }, opts.ackDelayMs);
  timer.unref();
}
