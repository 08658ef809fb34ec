// After a top-up: wake the owner's invoices that wait in blocked_no_credit. Each workflow then runs its own
// credit step, so the balance decides which resume; this only makes sure every one of them gets to try.
import { Invoice, SmeConnection, tenantNumberScope } from '../db/models';
import type { CreditOwner } from '../domain/credits';
import { logger } from '../logger';
import { signalCreditsAvailable } from '../temporal/client';

/** The owner's blocked invoices, oldest first (the order they were submitted in). */
async function blockedInvoiceIds(owner: CreditOwner): Promise<string[]> {
  switch (owner.kind) {
    case 'sme': {
      const sme = await SmeConnection.findById(owner.id, { partnerId: 1 }).lean();
      if (!sme) return [];
      // partnerId + smeId: the prefix of the invoices' list index.
      const rows = await Invoice.find({ partnerId: sme.partnerId, smeId: owner.id, status: 'blocked_no_credit' }, { _id: 1 })
        .sort({ createdAt: 1, _id: 1 })
        .lean();
      return rows.map((r) => r._id);
    }
    case 'tenant': {
      // Live invoices only: the other modes never spend. (smeId is the tenant's live number scope.)
      const rows = await Invoice.find({ smeId: tenantNumberScope(owner.id, 'live'), status: 'blocked_no_credit' }, { _id: 1 }).sort({ createdAt: 1, _id: 1 }).lean();
      return rows.map((r) => r._id);
    }
  }
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
