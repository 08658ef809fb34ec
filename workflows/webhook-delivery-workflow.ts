import { ActivityFailure, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { WebhookDeliveryInput, WebhookDeliveryResult } from '../src/temporal/contract';

// invoice.status_changed webhooks (SPEC 6.1) and Tenant status updates (SPEC 6.2): one durable workflow per delivery
// row (created by announceStatus, or by a replay); the backoff between attempts is workflow timers (visible in
// the Web UI, surviving worker restarts), never activity retries. The steps are local activities: a send and its
// record take milliseconds (the HTTP timeout is 10 s), and as regular activities each cost a schedule/start/complete
// round trip and a workflow task through the Temporal server.

// One attempt, sent and recorded in one step. The HTTP attempt returns receiver failures as results; these retries
// are for the step's own trouble (worker lost, a database blip before or after sending: an outcome already sent is
// recorded, not sent again, by the worker that sent it).
const { attemptWebhookDelivery } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds', // 10 s HTTP timeout + DNS + database reads and the record
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 8 },
});

// Recording an attempt whose step failed for good: keep trying through a MongoDB outage rather than leave a row half-done.
const { recordWebhookAttempt } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * Sends at once, then after each failure waits the next entry of the schedule; delivered on any 2xx,
 * exhausted when the last retry fails. Every attempt and state change is persisted by an activity.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const { deliveryId } = input;
  const retryScheduleMs = input.retryScheduleMs ?? []; // a hand-started run without a schedule sends once
  for (let attempt = 1; ; attempt++) {
    const retryDelayMs = retryScheduleMs[attempt - 1] ?? null;
    const done = await attemptSafely(deliveryId, attempt, retryDelayMs);
    if (done.kind === 'skipped') return { deliveryId, status: done.rowStatus ?? 'missing', attempts: attempt - 1 };
    if (done.rowStatus !== 'failed' || retryDelayMs === null) return { deliveryId, status: done.rowStatus, attempts: attempt };
    await sleep(retryDelayMs);
  }
}

/**
 * The attempt's step only fails after its own retries for internal trouble (database unreachable, worker lost
 * repeatedly). That still counts as a failed attempt, recorded, so the schedule goes on and the row never hangs.
 */
async function attemptSafely(deliveryId: string, attempt: number, retryDelayMs: number | null): ReturnType<typeof attemptWebhookDelivery> {
  try {
    return await attemptWebhookDelivery({ deliveryId, attempt, retryDelayMs });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const error = `not sent: internal error (${err.cause?.message ?? err.message})`;
    const outcome = { ok: false, status: null, error, sentAt: Date.now(), durationMs: 0, attempt, nextDelayMs: retryDelayMs };
    return { kind: 'recorded', ok: false, rowStatus: await recordWebhookAttempt({ deliveryId, outcome }) };
  }
}
