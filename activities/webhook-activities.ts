import { WebhookDelivery } from '../src/db/models';
import { beginAttempt, recordAttempt, isWebhookError, type AttemptOutcome, type KnownInvoice } from '../src/webhooks/deliveries';
import { announceDelivery } from '../src/webhooks/start';
import { statusChangedBody, stampOf, type EventStatus } from '../src/webhooks/event';
import { tenantStatusUpdateBody, type TenantEventStatus } from '../src/webhooks/tenant-status-update';
import { signatureHeaders } from '../src/webhooks/sign';
import { postWebhook } from '../src/webhooks/send';
import { config } from '../src/config';
import { ServiceError } from '../src/domain/errors';
import { recentMap } from '../src/domain/recent-map';
import { addLogContext, logger } from '../src/logger';
import { webhookAttempts } from '../src/metrics';

// The webhook workflow's effects on the world. Each is safe to repeat (Temporal may retry an activity). Refusals
// (the invoice deleted, a row gone) are ServiceErrors, final for Temporal (activities/failures.ts).

export interface StatusWebhookInput {
  /** Chosen by the workflow (uuid4 is replay-safe there), so a retried activity finds the same row and workflow. */
  deliveryId: string;
  invoiceId: string;
  status: EventStatus | TenantEventStatus;
  reason: string | null;
  /** The invoice's partner as the workflow knows it: a partner without a URL is answered without reading the invoice. */
  partnerId?: string;
  /** Likewise the invoice's tenant (Tenant API). */
  tenantId?: string;
}

/**
 * Creates the pending row for an invoice event and starts its webhookDeliveryWorkflow (its id is in the result, so
 * the invoice's history leads to it), with the retry schedule from config. Null, doing nothing, when the partner
 * has no webhook URL (or the tenant no status URL): there is no one to tell.
 */
export function startStatusWebhook(input: StatusWebhookInput): Promise<{ deliveryId: string; workflowId: string } | null> {
  return announce(input);
}

/** startStatusWebhook; `invoice`: the invoice as the calling step has just read it (the row's owner and mode). */
async function announce(input: StatusWebhookInput, invoice?: KnownInvoice): Promise<{ deliveryId: string; workflowId: string } | null> {
  const { deliveryId, invoiceId, status, reason, partnerId, tenantId } = input;
  try {
    const started = await announceDelivery({
      deliveryId, invoiceId, ...(partnerId && { partnerId }), ...(tenantId && { tenantId }), ...(invoice && { invoice }),
      event: { status, reason }, trigger: 'pipeline', retryScheduleMs: config().webhookRetryScheduleMs,
    });
    return { deliveryId: started.deliveryId, workflowId: started.workflowId };
  } catch (err) {
    if (isWebhookError(err) && err.code === 'webhook_url_not_configured') return null;
    throw err;
  }
}

/** What a pipeline step needs to announce the status it has just written: the delivery's id and party, from the workflow. */
export type Announcement = Omit<StatusWebhookInput, 'invoiceId' | 'status' | 'reason'>;

/**
 * startStatusWebhook made by the step that wrote the status (one local activity where there were two). A refusal
 * (the invoice deleted meanwhile) is logged and never fails the step: the invoice's outcome matters more, and a
 * partner can always replay. Anything else (the store or Temporal unreachable) fails the step, whose retry repeats
 * nothing: the row and the delivery workflow are keyed by the deliveryId the workflow chose.
 */
export async function announceFromStep(input: StatusWebhookInput, invoice?: KnownInvoice): Promise<{ deliveryId: string; workflowId: string } | null> {
  try {
    return await announce(input, invoice);
  } catch (err) {
    if (!(err instanceof ServiceError) || err.retryable) throw err;
    logger.warn({ reason: err.message, event: input.status }, 'webhook not created');
    return null;
  }
}

export type WebhookAttemptResult =
  /** The attempt was sent (or could not be) and recorded: the row's status after it. */
  | { kind: 'recorded'; ok: boolean; rowStatus: string }
  /** The attempt was already recorded or the row is terminal/gone: nothing was sent. */
  | { kind: 'skipped'; rowStatus: string | null };

/**
 * Outcomes sent but not yet recorded, by delivery and attempt: a retry of the step (local activities retry in the
 * worker that ran them) records the outcome it already has instead of sending the webhook again.
 */
