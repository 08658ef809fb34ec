export { Partner, type PartnerDoc } from './partner';
export { SmeConnection, type SmeConnectionDoc } from './sme-connection';
export { Invoice, INVOICE_STATUSES, type InvoiceDoc, type InvoiceStatus } from './invoice';
