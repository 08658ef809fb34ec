import { log, ParentClosePolicy, proxyLocalActivities, startChild, uuid4, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { PartnerIdKey, TenantIdKey, webhookDeliveryStart } from '../src/temporal/contract';
import { applicationFailure } from './failures';
import { webhookDeliveryWorkflow } from './webhook-delivery-workflow';

// The one way the invoice workflow announces a status (SPEC 6.1 webhooks, 6.2 Tenant status updates): a local
// activity creates the delivery row, then webhookDeliveryWorkflow starts as an abandoned child that sends it (it
// outlives the invoice workflow, e.g. across continueAsNew). Replays from the API and the CLI
// (src/webhooks/start.ts) create the same row and start the same workflow from outside.

const { createWebhookDelivery } = proxyLocalActivities<Activities>({
  // keep trying through a database outage rather than lose an event (refusals are final: activities/failures.ts)
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
 * Creates the event's delivery row and starts its delivery, waiting only for the child to start. Does nothing
 * when the partner has no webhook URL (or the tenant no status URL). Never fails the caller for a refused row (the
 * invoice deleted meanwhile): the invoice outcome matters more, and a partner can always replay.
 */
export async function announceStatus(event: StatusEvent): Promise<void> {
  let created: Awaited<ReturnType<typeof createWebhookDelivery>>;
  try {
    created = await createWebhookDelivery({ ...event, ...newDeliveryOf() });
  } catch (err) {
    const refusal = applicationFailure(err);
    if (!refusal) throw err;
    log.warn('webhook not created', { invoiceId: event.invoiceId, reason: refusal.message });
    return;
  }
  if (!created) return;
  await startChild(webhookDeliveryWorkflow, {
    ...webhookDeliveryStart({ ...created, invoiceId: event.invoiceId, eventStatus: event.status }),
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
}

/**
 * A new delivery row's id (uuid4 is replay-safe in workflows) and the run's PartnerId / TenantId search attribute
 * (set at start): with them the activity answers "no URL" without reading the invoice.
 */
function newDeliveryOf(): { deliveryId: string; partnerId?: string; tenantId?: string } {
  const attributes = workflowInfo().typedSearchAttributes;
  const partnerId = attributes.get(PartnerIdKey);
  const tenantId = attributes.get(TenantIdKey);
  // (a run has one of the two: its invoice's party)
  return { deliveryId: uuid4(), ...(partnerId && { partnerId }), ...(tenantId && { tenantId }) };
}
