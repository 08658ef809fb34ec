import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { WebhookDelivery } from '../db/models';
import { temporalClient } from '../temporal/client';
import { webhookWorkflowId } from '../temporal/workflow-ids';
import type { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery';
import { ModeKey, PartnerIdKey } from '../../workflows/search-attributes';
import { createDelivery, type NewDelivery } from './deliveries';
import type { EventStatus } from './event';

// Starting deliveries from outside workflows (API, CLI). Inside workflows use fireStatusWebhook instead.

export interface StartedDelivery {
  deliveryId: string;
  status: 'pending';
}

/**
 * Sends invoice.status_changed for an invoice that just reached `status` outside the pipeline (the reserved
 * test TRN path marks it delivered synchronously). Returns null, creating nothing, when the partner has no
 * webhook URL. The first attempt is immediate, well within SPEC's 5 s.
 */
export async function startStatusWebhook(invoiceId: string, status: EventStatus, reason: string | null, opts: { retryScheduleMs?: number[] } = {}): Promise<StartedDelivery | null> {
  try {
    return await createAndStart({ deliveryId: randomUUID(), invoiceId, event: { status, reason }, trigger: 'api', retryScheduleMs: opts.retryScheduleMs ?? config().webhookRetryScheduleMs });
  } catch (err) {
    if ((err as { code?: string }).code === 'webhook_url_not_configured') return null;
    throw err;
  }
}

/**
 * A new delivery of the invoice's last event (SPEC 4.1 replay-webhook): a fresh row and workflow, earlier rows
 * kept. Throws WebhookError invoice_not_found (also for another owner's invoice), no_event, or
 * webhook_url_not_configured.
 */
export function replayStatusWebhook(invoiceId: string, opts: { owner?: { partnerId: string; smeId: string }; retryScheduleMs?: number[] } = {}): Promise<StartedDelivery> {
  return createAndStart({ deliveryId: randomUUID(), invoiceId, trigger: 'replay', owner: opts.owner, retryScheduleMs: opts.retryScheduleMs ?? config().webhookRetryScheduleMs });
}

async function createAndStart(input: NewDelivery): Promise<StartedDelivery> {
  const created = await createDelivery(input);
  try {
    const client = await temporalClient();
    await client.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
      taskQueue: config().temporalTaskQueue,
      workflowId: webhookWorkflowId(created.deliveryId),
      args: [{ deliveryId: created.deliveryId, retryScheduleMs: created.retryScheduleMs }],
      memo: { invoiceId: input.invoiceId },
      // Support filters deliveries in the Web UI: WorkflowType = 'webhookDeliveryWorkflow' AND PartnerId = '...'
      typedSearchAttributes: [
        { key: PartnerIdKey, value: created.partnerId },
        { key: ModeKey, value: created.mode },
      ],
    });
  } catch (err) {
    // Nothing was sent and nothing will be: drop the row rather than leave a "pending" that never moves.
    await WebhookDelivery.deleteOne({ _id: created.deliveryId, attempts: 0 }).catch(() => {});
    throw err;
  }
  return { deliveryId: created.deliveryId, status: 'pending' };
}
