/** Keyword search attributes the dev server registers so support can filter invoices in the Web UI. */
export const SEARCH_ATTRIBUTES = ['InvoiceStatus', 'InvoiceNumber', 'SellerTrn', 'Mode', 'PartnerId'] as const;
