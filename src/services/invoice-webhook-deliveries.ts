// The webhook deliveries of one of the caller's invoices (GET /v1/partner/invoices/{id}/webhook-deliveries).
import { Invoice, type WebhookDeliveryDoc } from '../db/models';
import { ownerFilter, type Owner } from '../domain/owner';
import { deliveriesOf } from '../webhooks/deliveries';

/** Every delivery row of the invoice, or null when it is not the caller's (the route answers 404 for both). */
export async function deliveriesOfOwnedInvoice(owner: Owner, invoiceId: string): Promise<WebhookDeliveryDoc[] | null> {
  if (!(await Invoice.exists({ _id: invoiceId, ...ownerFilter(owner) }))) return null;
  return deliveriesOf(invoiceId);
}
