import { Invoice, Partner, Tenant, WebhookDelivery, type InvoiceDoc, type PartnerDoc, type TenantDoc, type WebhookDeliveryDoc } from '../db/models';
import { STATUS_CHANGED_EVENT, lastEventOf, type EventStatus } from './event';
import { TENANT_STATUS_UPDATE_EVENT, type TenantEventStatus } from './tenant-status-update';
import { signingSecrets } from '../credentials/rotation';
import { ServiceError } from '../domain/errors';
import { recentMap } from '../domain/recent-map';
import { numberScope, ownerFields, storedOwnerOf, partyOf, type Owner, type OwnerRef, type Surface } from '../domain/owner';

// Persistence of webhook delivery rows. Every write is a single-document conditional update (FerretDB has no
// transactions), idempotent when repeated, and forward-only: delivered and exhausted rows never change again.

export type WebhookFailure = 'invoice_not_found' | 'no_event' | 'webhook_url_not_configured' | 'delivery_not_found';

const WEBHOOK_FAILURES: Record<WebhookFailure, [status: number, title: string]> = {
  invoice_not_found: [404, 'Not found'],
  no_event: [404, 'Not found'],
  webhook_url_not_configured: [409, 'Conflict'],
  delivery_not_found: [404, 'Not found'],
};

/** Why a delivery row cannot be created or recorded; none is worth retrying unchanged. */
export function webhookError(code: WebhookFailure, message: string): ServiceError {
  const [status, title] = WEBHOOK_FAILURES[code];
  return new ServiceError(status, code, title, message);
}

/** True for this module's refusals (callers turn them into their own answers). */
export function isWebhookError(err: unknown): err is ServiceError & { code: WebhookFailure } {
  return err instanceof ServiceError && Object.hasOwn(WEBHOOK_FAILURES, err.code);
}

export interface NewDelivery {
  deliveryId: string;
  invoiceId: string;
  /** Omitted for replays: the invoice's last delivered/rejected event is re-sent. (acknowledged: tenants only.) */
  event?: { status: EventStatus | TenantEventStatus; reason: string | null };
  trigger: 'pipeline' | 'api' | 'replay';
  retryScheduleMs: number[];
  /** Only these owners may see the invoice (API callers); omitted by workflows and ops. */
  owner?: Owner | OwnerRef;
  /** The invoice's partner if the caller knows it (the pipeline): most have no URL, answered before reading the invoice. */
  partnerId?: string;
  /** Likewise the invoice's tenant. */
  tenantId?: string;
  /** The invoice as a pipeline step has just read it (its owner and mode): not read again. Only with `event`. */
  invoice?: KnownInvoice;
}

/** What a delivery row takes from its invoice. */
export type KnownInvoice = Pick<InvoiceDoc, '_id' | 'mode' | 'partnerId' | 'smeId' | 'tenantId' | 'numberScope'>;

export interface CreatedDelivery {
  deliveryId: string;
  retryScheduleMs: number[];
  partnerId: string | null;
  tenantId: string | null;
  mode: string;
  invoiceId: string;
  eventStatus: string;
}

/**
 * Creates the pending row (once: repeating the call with the same deliveryId changes nothing). Throws
 * a webhookError when the invoice is unknown or not the owner's, has no event, or its partner has no URL.
 */
