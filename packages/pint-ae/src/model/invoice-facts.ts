// Facts derived from an InvoiceCreateBody that both the pre-submit checks and the PINT-AE renderer
// need: whose TRN is whose, export or not, which UBL document and type code. Pure code.
import type { InvoiceCreateBody, InvoiceParty } from './invoice-types';
import { taxCategoryInfo } from './tax-categories';

/** A UAE TRN as PINT-AE accepts it (ibr-132-ae): 15 digits, starting with 1, ending with 03. */
export const PINT_TRN_RE = /^1\d{12}03$/;

export function partyCountry(party: InvoiceParty | undefined): string {
  return (party?.country ?? 'AE').toUpperCase();
}

/** Country of the party's postal address (the address's own country, else the party's). */
export function addressCountry(party: InvoiceParty | undefined): string {
  return (party?.address?.country ?? party?.country ?? 'AE').toUpperCase();
}

/** The SME's side: the seller of a sale, the buyer of a purchase (SPEC 2.1 invoiceType). */
export function smeRole(body: Pick<InvoiceCreateBody, 'invoiceType'>): 'seller' | 'buyer' {
  return body.invoiceType === 'purchase' ? 'buyer' : 'seller';
}

/** The seller's TRN: seller.trn, or the body's (supplier) trn when the SME is the seller. */
export function sellerTrn(body: InvoiceCreateBody): string | undefined {
  return body.seller?.trn ?? (smeRole(body) === 'seller' ? body.trn : undefined);
}

/** The buyer's TRN: buyer.trn, or the body's trn when the SME is the buyer (purchase). */
export function buyerTrn(body: InvoiceCreateBody): string | undefined {
  return body.buyer?.trn ?? (smeRole(body) === 'buyer' ? body.trn : undefined);
}

/** Delivery country: the delivery address's, else the buyer's. */
function deliveryCountry(body: InvoiceCreateBody): string | undefined {
  if (!body.deliveryAddress) return undefined;
  return (body.deliveryAddress.country ?? body.buyer?.country ?? 'AE').toUpperCase();
}

/**
 * Export (BTAE-02 position 8): the buyer is outside the UAE (SPEC 2.1's definition), or the goods are
 * delivered to an address outside the UAE.
 */
export function isExport(body: InvoiceCreateBody): boolean {
  if (partyCountry(body.buyer) !== 'AE') return true;
  const dc = deliveryCountry(body);
  return dc !== undefined && dc !== 'AE';
}

/** Whether any line is a designated-zone supply (BTAE-02 position 1, free trade zone). */
export function involvesDesignatedZone(body: InvoiceCreateBody): boolean {
  return (body.lines ?? []).some((l) => l?.taxCategory === 'reverse_charge_designated_zone');
}

export function hasReverseCharge(body: InvoiceCreateBody): boolean {
  return (body.lines ?? []).some((l) => taxCategoryInfo(l?.taxCategory)?.reverseCharge === true);
}

/** Every line is exempt (E) or out of scope (O): a 380/381 document would break ibr-151-ae. */
function onlyExemptOrOutOfScope(body: InvoiceCreateBody): boolean {
  return (body.lines ?? []).every((l) => {
    const code = taxCategoryInfo(l?.taxCategory)?.code;
    return code === 'E' || code === 'O';
  });
}

export interface DocumentKind {
  root: 'Invoice' | 'CreditNote';
  /** UNCL1001 type code: 380, 480, 389 (invoices), 381, 81 (credit notes). */
  typeCode: '380' | '480' | '389' | '381' | '81';
  selfBilling: boolean;
  customizationId: string;
  profileId: string;
  /** cbc:Note naming the document for the reader. */
  title: string;
  /** A preceding-invoice reference is mandatory. */
  needsPrecedingInvoice: boolean;
}

const BILLING = { customizationId: 'urn:peppol:pint:billing-1@ae-1', profileId: 'urn:peppol:bis:billing' };
const SELF_BILLING = { customizationId: 'urn:peppol:pint:selfbilling-1@ae-1', profileId: 'urn:peppol:bis:selfbilling' };

/**
 * The UBL document for a documentType. PINT-AE's billing type codes are 380 and 480 (invoices),
 * 381 and 81 (credit notes); self-billing uses 389. A debit note is a 380 invoice that references
 * the invoice it adjusts; a simplified tax invoice is a 380 too (PINT-AE has no separate code).
 * A credit note whose lines are all exempt or out of scope is an 81 (the credit-note counterpart of
 * 480), because ibr-151-ae refuses a 381 without a taxable line.
 */
export function documentKind(body: InvoiceCreateBody): DocumentKind {
  switch (body.documentType ?? 'tax_invoice') {
    case 'commercial_invoice':
      return { root: 'Invoice', typeCode: '480', selfBilling: false, ...BILLING, title: 'Commercial invoice', needsPrecedingInvoice: false };
    case 'simplified_tax_invoice':
      return { root: 'Invoice', typeCode: '380', selfBilling: false, ...BILLING, title: 'Simplified tax invoice', needsPrecedingInvoice: false };
    case 'debit_note':
      return { root: 'Invoice', typeCode: '380', selfBilling: false, ...BILLING, title: 'Debit note', needsPrecedingInvoice: true };
    case 'credit_note':
      return {
        root: 'CreditNote',
        typeCode: onlyExemptOrOutOfScope(body) ? '81' : '381',
        selfBilling: false,
        ...BILLING,
        title: 'Tax credit note',
        needsPrecedingInvoice: true,
      };
    case 'self_billed_invoice':
      return { root: 'Invoice', typeCode: '389', selfBilling: true, ...SELF_BILLING, title: 'Self-billed tax invoice', needsPrecedingInvoice: false };
    case 'tax_invoice':
    default:
      return { root: 'Invoice', typeCode: '380', selfBilling: false, ...BILLING, title: 'Tax invoice', needsPrecedingInvoice: false };
  }
}

/** SPEC 2.1 creditNoteReasonCode -> PINT-AE CreditReason (BTAE-03, ibr-001-ae). */
export const CREDIT_REASON_MAP = {
  '01': 'DL8.61.1.A', // cancellation: the supply was cancelled
  '02': 'DL8.61.1.E', // correction: tax charged or tax treatment applied in error
  '03': 'DL8.61.1.C', // discount: the agreed consideration was altered
  '04': 'DL8.61.1.D', // return of goods: goods or services returned, consideration returned
  '05': 'DL8.61.1.C', // other: the consideration was altered for another reason
} as const;
