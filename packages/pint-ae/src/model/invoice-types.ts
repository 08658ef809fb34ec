// The Partner API invoice model (SPEC 2.1 InvoiceCreateBody and its parts) as TypeScript types.
// The joi schema that produces these values is in invoice-schema.ts. Pure types and constants.

export const DOCUMENT_TYPES = [
  'tax_invoice',
  'commercial_invoice',
  'simplified_tax_invoice',
  'credit_note',
  'debit_note',
  'self_billed_invoice',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const INVOICE_TYPES = ['sale', 'purchase'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

/**
 * SPEC 2.1 taxCategory values, plus `out_of_scope` (the Tenant API's value, rendered as PINT-AE
 * category O; accepted here too so both surfaces share one model and one renderer).
 */
export const TAX_CATEGORIES = [
  'standard_5',
  'zero_rated_export',
  'zero_rated_healthcare',
  'zero_rated_education',
  'exempt_financial',
  'exempt_residential_rent',
  'reverse_charge_designated_zone',
  'reverse_charge_electronic_devices',
  'reverse_charge_gold_diamonds',
  'reverse_charge_crude_or_refined_oil',
  'out_of_scope',
] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

/**
 * PINT-AE's own category codes. SPEC 2.1 says they "are rejected": the shape validator lets them
 * through so that pre-submit checks can hold the invoice with the exact line path and the long name
 * to send instead (code `short_tax_code`).
 */
export const SHORT_TAX_CODES = ['S', 'Z', 'E', 'O', 'AE'] as const;
export type ShortTaxCode = (typeof SHORT_TAX_CODES)[number];

export const PAYMENT_MEANS_CODES = ['10', '20', '30', '42', '48', '49', '57', '58'] as const;
export type PaymentMeansCode = (typeof PAYMENT_MEANS_CODES)[number];

export const CREDIT_NOTE_REASON_CODES = ['01', '02', '03', '04', '05'] as const;
export type CreditNoteReasonCode = (typeof CREDIT_NOTE_REASON_CODES)[number];

export const LEGAL_REGISTRATION_TYPES = ['TIN', 'PAS'] as const;
export type LegalRegistrationType = (typeof LEGAL_REGISTRATION_TYPES)[number];

export const ITEM_TYPES = ['goods', 'services', 'both'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export interface PartyAddress {
  line1: string;
  line2?: string;
  city: string;
  emirate?: string;
  /** ISO 3166-1 alpha-2, default: the party's country. */
  country?: string;
  postalCode?: string;
}

export interface InvoiceParty {
  name: string;
  /**
   * The Arabic legal name (Tenant API, SPEC 2.2). Set by the Tenant API mapping only; not in the Partner API
   * schema, and not rendered.
   */
  legalNameArabic?: string;
  /** ISO 3166-1 alpha-2, default AE. */
  country: string;
  /** Required by pre-submit checks (not by the shape): SPEC 2.1 "refuses invoices whose seller or buyer has no address". */
  address?: PartyAddress;
  trn?: string;
  email?: string | null;
  phone?: string | null;
  legalRegistrationType?: LegalRegistrationType;
  passportNumber?: string;
  passportCountry?: string;
  tradeLicenseNumber?: string;
  /**
   * Buyer identifier (IBT-046) when the buyer has no TRN, trade licence or passport: set by the Tenant API
   * mapping for B2C buyers (tenant-invoice-input.ts); not in the Partner API schema.
   */
  identifier?: string;
}

export interface DeliveryAddress {
  line1?: string;
  line2?: string;
  city?: string;
  emirate?: string;
  postalCode?: string;
  country?: string;
  actualDeliveryDate?: string;
  latestDeliveryDate?: string;
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  /** AED per unit, VAT exclusive. */
  unitPrice: number;
  /** Decimal fraction: 0.05 means 5 %. */
  vatRate: number;
  taxCategory?: TaxCategory | ShortTaxCode;
  taxCategoryReason?: string;
  classificationCode?: string;
  classificationCodeScheme?: 'HS';
  unitOfMeasureCode?: string;
  itemType?: ItemType;
  /** BTAE-09 type of goods or services subject to the reverse charge (Tenant API lines); not in the Partner API schema. */
  goodsType?: string;
  discountAmount?: number;
  chargeAmount?: number;
}

export interface InvoiceCreateBody {
  trn: string;
  number: string;
  issueDate: string;
  dueDate?: string | null;
  invoiceType?: InvoiceType;
  documentType?: DocumentType;
  precedingInvoiceNumber?: string;
  precedingInvoiceIssueDate?: string;
  /** @deprecated use precedingInvoiceNumber (kept for callers older than 1.5). */
  precedingInvoiceReference?: string;
  creditNoteReasonCode?: CreditNoteReasonCode;
  currency: 'AED';
  purchaseOrderReference?: string;
  salesOrderReference?: string;
  contractReference?: string;
  seller: InvoiceParty;
  buyer: InvoiceParty;
  deliveryAddress?: DeliveryAddress;
  paymentMeansCode?: PaymentMeansCode;
  paymentAccountIdentifier?: string;
  paymentAccountName?: string;
  paymentTermsNote?: string;
  /** Free text for the document note (IBT-022): the Tenant API's `notes`; not in the Partner API schema. */
  notes?: string;
  lines: InvoiceLine[];
}

/** A validation or pre-submit finding; `path` is a JSON path into the request body. */
export interface FieldError {
  code: string;
  path: string;
  message: string;
}

/** The preceding invoice number, honouring the deprecated alias. */
export function precedingInvoiceNumber(body: Pick<InvoiceCreateBody, 'precedingInvoiceNumber' | 'precedingInvoiceReference'>): string | undefined {
  return body.precedingInvoiceNumber ?? body.precedingInvoiceReference;
}