export async function createDelivery(input: NewDelivery): Promise<CreatedDelivery> {
  const partner = input.partnerId ? await requireWebhookUrl(input.partnerId) : null;
  if (input.tenantId) await requireStatusUrl(input.tenantId);
  // (not the bodies: invoices can be large, and only the owner and the event are needed here)
  const invoice = input.invoice && input.event ? input.invoice : await Invoice.findById(input.invoiceId, { body: 0, tenantInput: 0 }).lean<InvoiceDoc>();
  if (!invoice || (input.owner && invoice.numberScope !== numberScope(input.owner))) {
    throw webhookError('invoice_not_found', `no invoice ${input.invoiceId}`);
  }
  const event = input.event ?? lastEventOf(invoice as InvoiceDoc); // (no event given: the invoice was read whole)
  if (!event) throw webhookError('no_event', `invoice ${input.invoiceId} has not reached delivered or rejected, so it has no event to send`);
  const owner = storedOwnerOf(invoice);
  const target = partyOf(owner);
  // (the URL of the party the caller named is checked above; the invoice's own, when it is another)
  if (target.id !== { partner: input.partnerId, tenant: input.tenantId }[target.kind]) await REQUIRE_URL[target.kind](target.id);
  const { partnerId, smeId, tenantId } = ownerFields(owner);

  const now = new Date();
  const row = {
    _id: input.deliveryId,
    invoiceId: invoice._id,
    partnerId,
    tenantId,
    smeId,
    mode: invoice.mode,
    event: EVENT_OF[target.kind],
    eventStatus: event.status,
    eventReason: event.status === 'rejected' ? event.reason : null,
    trigger: input.trigger,
    status: 'pending' as const,
    attempts: 0,
    maxAttempts: input.retryScheduleMs.length + 1, // the immediate send plus one per scheduled retry
    retryScheduleMs: input.retryScheduleMs,
    nextAttemptAt: now, // the first send is immediate
    lastResponseStatus: null,
    lastError: null,
    deliveredAt: null,
    attemptLog: [],
  };
  // insert-first, not an upsert: FerretDB 1.x drops null and [] values from $setOnInsert.
  let stored: Pick<WebhookDeliveryDoc, 'retryScheduleMs' | 'partnerId' | 'tenantId' | 'mode' | 'invoiceId' | 'eventStatus'> = row;
  try {
    await WebhookDelivery.create(row);
    if (input.trigger === 'pipeline' && partner && target.kind === 'partner' && target.id === partner._id) {
      const event = { mode: row.mode === 'live' ? ('live' as const) : ('test' as const), partnerId, invoiceId: row.invoiceId, eventStatus: row.eventStatus, eventReason: row.eventReason };
      justCreated.set(row._id, { target: { ...event, ...partnerTarget(partner) }, at: Date.now() });
    }
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
    // a repeated call: the row exists already, and what it says stands
    stored = (await WebhookDelivery.findById(input.deliveryId).lean<WebhookDeliveryDoc>())!;
  }
  return {
    deliveryId: input.deliveryId,
    retryScheduleMs: stored.retryScheduleMs,
    partnerId: stored.partnerId ?? null,
    tenantId: stored.tenantId ?? null,
    mode: stored.mode,
    invoiceId: stored.invoiceId,
    eventStatus: stored.eventStatus,
  };
}

export interface AttemptTarget {
  url: string | null;
  /** The webhook secret, and the previous one too during a rotation's overlap: each signs a v1. */
  secrets: string[];
  /** The URL policy to apply: live refuses private addresses; test and sandbox allow them. */
  mode: 'test' | 'live';
  partnerId: string | null;
  invoiceId: string;
  eventStatus: EventStatus | TenantEventStatus;
  eventReason: string | null;
  /** A Tenant status update: what its body needs besides the event (read at send time). */
  tenant?: { invoiceNumber: string; ackRef: string | null };
}

/**
 * Marks attempt `attempt` as in flight (failed -> pending) and returns what to send, or null when that
 * attempt is already recorded or the row is terminal (a repeated activity must not send twice).
 * URL and secret are read now, not at creation, so a partner who fixes their URL is served by the retries.
 */
export async function beginAttempt(deliveryId: string, attempt: number): Promise<AttemptTarget | null> {
  const created = attempt === 1 ? takeJustCreated(deliveryId) : null;
  if (created) return created;
  const row = attempt === 1 ? await firstAttemptRow(deliveryId) : await WebhookDelivery.findOneAndUpdate(
    { _id: deliveryId, attempts: attempt - 1, status: { $in: ['pending', 'failed'] } },
    { $set: { status: 'pending' } },
    { returnDocument: 'after' },
  ).lean<WebhookDeliveryDoc>();
  if (!row) return null;
  const event = {
    mode: row.mode === 'live' ? ('live' as const) : ('test' as const),
    partnerId: row.partnerId ?? null,
    invoiceId: row.invoiceId,
    eventStatus: row.eventStatus as EventStatus | TenantEventStatus,
    eventReason: row.eventReason ?? null,
  };
  const target = partyOf(storedOwnerOf(row));
  return { ...event, ...(await TARGET_OF[target.kind](target.id, row.invoiceId)) };
}

/**
 * Rows this process has just created for a pipeline step, with their first attempt's target (the partner's URL and
 * secrets as read for the row): the delivery workflow's first attempt usually runs in this process at once (its
 * start is eager), and then reads neither the row nor the partner again. Each is taken once and only within
 * JUST_CREATED_MS; any other attempt (another process, a retried step, a later one) reads the store.
 */
