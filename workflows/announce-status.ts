import { log, proxyLocalActivities, uuid4, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { PartnerIdKey, TenantIdKey } from '../src/temporal/contract';
import { applicationFailure } from './failures';

// The one way the invoice workflow announces a status (SPEC 6.1 webhooks, 6.2 Tenant status updates): a local
// activity creates the delivery row and starts its webhookDeliveryWorkflow through the client, as replays from the
// API and the CLI do (src/webhooks/start.ts). Not a child workflow: a child's start and completion cost the invoice
// workflow two more workflow tasks and five history events, and the delivery outlives the invoice's run anyway.
// The marker's result names the delivery's workflow id. The steps that write delivered and acknowledged announce
// them themselves (given `newDelivery()`), so the common path has no marker of its own for them.

const { startStatusWebhook } = proxyLocalActivities<Activities>({
  // keep trying through a database or Temporal outage rather than lose an event (refusals are final: activities/failures.ts)
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export interface StatusEvent {
  invoiceId: string;
  /** acknowledged: Tenant API invoices only (their status updates announce it; partners' events do not). */
  status: 'delivered' | 'acknowledged' | 'rejected';
  reason: string | null;
}

/**
 * Creates the event's delivery row and starts its delivery. Does nothing when the partner has no webhook URL (or the
 * tenant no status URL). Never fails the caller for a refused row (the invoice deleted meanwhile): the invoice
 * outcome matters more, and a partner can always replay.
 */
export async function announceStatus(event: StatusEvent): Promise<void> {
  try {
    await startStatusWebhook({ ...event, ...newDelivery() });
  } catch (err) {
    const refusal = applicationFailure(err);
    if (!refusal) throw err;
    log.warn('webhook not created', { invoiceId: event.invoiceId, reason: refusal.message });
  }
}

/**
 * A new delivery's id (uuid4 is replay-safe in workflows) and the run's PartnerId / TenantId search attribute
 * (set at start): with them the activity answers "no URL" without reading the invoice.
 */
export function newDelivery(): { deliveryId: string; partnerId?: string; tenantId?: string } {
  const attributes = workflowInfo().typedSearchAttributes;
  const partnerId = attributes.get(PartnerIdKey);
  const tenantId = attributes.get(TenantIdKey);
  // (a run has one of the two: its invoice's party)
  return { deliveryId: uuid4(), ...(partnerId && { partnerId }), ...(tenantId && { tenantId }) };
}
