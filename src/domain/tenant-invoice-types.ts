// The Tenant API's invoice input (SPEC 2.2 InvoiceCreateInput and its alternative payload shape) as TypeScript
// types, and what reading one produces: a draft in the internal invoice model (InvoiceCreateBody, the one the
// renderer, the pre-submit checks and the pipeline share with the Partner API). Pure types and constants.
import type { FieldError, InvoiceCreateBody, PartyAddress } from '@einvoice/pint-ae';

export const TENANT_MODES = ['test', 'sandbox', 'live'] as const;
export type TenantMode = (typeof TENANT_MODES)[number];

export const TENANT_INVOICE_TYPES = ['sale', 'purchase', 'credit_note', 'debit_note'] as const;
export type TenantInvoiceType = (typeof TENANT_INVOICE_TYPES)[number];

/** SPEC 2.2 taxCategory values on the Tenant surface. */
export const TENANT_TAX_CATEGORIES = [
  'standard_5',
  'zero_rated_export',
  'zero_rated_healthcare',
  'zero_rated_education',
  'exempt_financial',
  'exempt_residential_rent',
  'reverse_charge_designated_zone',
  'out_of_scope',
] as const;
export type TenantTaxCategory = (typeof TENANT_TAX_CATEGORIES)[number];

/** The alternative shape's tax names (SPEC 2.2 rule 4). */
export const TENANT_TAX_NAMES = ['STANDARD', 'ZERO_RATE', 'EXEMPT', 'REVERSE_CHARGE', 'OUT_OF_SCOPE'] as const;
export type TenantTaxName = (typeof TENANT_TAX_NAMES)[number];

/** SPEC 2.2 reasonCode values seen; required on credit and debit notes. */
export const TENANT_REASON_CODES = ['ReturnOfGoods', 'PriceCorrection', 'OtherAdjustment'] as const;

export interface TenantAddress {
  line1?: string;
  line2?: string;
  city?: string;
  /** The emirate for a UAE address (PINT-AE's country subdivision). */
  state?: string;
  postalCode?: string;
  country?: string;
}

export interface TenantSeller {
  name?: string;
  legalNameArabic?: string;
  /** Defaults to the tenant's registered TRN (see tenant-invoice-input.ts). */
  trn?: string;
  country?: string;
  designatedZone?: boolean;
  /** Additive: the seller's address; defaults to the tenant's registered address. */
  address?: TenantAddress;
  /** Additive: the seller's trade licence (PINT-AE ibr-150-ae); defaults to the registration's. */
  tradeLicenseNumber?: string;
}

export interface TenantBuyer {
  name: string;
  legalNameArabic?: string;
  /** Omitted for B2C. */
  trn?: string;
  country?: string;
  email?: string;
  address?: TenantAddress;
  /** Additive: a buyer without a TRN is identified by its trade licence (PINT-AE ibr-135-ae). */
  tradeLicenseNumber?: string;
}

export interface TenantLine {
  description: string;
  sellerItemId?: string;
  quantity: number;
  /** UN/ECE Rec 20 code. */
  unit?: string;
  /** VAT exclusive. */
  unitPrice: number;
  /** Decimal fraction: 0.05 is 5 %. */
  vatRate: number;
  taxCategory: TenantTaxCategory;
  /** Absolute, before VAT. */
  discountAmount?: number;
  marginScheme?: boolean;
  /** Additive, reverse-charge lines: BTAE-09 type of goods or services (GoodsType.gc code, ibr-166-ae/ibr-006-ae). */
  goodsType?: string;
  /** Additive, reverse-charge lines: the HS code, written as the item standard identifier (ibr-174-ae). */
  hsCode?: string;
}

/** SPEC 2.2 InvoiceCreateInput (body of POST /v1/invoices; also what one CSV invoice becomes). */
export interface TenantInvoiceInput {
  number: string;
  issueDate: string;
  dueDate?: string;
  currency: 'AED';
  invoiceType: TenantInvoiceType;
  seller: TenantSeller;
  buyer: TenantBuyer;
  lines: TenantLine[];
  sellerInvoiceReference?: string;
  buyerReference?: string;
  notes?: string;
  referencedInvoiceNumber?: string;
  /** Additive: issue date of the referenced invoice (PINT-AE needs it on credit and debit notes). */
  referencedInvoiceIssueDate?: string;
  reasonCode?: string;
  /**
   * SPEC 2.2 rule 1: clients must not send totals. Tolerated only when they agree with the totals computed
   * from lines[] within 0.01 AED (SPEC 7.2 totals_mismatch); never used for anything else.
   */
  totals?: TenantClientTotals;
  subtotal?: number;
  vatAmount?: number;
  vat_amount?: number;
  total?: number;
}

