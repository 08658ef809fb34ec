// Deterministic workflow code only (no I/O, no Node APIs); the worker bundles this file.
export { webhookDeliveryWorkflow } from './webhook-delivery-workflow';
export { maintenanceWorkflow } from './maintenance-workflow';
export { invoiceWorkflow } from './invoice-workflow';
export { heldInvoiceWorkflow } from './held-invoice-workflow';
