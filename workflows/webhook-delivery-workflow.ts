import { ActivityFailure, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { WebhookDeliveryInput, WebhookDeliveryResult } from '../src/temporal/contract';

// invoice.status_changed webhooks (SPEC 6.1) and Tenant status updates (SPEC 6.2): one durable workflow per delivery
// row (created by announceStatus, or by a replay); the backoff between attempts is workflow timers (visible in
// the Web UI, surviving worker restarts), never activity retries. The steps are local activities: a send and its
// record take milliseconds (the HTTP timeout is 10 s), and as regular activities each cost a schedule/start/complete
// round trip and a workflow task through the Temporal server.

// Recording an attempt: keep trying through a MongoDB outage rather than leave a row half-done.
const { recordWebhookAttempt } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// The HTTP attempt returns receiver failures as results; these retries are only for crashes of the activity
// itself (worker lost, database blip before sending), so a few quick ones suffice.
const { sendWebhookAttempt } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds', // 10 s HTTP timeout + DNS + database reads
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

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