const justCreated = recentMap<string, { target: AttemptTarget; at: number }>(1_000);
const JUST_CREATED_MS = 10_000;

function takeJustCreated(deliveryId: string): AttemptTarget | null {
  const created = justCreated.get(deliveryId);
  if (!created) return null;
  justCreated.delete(deliveryId);
  return Date.now() - created.at < JUST_CREATED_MS ? created.target : null;
}

/** A row not yet attempted is pending already: read by _id, nothing to write (null once an attempt is recorded). */
async function firstAttemptRow(deliveryId: string): Promise<WebhookDeliveryDoc | null> {
  const row = await WebhookDelivery.findById(deliveryId).lean<WebhookDeliveryDoc>();
  return row && row.attempts === 0 && row.status === 'pending' ? row : null;
}

/** The event each party receives: the partner's invoice.status_changed, the tenant's status update (SPEC 6.2). */
const EVENT_OF: Record<Surface, string> = { partner: STATUS_CHANGED_EVENT, tenant: TENANT_STATUS_UPDATE_EVENT };

/** Where a party receives its events, and the secrets that sign them, read at send time. */
const TARGET_OF: Record<Surface, (id: string, invoiceId: string) => Promise<Pick<AttemptTarget, 'url' | 'secrets' | 'tenant'>>> = {
  partner: async (partnerId) => partnerTarget(await Partner.findById(partnerId).lean<PartnerDoc>()),
  tenant: async (tenantId, invoiceId) => {
    const [tenant, invoice] = await Promise.all([
      Tenant.findById(tenantId, { statusUrl: 1, webhookSecret: 1, previousWebhookSecret: 1, previousWebhookSecretValidUntil: 1 }).lean<TenantDoc>(),
      Invoice.findById(invoiceId, { number: 1, ackRef: 1 }).lean<InvoiceDoc>(),
    ]);
    return { url: tenant?.statusUrl ?? null, secrets: signingSecrets(tenant?.webhookSecret ?? '', tenant?.previousWebhookSecret, tenant?.previousWebhookSecretValidUntil, new Date()), tenant: { invoiceNumber: invoice?.number ?? '', ackRef: invoice?.ackRef ?? null } };
  },
};

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
  const updated = await WebhookDelivery.updateOne(
    { _id: deliveryId, attempts: o.attempt - 1, status: { $in: ['pending', 'failed'] } },
    {
      $set,
      $push: { attemptLog: { attempt: o.attempt, at: new Date(o.sentAt), durationMs: o.durationMs, responseStatus: o.status, error: o.error, nextAttemptAt } },
    },
  );
  if (updated.matchedCount === 1) return status;
  const current = await WebhookDelivery.findById(deliveryId).lean<WebhookDeliveryDoc>();
  if (!current) throw webhookError('delivery_not_found', `webhook delivery ${deliveryId} not found`);
  return current.status;
}

/** Every row of an invoice, newest first. */
export function deliveriesOf(invoiceId: string): Promise<WebhookDeliveryDoc[]> {
  return WebhookDelivery.find({ invoiceId }).sort({ createdAt: -1, _id: -1 }).lean<WebhookDeliveryDoc[]>().exec();
}

function partnerTarget(partner: PartnerDoc | null): Pick<AttemptTarget, 'url' | 'secrets'> {
  return { url: partner?.webhookUrl ?? null, secrets: signingSecrets(partner?.webhookSecret ?? '', partner?.previousWebhookSecret, partner?.previousWebhookSecretValidUntil, new Date()) };
}

/** The URL check of each party (webhook_url_not_configured when it has none). */
const REQUIRE_URL: Record<Surface, (id: string) => Promise<unknown>> = { partner: (id) => requireWebhookUrl(id), tenant: (id) => requireStatusUrl(id) };

async function requireStatusUrl(tenantId: string): Promise<void> {
  const tenant = await Tenant.findById(tenantId, { statusUrl: 1 }).lean<Pick<TenantDoc, 'statusUrl'>>();
  if (!tenant?.statusUrl) throw webhookError('webhook_url_not_configured', `tenant ${tenantId} has no status URL registered`);
}

/** (the whole partner: a pipeline's row keeps its URL and secrets for the first attempt) */
async function requireWebhookUrl(partnerId: string): Promise<PartnerDoc> {
  const partner = await Partner.findById(partnerId).lean<PartnerDoc>();
  if (!partner?.webhookUrl) throw webhookError('webhook_url_not_configured', `partner ${partnerId} has no webhook URL registered`);
  return partner;
}
