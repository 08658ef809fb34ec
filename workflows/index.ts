// Deterministic workflow code only (no I/O, no Node APIs); the worker bundles this file.
export { statusTransitionWorkflow } from './status-transition';
export { webhookDeliveryWorkflow, fireStatusWebhook } from './webhook-delivery';
export { maintenanceWorkflow } from './maintenance';
export { invoiceWorkflow } from './invoice';