/** Totals a standard-shape client may echo (the names of the draft response, and the SPEC's own). */
export interface TenantClientTotals {
  subtotal?: number;
  tax?: number;
  vatAmount?: number;
  vat_amount?: number;
  total?: number;
  currency?: 'AED';
}

/** A party of the alternative shape (SPEC 2.2 rule 4): the address is one free-text string. */
export interface TenantAlternativeParty {
  trn?: string;
  legalName?: string;
  legalNameArabic?: string;
  address?: string;
  /** Additive: ISO 3166-1 alpha-2, default AE. */
  country?: string;
  /** Additive, as on the standard shape. */
  tradeLicenseNumber?: string;
  /** Buyer only. */
  email?: string;
}

export interface TenantAlternativeItem {
  name: string;
  quantity: number;
  unitPrice: number;
  /** Absolute, before VAT. */
  discount?: number;
  /** Percent: 5 is 5 %. */
  taxPercent?: number;
  /** A tax name (TENANT_TAX_NAMES). */
  tax?: string;
  /** The ERP's tax ledger code (SR, ZR, EX, RC, OS, or spelled out); mapped to a tax name. */
  taxLedger?: string;
  /** VAT-exclusive line amount (quantity x unitPrice - discount); checked, not used. */
  lineTotal?: number;
  /** Additive, as on the standard shape's lines (REVERSE_CHARGE items). */
  goodsType?: string;
  hsCode?: string;
}

export interface TenantAlternativeTotals {
  netAmount?: number;
  taxAmount?: number;
  grossAmount?: number;
}

/** SPEC 2.2 rule 4, the alternative payload shape (always a sale). */
export interface TenantAlternativeInput {
  invoiceNumber: string;
  issueDate: string;
  dueDate?: string;
  currency: 'AED';
  seller?: TenantAlternativeParty;
  buyer: TenantAlternativeParty;
  items: TenantAlternativeItem[];
  totals?: TenantAlternativeTotals;
}

/**
 * What the service knows of an invoice a credit or debit note references (same tenant and mode), looked up by
 * number before the body is read: the facts the note may leave out.
 */
export interface ReferencedOriginal {
  issueDate: string;
  /** VAT-inclusive total of the original, in fils. */
  grossFils: bigint;
  /** VAT-inclusive totals (fils) of the other credit notes against it that still count (not rejected). */
  creditedFils: bigint;
}

/** What the tenant registered (admin tenant:create): the seller details a body may leave out. */
export interface TenantRegistration {
  trn: string;
  legalName: string;
  legalNameArabic: string;
  address?: PartyAddress | null;
  /** The seller's trade licence, when registered (PINT-AE ibr-150-ae needs a seller legal registration). */
  tradeLicenseNumber?: string | null;
}

/** The Tenant API's codes for a refused body (SPEC 7.2, HTTP 400). */
export type TenantInputCode = 'invalid_body' | 'arabic_seller_name_required' | 'totals_mismatch' | 'unknown_tax' | 'unknown_tax_ledger';

export interface TenantInputRefusal {
  code: TenantInputCode;
  /** Every finding, with the JSON path in the body as sent (either shape). */
  errors: FieldError[];
}

/** Amounts as JSON numbers with two decimals (computed exactly, see domain/totals.ts). */
export interface TenantTotals {
  subtotal: number;
  tax: number;
  total: number;
  currency: 'AED';
}

/** A body read and mapped: ready to store as a draft. */
export interface TenantDraft {
  number: string;
  invoiceType: TenantInvoiceType;
  /** The internal model: documentType set (tax_invoice, simplified_tax_invoice, credit_note, debit_note). */
  body: InvoiceCreateBody;
  totals: TenantTotals;
  /** SPEC 2.2 rule 3: simplified when there is no buyer TRN and the total is below 10,000 AED. */
  profile: 'standard' | 'simplified';
  /** Which payload shape the body used. */
  shape: 'standard' | 'alternative';
}
