// Everything a workflow does to the world; registered on the worker by src/temporal/worker-factory.ts.
export { advanceInvoiceStatus } from './invoice-status';
export { createWebhookDelivery, sendWebhookAttempt, recordWebhookAttempt } from './webhook-delivery';
