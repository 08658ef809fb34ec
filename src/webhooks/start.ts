import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { WebhookDelivery } from '../db/models';
import { startWebhookDelivery } from '../temporal/client';
import { createDelivery, type NewDelivery } from './deliveries';
import type { EventStatus } from './event';
import type { Owner, OwnerRef } from '../domain/owner';

// Replaying deliveries from outside workflows (API, CLI): the same row and delivery workflow as the invoice
// workflow's announceStatus (workflows/announce-status.ts), started through the client.

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
