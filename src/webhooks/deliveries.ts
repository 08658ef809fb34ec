import { Invoice, Partner, WebhookDelivery, type InvoiceDoc, type PartnerDoc, type WebhookDeliveryDoc } from '../db/models';
import { STATUS_CHANGED_EVENT, lastEventOf, type EventStatus } from './event';

// Persistence of webhook delivery rows. Every write is a single-document conditional update (FerretDB has no
// transactions), idempotent when repeated, and forward-only: delivered and exhausted rows never change again.

export class WebhookError extends Error {
  constructor(
    readonly code: 'invoice_not_found' | 'no_event' | 'webhook_url_not_configured' | 'delivery_not_found',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookError';
  }
}

export interface NewDelivery {
  deliveryId: string;
  invoiceId: string;
  /** Omitted for replays: the invoice's last delivered/rejected event is re-sent. */
  event?: { status: EventStatus; reason: string | null };
  trigger: 'pipeline' | 'api' | 'replay';
  retryScheduleMs: number[];
  /** Only these owners may see the invoice (API callers); omitted by workflows and ops. */
  owner?: { partnerId: string; smeId: string };
  /** The invoice's partner if the caller knows it (the pipeline): most have no URL, answered before reading the invoice. */
  partnerId?: string;
}

export interface CreatedDelivery {
  deliveryId: string;
  retryScheduleMs: number[];
  partnerId: string;
  mode: 'test' | 'live';
  invoiceId: string;
  eventStatus: string;
}

/**
 * Creates the pending row (once: repeating the call with the same deliveryId changes nothing). Throws
 * WebhookError when the invoice is unknown or not the owner's, has no event, or its partner has no URL.
 */
export async function createDelivery(input: NewDelivery): Promise<CreatedDelivery> {
  if (input.partnerId) await requireWebhookUrl(input.partnerId);
  const invoice = await Invoice.findById(input.invoiceId).lean<InvoiceDoc>();
  if (!invoice || (input.owner && (invoice.partnerId !== input.owner.partnerId || invoice.smeId !== input.owner.smeId))) {
    throw new WebhookError('invoice_not_found', `no invoice ${input.invoiceId}`);
  }
  const event = input.event ?? lastEventOf(invoice);
  if (!event) throw new WebhookError('no_event', `invoice ${input.invoiceId} has not reached delivered or rejected, so it has no event to send`);
  if (invoice.partnerId !== input.partnerId) await requireWebhookUrl(invoice.partnerId);

  const now = new Date();
  // insert-first, not an upsert: FerretDB 1.x drops null and [] values from $setOnInsert.
  try {
    await WebhookDelivery.create({
      _id: input.deliveryId,
      invoiceId: invoice._id,
      partnerId: invoice.partnerId,
      smeId: invoice.smeId,
      mode: invoice.mode,
      event: STATUS_CHANGED_EVENT,
      eventStatus: event.status,
      eventReason: event.status === 'rejected' ? event.reason : null,
      trigger: input.trigger,
      status: 'pending',
      attempts: 0,
      maxAttempts: input.retryScheduleMs.length + 1, // the immediate send plus one per scheduled retry
      retryScheduleMs: input.retryScheduleMs,
      nextAttemptAt: now, // the first send is immediate
      lastResponseStatus: null,
      lastError: null,
      deliveredAt: null,
      attemptLog: [],
    });
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err; // a repeated call: the row exists already
  }
  const row = await WebhookDelivery.findById(input.deliveryId).lean<WebhookDeliveryDoc>();
  return { deliveryId: input.deliveryId, retryScheduleMs: row!.retryScheduleMs, partnerId: row!.partnerId, mode: row!.mode as 'test' | 'live', invoiceId: row!.invoiceId, eventStatus: row!.eventStatus };
}

export interface AttemptTarget {
  url: string | null;
  secret: string;
  mode: 'test' | 'live';
  partnerId: string;
  invoiceId: string;
  eventStatus: EventStatus;
  eventReason: string | null;
}

