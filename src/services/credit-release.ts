// After a top-up: wake the owner's invoices that wait in blocked_no_credit. Each workflow then runs its own
// credit step, so the balance decides which resume; this only makes sure every one of them gets to try.
import { Invoice } from '../db/models';
import type { CreditOwner } from '../domain/credits';
import { spendingScope } from '../domain/owner';
import { logger } from '../logger';
import { signalCreditsAvailable } from '../temporal/client';

/** The owner's blocked invoices, oldest first (the order they were submitted in), from its number scope's list-status index. */
async function blockedInvoiceIds(owner: CreditOwner): Promise<string[]> {
  const rows = await Invoice.find({ numberScope: spendingScope(owner), listStatus: 'blocked_no_credit' }, { _id: 1 }).sort({ createdAt: 1, _id: 1 }).lean();
  return rows.map((r) => r._id);
}

/**
 * Signals `creditsAvailable` to each blocked invoice, one after another, oldest first. A workflow that is not
 * running is skipped (support's `retry` restarts such an invoice). A failed signal is logged, not thrown: the
 * top-up has happened either way. It also stops the round, since Temporal is then most likely unreachable and
 * each further signal would wait for its own connect timeout.
 */
export async function releaseBlockedInvoices(owner: CreditOwner): Promise<{ signalled: number; notRunning: number; unsignalled: number }> {
  const ids = await blockedInvoiceIds(owner);
  const counts = { signalled: 0, notRunning: 0, unsignalled: 0 };
  for (const [i, invoiceId] of ids.entries()) {
    try {
      if (await signalCreditsAvailable(invoiceId)) counts.signalled++;
      else counts.notRunning++;
    } catch (err) {
      counts.unsignalled = ids.length - i;
      logger.warn({ err, invoiceId }, 'credits: could not signal a blocked invoice after a top-up; the rest stay blocked until retried');
      break;
    }
  }
  if (counts.notRunning || counts.unsignalled) logger.warn({ owner, ...counts }, 'credits: some blocked invoices were not released by the top-up');
  return counts;
}
