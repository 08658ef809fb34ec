import { ActivityFailure, ApplicationFailure, ParentClosePolicy, log, proxyActivities, proxyLocalActivities, sleep, startChild, uuid4, workflowInfo } from '@temporalio/workflow';
import type { ActivityOptions } from '@temporalio/common';
import type { Activities } from '../activities';
import type { CreatedDelivery } from '../src/webhooks/deliveries';
import { PartnerIdKey, TenantIdKey, webhookDeliveryStart, type WebhookDeliveryInput, type WebhookDeliveryResult } from '../src/temporal/contract';

// invoice.status_changed webhooks (SPEC 6.1) and Tenant status updates (SPEC 6.2): one durable workflow per delivery row; the backoff between
// attempts is workflow timers (visible in the Web UI, surviving worker restarts), never activity retries.

// Database writes: keep trying through a MongoDB outage rather than lose an event or leave a row half-done.
const DATABASE_WRITES: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: ['invoice_not_found', 'no_event'] },
};
const { createWebhookDelivery, recordWebhookAttempt } = proxyActivities<Activities>(DATABASE_WRITES);
// Invoice runs with local steps create the row in a local activity (most partners' answer is "no URL").
const local = proxyLocalActivities<Activities>(DATABASE_WRITES);

// The HTTP attempt returns receiver failures as results; these retries are only for crashes of the activity
// itself (worker lost, database blip before sending), so a few quick ones suffice.
const { sendWebhookAttempt } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds', // 10 s HTTP timeout + DNS + database reads
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

export interface FireStatusWebhookInput {
  invoiceId: string;
  /** acknowledged: Tenant API invoices only (their status updates announce it; partners' events do not). */
  status: 'delivered' | 'acknowledged' | 'rejected';
  reason: string | null;
}

/**
 * Called by the invoice workflow once per pipeline run when the invoice reaches delivered or rejected.
 * Creates the delivery row and starts webhookDeliveryWorkflow as an abandoned child (it outlives the invoice
 * workflow, e.g. across continueAsNew), waiting only for the child to start. Does nothing when the partner
 * has no webhook URL (or the tenant no status URL). Never fails the caller for a webhook problem: the invoice outcome matters more, and a
 * partner can always replay.
 */
export async function fireStatusWebhook(input: FireStatusWebhookInput, opts: { local?: boolean } = {}): Promise<void> {
  let created: CreatedDelivery | null;
  try {
    const event = { invoiceId: input.invoiceId, status: input.status, reason: input.reason };
    created = opts.local ? await local.createWebhookDelivery({ ...event, ...newDeliveryOf() }) : await createWebhookDelivery({ ...event, deliveryId: uuid4() });
  } catch (err) {
    const refusal = err instanceof ActivityFailure ? err.cause : err; // a local activity's failure is not wrapped
    if (refusal instanceof ApplicationFailure && (err !== refusal || opts.local)) {
      log.warn('webhook not created', { invoiceId: input.invoiceId, reason: refusal.message });
      return;
    }
    throw err;
  }
  if (created) await startWebhookChild(created, input);
}

/**
 * A new delivery row's id (uuid4 is replay-safe in workflows) and the run's PartnerId / TenantId search attribute
 * (set at start): with them the activity answers "no URL" without reading the invoice.
 */
export function newDeliveryOf(): { deliveryId: string; partnerId?: string; tenantId?: string } {
  const attributes = workflowInfo().typedSearchAttributes;
  const partnerId = attributes.get(PartnerIdKey);
  const tenantId = attributes.get(TenantIdKey);
  // (a run has one of the two: its invoice's party)
  return { deliveryId: uuid4(), ...(partnerId && { partnerId }), ...(tenantId && { tenantId }) };
}

/** Starts the delivery workflow of a created row as an abandoned child, waiting only for it to start. */
export async function startWebhookChild(created: CreatedDelivery, input: Pick<FireStatusWebhookInput, 'invoiceId' | 'status'>): Promise<void> {
  await startChild(webhookDeliveryWorkflow, {
    ...webhookDeliveryStart({ ...created, invoiceId: input.invoiceId, eventStatus: input.status }),
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
}


/**
 * Sends at once, then after each failure waits the next entry of the schedule; delivered on any 2xx,
 * exhausted when the last retry fails. Every attempt and state change is persisted by an activity.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const { deliveryId } = input;
  const retryScheduleMs = input.retryScheduleMs ?? []; // a hand-started run without a schedule sends once
  for (let attempt = 1; ; attempt++) {
    const sent = await attemptSafely(deliveryId, attempt);
    if (sent.kind === 'skipped') return { deliveryId, status: sent.rowStatus ?? 'missing', attempts: attempt - 1 };
    const nextDelayMs = sent.ok ? null : (retryScheduleMs[attempt - 1] ?? null);
    const { kind: _kind, ...result } = sent;
    const status = await recordWebhookAttempt({ deliveryId, outcome: { ...result, attempt, nextDelayMs } });
    if (status === 'delivered' || status === 'exhausted' || nextDelayMs === null) return { deliveryId, status, attempts: attempt };
    await sleep(nextDelayMs);
  }
}

/**
 * The send activity only fails after its own retries for internal trouble (database unreachable, worker lost
 * repeatedly). That still counts as a failed attempt, recorded, so the schedule goes on and the row never hangs.
 */
async function attemptSafely(deliveryId: string, attempt: number): ReturnType<typeof sendWebhookAttempt> {
  try {
    return await sendWebhookAttempt({ deliveryId, attempt });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const cause = err.cause?.message ?? err.message;
    return { kind: 'sent', ok: false, status: null, error: `not sent: internal error (${cause})`, sentAt: Date.now(), durationMs: 0 };
  }
}
