import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { config } from '../config';
import { WebhookDelivery } from '../db/models';
import { startWebhookDelivery } from '../temporal/client';
import { webhookWorkflowId } from '../temporal/contract';
import { createDelivery, type CreatedDelivery, type NewDelivery } from './deliveries';
import type { EventStatus } from './event';
import type { Owner, OwnerRef } from '../domain/owner';

// The one way a delivery starts: its row, then its workflow (webhookDeliveryWorkflow), started through the client.
// The invoice workflow's announcements (a local activity, workflows/announce-status.ts) and replays from the API and
// the CLI all come here.

export interface StartedDelivery {
  deliveryId: string;
  status: 'pending';
}

/**
 * A new delivery of the invoice's last event (SPEC 4.1 replay-webhook): a fresh row and workflow, earlier rows
 * kept. Throws a webhookError invoice_not_found (also for another owner's invoice), no_event, or
 * webhook_url_not_configured.
 */
export function replayStatusWebhook(invoiceId: string, opts: { owner?: Owner | OwnerRef; retryScheduleMs?: number[] } = {}): Promise<StartedDelivery> {
  return createAndStart({ deliveryId: randomUUID(), invoiceId, trigger: 'replay', owner: opts.owner, retryScheduleMs: opts.retryScheduleMs ?? config().webhookRetryScheduleMs });
}

async function createAndStart(input: NewDelivery): Promise<StartedDelivery> {
  const created = await createDelivery(input);
  try {
    await startWebhookDelivery(created);
  } catch (err) {
    // Nothing was sent and nothing will be: drop the row rather than leave a "pending" that never moves.
    await WebhookDelivery.deleteOne({ _id: created.deliveryId, attempts: 0 }).catch(() => {});
    throw err;
  }
  return { deliveryId: created.deliveryId, status: 'pending' };
}

/**
 * The invoice workflow's announcement of a status, as a step Temporal may repeat: the row and the workflow are both
 * keyed by the deliveryId the workflow chose, so a repeat finds the row and the running (or finished) delivery and
 * starts nothing twice. A failed start is retried by the step, never dropped: the event must go out.
 */
export async function announceDelivery(input: NewDelivery): Promise<CreatedDelivery & { workflowId: string }> {
  const created = await createDelivery(input);
  try {
    await startWebhookDelivery(created);
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return { ...created, workflowId: webhookWorkflowId(created.deliveryId) };
}
