import { ApplicationFailure } from '@temporalio/workflow';
import type { Settle, SettledVerdict } from '../activities/invoice-pipeline';
import { newDelivery } from './announce-status';
import { explain, waitAtMost, waitFor, type InvoiceRun } from './invoice-run';
import { beginInvoiceRun, confirmAspVerdict, pollAspVerdict } from './pipeline-activities';

const MAX_ACK_POLL_MS = 6 * 60 * 60 * 1000;
/** How long a delivered invoice waits for the ASP's verdict before InvoiceStatus says delivered. */
const QUIET_WAIT_MS = 5_000;

/**
 * The wait before poll number `poll + 1` on the ASPs' schedule: every `base` for the first 4, then every
 * 4 x base for 5 more, then doubling, at most 6 hours. ("Don't stop polling at DELIVERED": an invoice is done
 * when the authority has it.)
 */
export function aspPollDelayMs(base: number, poll: number): number {
  if (poll < 4) return base;
  if (poll < 9) return 4 * base;
  return Math.min(4 * base * 2 ** (poll - 8), MAX_ACK_POLL_MS);
}

type Verdict = Exclude<SettledVerdict, { status: 'pending' }>;

/**
 * The ASP's verdict: a signal the evidence confirms, or after the fallback timer (and on an ops `retry` nudge) its
 * answer to a poll. A signal the evidence does not support changes nothing: the wait goes on to the same poll. The
 * step that finds the verdict acknowledged also writes it (and announces it on the Tenant API).
 */
export async function awaitVerdict(r: InvoiceRun): Promise<Verdict> {
  const { invoiceId } = r;
  // (a run that found its invoice already delivered learns the hand-over's id here)
  const submissionId = r.submissionId ?? (await beginInvoiceRun({ invoiceId })).aspSubmissionId;
  if (!submissionId) throw ApplicationFailure.nonRetryable(`invoice ${invoiceId} is delivered without an ASP submission id`, 'unexpected_status');
  let waitMs = r.input.ackFallbackMs;
  for (let poll = 1; ; poll++) {
    const pollAt = Date.now() + waitMs;
    r.waitingAsp = { submissionId, pollAt, waitMs };
    const decided = () => r.verdicts.has(submissionId) || r.retryRequested;
    // An ASP usually answers within a second: the search attribute (a command and a visibility write) says
    // delivered only when the verdict has not come in QUIET_WAIT_MS. (The current details say it at once.)
    const quiet = poll === 1 ? Math.min(QUIET_WAIT_MS, waitMs) : 0;
    const heard = quiet > 0 && (explain(r), await waitAtMost(r, decided, quiet));
    if (!heard && waitMs > quiet) await waitFor(r, decided, waitMs - quiet);
    // Each signal is checked against the evidence (or the ASP); a refused one leaves the rest of this wait to run.
    for (let claimed = r.verdicts.get(submissionId); claimed; claimed = r.verdicts.get(submissionId)) {
      r.verdicts.delete(submissionId);
      const confirmed = await confirmAspVerdict({ invoiceId, claimed, run: r.run, mode: r.input.mode, settle: settleOf(r) });
      if (confirmed.status !== 'pending') return settled(r, confirmed);
      const left = pollAt - Date.now();
      if (left > 0 && !r.retryRequested) await waitFor(r, decided, left);
    }
    r.retryRequested = false;
    const polled = await pollAspVerdict({ invoiceId, submissionId, settle: settleOf(r) });
    if (polled.status !== 'pending') return settled(r, polled);
    waitMs = aspPollDelayMs(r.input.ackFallbackMs, poll);
  }
}

/** How a step settles an acknowledged verdict: from the status and run this run knows, announced on the Tenant API. */
function settleOf(r: InvoiceRun): Settle {
  const expected = { status: r.current === 'unknown' ? 'delivered' : r.current, run: r.run };
  return r.surface === 'tenant' ? { expected, announce: newDelivery() } : { expected };
}

function settled(r: InvoiceRun, verdict: Verdict): Verdict {
  r.waitingAsp = null;
  return verdict;
}
