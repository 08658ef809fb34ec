import type { WebhookDeliveryDoc } from '../../db/models';
import type { SmeRouter } from '../../http/request-state';
import { idempotentWhenKeyed } from '../../http/idempotency-middleware';
import { ServiceError, serviceErrors } from '../../domain/errors';
import { isWebhookError } from '../../webhooks/deliveries';
import { deliveriesOfOwnedInvoice } from '../../services/invoice-webhook-deliveries';
import { replayStatusWebhook } from '../../webhooks/start';
import { invoiceOwner } from './invoice-routes';

/** SPEC 2.1 WebhookDelivery, exactly (the attempt log stays internal: `einvoice ops webhook-deliveries`). */
export interface WebhookDeliveryView {
  deliveryId: string;
  status: string;
  event: string;
  mode: string;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: string;
  createdAt: string;
  updatedAt: string;
  lastResponseStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

export function webhookDeliveryView(row: WebhookDeliveryDoc): WebhookDeliveryView {
  const iso = (d: Date | string) => new Date(d).toISOString();
  return {
    deliveryId: row._id,
    status: row.status,
    event: row.event,
    mode: row.mode,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    nextAttemptAt: iso(row.nextAttemptAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    lastResponseStatus: row.lastResponseStatus ?? null,
    lastError: row.lastError ?? null,
    deliveredAt: row.deliveredAt ? iso(row.deliveredAt) : null,
  };
}

const notYours = (id: string) => serviceErrors.notFound(`No invoice ${id.slice(0, 64)} for this partner and SME.`);

/** Audit and replay of invoice.status_changed webhooks (SPEC 4.1, 3.2). */
export function registerWebhookDeliveries(router: SmeRouter): void {
  router.get('/invoices/:id/webhook-deliveries', async (ctx) => {
    const id = ctx.params.id;
    const deliveries = await deliveriesOfOwnedInvoice(invoiceOwner(ctx), id);
    if (!deliveries) throw notYours(id);
    ctx.body = { data: deliveries.map(webhookDeliveryView) };
  });

  router.post('/invoices/:id/replay-webhook', idempotentWhenKeyed(), async (ctx) => {
    const id = ctx.params.id;
    try {
      ctx.body = await replayStatusWebhook(id, { owner: invoiceOwner(ctx) });
      ctx.status = 202;
    } catch (err) {
      if (!isWebhookError(err)) throw err;
      if (err.code === 'invoice_not_found') throw notYours(id);
      if (err.code === 'no_event') {
        throw new ServiceError(404, 'no_webhook_event', 'Not found', `Invoice ${id} has not reached delivered or rejected, so there is no event to replay.`);
      }
      throw serviceErrors.conflict('webhook_url_not_configured', 'No webhook URL is registered for this partner; ask support to set one (einvoice admin partner:update --webhook-url), then replay.');
    }
  });
}