/**
 * Marks attempt `attempt` as in flight (failed -> pending) and returns what to send, or null when that
 * attempt is already recorded or the row is terminal (a repeated activity must not send twice).
 * URL and secret are read now, not at creation, so a partner who fixes their URL is served by the retries.
 */
export async function beginAttempt(deliveryId: string, attempt: number): Promise<AttemptTarget | null> {
  const row = await WebhookDelivery.findOneAndUpdate(
    { _id: deliveryId, attempts: attempt - 1, status: { $in: ['pending', 'failed'] } },
    { $set: { status: 'pending' } },
    { returnDocument: 'after' },
  ).lean<WebhookDeliveryDoc>();
  if (!row) return null;
  const partner = await Partner.findById(row.partnerId).lean<PartnerDoc>();
  return {
    url: partner?.webhookUrl ?? null,
    secret: partner?.webhookSecret ?? '',
    mode: row.mode as 'test' | 'live',
    partnerId: row.partnerId,
    invoiceId: row.invoiceId,
    eventStatus: row.eventStatus as EventStatus,
    eventReason: row.eventReason ?? null,
  };
}

export interface AttemptOutcome {
  attempt: number;
  ok: boolean;
  status: number | null;
  error: string | null;
  sentAt: number; // ms
  durationMs: number;
  /** Wait before the next retry, or null when none is left. */
  nextDelayMs: number | null;
}

/**
 * Records one attempt and the row's next state: delivered on success, failed while a retry is scheduled,
 * exhausted when none is left. Conditioned on the attempt number, so recording twice is a no-op.
 */
export async function recordAttempt(deliveryId: string, o: AttemptOutcome): Promise<WebhookDeliveryDoc['status']> {
  const finishedAt = o.sentAt + o.durationMs;
  const nextAttemptAt = !o.ok && o.nextDelayMs !== null ? new Date(finishedAt + o.nextDelayMs) : null;
  const status = o.ok ? 'delivered' : nextAttemptAt ? 'failed' : 'exhausted';
  const $set: Record<string, unknown> = { status, attempts: o.attempt, lastResponseStatus: o.status, lastError: o.error };
  if (o.ok) $set.deliveredAt = new Date(finishedAt);
  // nextAttemptAt is required by SPEC: on terminal rows it keeps the time the last attempt was due.
  if (nextAttemptAt) $set.nextAttemptAt = nextAttemptAt;
  const updated = await WebhookDelivery.findOneAndUpdate(
    { _id: deliveryId, attempts: o.attempt - 1, status: { $in: ['pending', 'failed'] } },
    {
      $set,
      $push: { attemptLog: { attempt: o.attempt, at: new Date(o.sentAt), durationMs: o.durationMs, responseStatus: o.status, error: o.error, nextAttemptAt } },
    },
    { returnDocument: 'after' },
  ).lean<WebhookDeliveryDoc>();
  if (updated) return updated.status;
  const current = await WebhookDelivery.findById(deliveryId).lean<WebhookDeliveryDoc>();
  if (!current) throw new WebhookError('delivery_not_found', `webhook delivery ${deliveryId} not found`);
  return current.status;
}

/** Every row of an invoice, newest first. */
export function deliveriesOf(invoiceId: string): Promise<WebhookDeliveryDoc[]> {
  return WebhookDelivery.find({ invoiceId }).sort({ createdAt: -1, _id: -1 }).lean<WebhookDeliveryDoc[]>().exec();
}

async function requireWebhookUrl(partnerId: string): Promise<void> {
  const partner = await Partner.findById(partnerId, { webhookUrl: 1 }).lean<Pick<PartnerDoc, 'webhookUrl'>>();
  if (!partner?.webhookUrl) throw new WebhookError('webhook_url_not_configured', `partner ${partnerId} has no webhook URL registered`);
}