const sentNotRecorded = recentMap<string, AttemptOutcome>(1_000);

/**
 * One attempt of a delivery, sent and recorded in one step: the signed POST, then the attempt and the row's next
 * state (`retryDelayMs`: the wait before the next attempt should this one fail, null when none is left).
 */
export async function attemptWebhookDelivery(input: { deliveryId: string; attempt: number; retryDelayMs: number | null }): Promise<WebhookAttemptResult> {
  const key = `${input.deliveryId}/${input.attempt}`;
  let outcome = sentNotRecorded.get(key);
  if (!outcome) {
    const sent = await sendAttempt(input);
    if (sent.kind === 'skipped') return sent;
    const { kind: _kind, ...result } = sent;
    outcome = { ...result, attempt: input.attempt, nextDelayMs: result.ok ? null : input.retryDelayMs };
    sentNotRecorded.set(key, outcome);
  }
  const rowStatus = await recordAttempt(input.deliveryId, outcome);
  sentNotRecorded.delete(key);
  return { kind: 'recorded', ok: outcome.ok, rowStatus };
}

type SendResult = ({ kind: 'sent' } & Omit<AttemptOutcome, 'attempt' | 'nextDelayMs'>) | { kind: 'skipped'; rowStatus: string | null };

/**
 * One signed POST. The payload timestamp and the signature's t are this send's own time, so a retry hours
 * later is still inside the receiver's 300 s window. Receiver failures are returned, not thrown.
 */
async function sendAttempt(input: { deliveryId: string; attempt: number }): Promise<SendResult> {
  const target = await beginAttempt(input.deliveryId, input.attempt);
  if (!target) {
    const row = await WebhookDelivery.findById(input.deliveryId, { status: 1 }).lean();
    return { kind: 'skipped', rowStatus: row?.status ?? null };
  }
  const sentAt = Date.now();
  const kind = target.tenant ? 'tenant_status_update' : 'partner_webhook';
  addLogContext({ invoiceId: target.invoiceId });
  if (!target.url) {
    webhookAttempts.inc({ outcome: 'no_url', kind });
    logger.info({ attempt: input.attempt, outcome: 'no_url' }, 'webhook not sent: no URL registered');
    return { kind: 'sent', ok: false, status: null, error: `no ${target.tenant ? 'status URL registered for the tenant' : 'webhook URL registered for the partner'}`, sentAt, durationMs: 0 };
  }
  const { t, timestamp } = stampOf(sentAt);
  const body = target.tenant
    ? tenantStatusUpdateBody({ ...target.tenant, invoiceId: target.invoiceId, status: target.eventStatus, reason: target.eventReason }, timestamp)
    : statusChangedBody({ partnerId: target.partnerId ?? '', invoiceId: target.invoiceId, status: target.eventStatus as EventStatus, reason: target.eventReason }, timestamp);
  const headers = {
    ...signatureHeaders(target.secrets, t, body), // two v1 values while the secret is rotated
    // Not part of the signature scheme; lets receivers and support correlate requests with delivery rows.
    'X-Webhook-Delivery-Id': input.deliveryId,
    'X-Webhook-Attempt': String(input.attempt),
  };
  const result = await postWebhook({ url: target.url, headers, body });
  const outcome = result.ok ? 'delivered' : result.status !== null ? 'http_error' : 'network_error';
  webhookAttempts.inc({ outcome, kind });
  // The event's status, never the body or the signature headers; the failure's full detail only here, not in the row.
  logger.info({ attempt: input.attempt, outcome, httpStatus: result.status, error: result.error ?? undefined, detail: result.detail ?? undefined, durationMs: result.durationMs, event: target.eventStatus }, `webhook attempt ${outcome}`);
  return { kind: 'sent', ok: result.ok, status: result.status, error: result.error, sentAt, durationMs: result.durationMs };
}

/**
 * Persists one attempt and the next state; returns the row's status (repeating it is a no-op). A row removed
 * meanwhile (its start was reported failed) is the final delivery_not_found: retrying cannot help. The workflow
 * calls it only for an attempt whose step failed for good (internal trouble): a failed attempt, so the schedule goes on.
 */
export function recordWebhookAttempt(input: { deliveryId: string; outcome: AttemptOutcome }): Promise<string> {
  return recordAttempt(input.deliveryId, input.outcome);
}
