export { Partner, type PartnerDoc } from './partner';
export { SmeConnection, type SmeConnectionDoc } from './sme-connection';
export { Invoice, INVOICE_STATUSES, type InvoiceDoc, type InvoiceStatus } from './invoice';
export { IdempotencyRecord, type IdempotencyRecordDoc } from './idempotency-record';
export { WebhookDelivery, WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryDoc, type WebhookDeliveryStatus } from './webhook-delivery';
export { RateLimitWindow, type RateLimitWindowDoc } from './rate-limit-window';
export { Customer, type CustomerDoc } from './customer';
export { TrnCache, type TrnCacheDoc } from './trn-cache';
export { InvoiceDocument, type InvoiceDocumentDoc } from './invoice-document';
