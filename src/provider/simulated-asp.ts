// The built-in ASP of test mode (DESIGN: test mode never calls a provider). It accepts a hand-over, then
// acknowledges by signalling the invoice workflow shortly after, as a real ASP's callback would. Integrators
// steer it deterministically with a marker in buyer.name, so every outcome can be tried in test mode.
import { invoiceWorkflowId } from '../temporal/workflow-ids';
import { temporalClient } from '../temporal/client';
import { acknowledgedSignal, type AspVerdict } from '../../workflows/invoice-signals';
import { logger } from '../logger';

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

export type HandOver = { accepted: true; submissionId: string } | { accepted: false; reason: string };

/** Pure: the answer to a hand-over. The submission id is stable per run, so a retried activity gets the same one. */
export function simulatedHandOver(invoice: { _id: string; run?: number | null; body: unknown }): HandOver {
  if (simulatedBehaviour(invoice.body as never) === 'refuse') return { accepted: false, reason: SIMULATED_REFUSAL };
  return { accepted: true, submissionId: `sim-${invoice._id}-${invoice.run ?? 1}` };
}

/** Pure: the final answer about an accepted hand-over (what a poll returns; also what the signal carries). */
export function simulatedVerdict(invoice: { body: unknown }, submissionId: string): AspVerdict {
  return simulatedBehaviour(invoice.body as never) === 'reject_after_delivery'
    ? { submissionId, status: 'rejected', reason: SIMULATED_AUTHORITY_REJECTION }
    : { submissionId, status: 'acknowledged', reason: null };
}

/**
 * Sends the acknowledgement signal after delayMs. Held in memory only: if this process dies first, the
 * workflow's timer fallback polls simulatedVerdict instead, so no invoice waits forever.
 */
export function scheduleSimulatedAcknowledgement(invoice: { _id: string; body: unknown }, submissionId: string, delayMs: number): void {
  if (simulatedBehaviour(invoice.body as never) === 'no_ack') return;
  const verdict = simulatedVerdict(invoice, submissionId);
  const timer = setTimeout(() => {
    void (async () => {
      try {
        const client = await temporalClient();
        await client.workflow.getHandle(invoiceWorkflowId(invoice._id)).signal(acknowledgedSignal, verdict);
      } catch (err) {
        // The invoice was deleted (workflow terminated) or Temporal is away: the timer fallback covers the latter.
        logger.warn({ err, invoiceId: invoice._id }, 'simulated ASP could not signal the acknowledgement');
      }
    })();
  }, delayMs);
  timer.unref();
}
