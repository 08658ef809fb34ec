// Everything a workflow does to the world; registered on the worker by src/temporal/worker-factory.ts.
export { advanceInvoiceStatus } from './invoice-status';
export { createWebhookDelivery, sendWebhookAttempt, recordWebhookAttempt } from './webhook-delivery';
export { purgeExpired } from './maintenance';
export { beginInvoiceRun, transformInvoice, validateInvoiceDocument, reserveDeliveryCredit, deliverInvoice, pollAspVerdict } from './invoice-pipeline';
