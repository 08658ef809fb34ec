import { Schema, model, type InferSchemaType } from 'mongoose';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'failed', 'delivered', 'exhausted'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One send, kept for support: when it went out, how long it took, and what came back. */
const attemptSchema = new Schema(
  {
    attempt: { type: Number, required: true }, // 1-based
    at: { type: Date, required: true }, // signing/send time (the signature's t, in ms)
    durationMs: { type: Number, required: true },
    responseStatus: { type: Number, default: null },
    error: { type: String, default: null },
    nextAttemptAt: { type: Date, default: null }, // when the following retry was planned; null after the last
  },
  { _id: false },
);

/**
 * One delivery of one invoice.status_changed event to the partner's webhook URL (SPEC 2.1 WebhookDelivery), or of
 * one Tenant status update to the tenant's status URL (SPEC 6.2).
 * A replay is a new row; rows are never deleted, so the history of every attempt stays auditable.
 * Status: pending (not yet attempted, or an attempt in flight) -> failed (an attempt failed, another is
 * scheduled) -> pending ... -> delivered | exhausted (terminal, never left).
 */
const webhookDeliverySchema = new Schema(
  {
    _id: { type: String, required: true }, // deliveryId (uuid)
    invoiceId: { type: String, required: true },
    // Partner API rows name the partner; Tenant API rows (status updates, SPEC 6.2) the tenant.
    partnerId: { type: String, default: null },
    tenantId: { type: String, default: null },
    smeId: { type: String, default: null }, // Partner API rows: the invoice's SME; null on Tenant rows
    mode: { type: String, enum: ['test', 'sandbox', 'live'], required: true },
    event: { type: String, required: true }, // invoice.status_changed, or tenant.status_update
    eventStatus: { type: String, enum: ['delivered', 'acknowledged', 'rejected'], required: true },
    eventReason: { type: String, default: null },
    trigger: { type: String, enum: ['pipeline', 'api', 'replay'], required: true },
    status: { type: String, enum: WEBHOOK_DELIVERY_STATUSES, required: true },
    attempts: { type: Number, required: true, default: 0 },
    maxAttempts: { type: Number, required: true },
    retryScheduleMs: { type: [Number], required: true },
    nextAttemptAt: { type: Date, required: true },
    lastResponseStatus: { type: Number, default: null },
    lastError: { type: String, default: null },
    deliveredAt: { type: Date, default: null },
    attemptLog: { type: [attemptSchema], default: [] },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
webhookDeliverySchema.index({ invoiceId: 1, createdAt: -1 });

export type WebhookDeliveryDoc = InferSchemaType<typeof webhookDeliverySchema> & { _id: string; createdAt: Date; updatedAt: Date };
export const WebhookDelivery = model('WebhookDelivery', webhookDeliverySchema, 'webhook_deliveries');
