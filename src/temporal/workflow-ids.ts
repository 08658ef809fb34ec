// Workflow ids are part of the support contract: find an invoice's history in the Web UI by its id.
export const invoiceWorkflowId = (invoiceId: string): string => `invoice-${invoiceId}`;
export const webhookWorkflowId = (deliveryId: string): string => `webhook-${deliveryId}`;
