import { setCurrentDetails } from '@temporalio/workflow';
import type { HeldInvoiceInput, HeldInvoiceResult } from '../src/temporal/contract';
import { heldDetails } from '../src/temporal/invoice-display';

// A held invoice (the pre-submit checks found it would be refused) never enters the pipeline: it is stored as held
// and the partner DELETEs it and POSTs a corrected body. This workflow (id invoice-<invoiceId>, InvoiceStatus=held,
// the invoice's search attributes and memo) only records the hold, so support finds held invoices in the Web UI
// like any other; it ends at once with the reasons as its result. No activities, no timers: one workflow task.
export async function heldInvoiceWorkflow(input: HeldInvoiceInput): Promise<HeldInvoiceResult> {
  setCurrentDetails(heldDetails(input));
  return { status: 'held', heldReason: input.heldReason, heldErrors: input.heldErrors };
}
