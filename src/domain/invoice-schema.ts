// joi schema for SPEC 2.1 InvoiceCreateBody (Partner API), and validateInvoiceBody, which turns joi's
// findings into stable {code, path, message} errors. This is the shape check (HTTP 400); the business
// checks that hold an invoice (HTTP 201 held) are in pre-submit.ts. Pure code.
import Joi from 'joi';
import { CREDIT_NOTE_REASON_CODES, DOCUMENT_TYPES, INVOICE_TYPES, ITEM_TYPES, LEGAL_REGISTRATION_TYPES, PAYMENT_MEANS_CODES, SHORT_TAX_CODES, TAX_CATEGORIES, type FieldError, type InvoiceCreateBody } from '@einvoice/pint-ae';
import { joiFieldError, type DocumentWords } from './joi-errors';
import { countryCode as country, isoDate as date, JOI_OPTIONS, str, trnString as trn } from './schema-helpers';

// The invoice model is @einvoice/pint-ae's (what renderInvoice takes); re-exported for the schema's users.
export {
  CREDIT_NOTE_REASON_CODES,
  DOCUMENT_TYPES,
  INVOICE_TYPES,
  ITEM_TYPES,
  LEGAL_REGISTRATION_TYPES,
  PAYMENT_MEANS_CODES,
  SHORT_TAX_CODES,
  TAX_CATEGORIES,
  precedingInvoiceNumber,
  type CreditNoteReasonCode,
  type DeliveryAddress,
  type DocumentType,
  type FieldError,
  type InvoiceCreateBody,
  type InvoiceLine,
  type InvoiceParty,
  type InvoiceType,
  type ItemType,
  type LegalRegistrationType,
  type PartyAddress,
  type PaymentMeansCode,
  type ShortTaxCode,
  type TaxCategory,
} from '@einvoice/pint-ae';

/** One item of BulkInvoiceBody.invoices: an InvoiceCreateBody that may carry externalRef. */
export interface BulkInvoiceItem extends InvoiceCreateBody {
  externalRef?: string;
}

/** Accepts the code as a string ("30") or a JSON number (30); the value is always the string. */
const codeOf = (codes: readonly string[]) =>
  Joi.any().custom((v: unknown, helpers) => {
    if (typeof v !== 'string' && typeof v !== 'number') return helpers.error('alternatives.types');
    const s = String(v).trim();
    return codes.includes(s) ? s : helpers.error('any.only', { valids: codes });
  }, 'code');

const partyAddress = Joi.object({
  line1: str().max(200).required(),
  line2: str().max(200),
  city: str().max(100).required(),
  emirate: str().max(50),
  country: country(),
  postalCode: str().max(20),
});

const invoiceParty = Joi.object({
  name: str().max(300).required(),
  country: country().default('AE'),
  address: partyAddress,
  trn: trn(),
  email: str().email({ tlds: false }).allow(null),
  phone: str().max(30).allow(null),
  legalRegistrationType: str().valid(...LEGAL_REGISTRATION_TYPES).default('TIN'),
  passportNumber: str(),
  passportCountry: country(),
  tradeLicenseNumber: str(),
});

const deliveryAddress = Joi.object({
  line1: str().max(200),
  line2: str().max(200),
  city: str().max(100),
  emirate: str().max(50),
  postalCode: str().max(20),
  country: country(),
  actualDeliveryDate: date(),
  latestDeliveryDate: date(),
});

const invoiceLine = Joi.object({
  description: str().required(),
  quantity: Joi.number().required(),
  unitPrice: Joi.number().required(),
  // Range (0 to 1) and agreement with taxCategory are pre-submit checks: vat_rate_percent, vat_rate_mismatch.
  vatRate: Joi.number().required(),
  taxCategory: str()
    .valid(...TAX_CATEGORIES, ...SHORT_TAX_CODES)
    .default('standard_5')
    .messages({ 'any.only': 'must be one of ' + TAX_CATEGORIES.join(', ') }),
  taxCategoryReason: str(),
  classificationCode: str(),
  classificationCodeScheme: str().valid('HS').default('HS'),
  unitOfMeasureCode: str().default('EA'),
  itemType: str().valid(...ITEM_TYPES),
  discountAmount: Joi.number(),
  chargeAmount: Joi.number(),
});

const bodyKeys = {
  trn: trn().required(),
  number: str().max(64).required(), // as the Tenant API's; a unique index holds it (issue 13: 800 KB was a 500)
  issueDate: date().required(),
  dueDate: date().allow(null),
  invoiceType: str().valid(...INVOICE_TYPES).default('sale'),
  documentType: str().valid(...DOCUMENT_TYPES).default('tax_invoice'),
  precedingInvoiceNumber: str().max(64),
  precedingInvoiceIssueDate: date(),
  precedingInvoiceReference: str(),
  creditNoteReasonCode: str().valid(...CREDIT_NOTE_REASON_CODES),
  currency: str().valid('AED').required(),
  purchaseOrderReference: str(),
  salesOrderReference: str(),
  contractReference: str(),
  seller: invoiceParty.required(),
  buyer: invoiceParty.required(),
  deliveryAddress: deliveryAddress,
  paymentMeansCode: codeOf(PAYMENT_MEANS_CODES),
  paymentAccountIdentifier: str(),
  paymentAccountName: str(),
  paymentTermsNote: str(),
  lines: Joi.array().items(invoiceLine).min(1).required(),
};

/** joi schema for InvoiceCreateBody (POST /v1/partner/invoices). Unknown fields are refused. */
export const invoiceCreateBodySchema: Joi.ObjectSchema<InvoiceCreateBody> = Joi.object(bodyKeys);

/** joi schema for one item of BulkInvoiceBody.invoices: InvoiceCreateBody plus externalRef. */
export const bulkInvoiceItemSchema: Joi.ObjectSchema<BulkInvoiceItem> = Joi.object({
  ...bodyKeys,
  externalRef: str().max(128),
});

/** The Partner API's words in the messages of joi-errors.ts. */
const PARTNER_WORDS: DocumentWords = {
  bodyName: ' (InvoiceCreateBody)',
  itemsName: 'invoice line objects',
  requiredHints: {
    seller: ': send an InvoiceParty object {name, country, address: {line1, city, emirate}, trn}',
    buyer: ': send an InvoiceParty object {name, country, address: {line1, city, emirate}, trn}',
    lines: ': send at least one line {description, quantity, unitPrice, vatRate}',
    currency: ': send "AED"',
    issueDate: ': send the issue date as YYYY-MM-DD',
    trn: ': send the supplier TRN (15 digits)',
    vatRate: ': send the VAT rate as a decimal fraction (0.05 for 5 %, 0 for zero-rated, exempt or out of scope)',
  },
  formatHints: {
    trn: 'must be the 15-digit tax registration number (digits only, e.g. "100123456700003")',
    country: 'must be an ISO 3166-1 alpha-2 country code such as "AE"',
    passportCountry: 'must be the ISO 3166-1 alpha-2 code of the issuing country, such as "IN"',
    email: 'must be an e-mail address such as "accounts@example.ae", or null',
  },
  unknownFieldOwners: { externalRef: 'InvoiceCreateBody (externalRef is only accepted on bulk items)' },
  lengthWithLimit: true,
};

/**
 * Shape validation of a request body (joi, all errors at once). Returns the value with defaults
 * applied (invoiceType sale, documentType tax_invoice, taxCategory standard_5, unitOfMeasureCode EA,
 * legalRegistrationType TIN, country AE) when there is no error.
 */
export function validateInvoiceBody(
  body: unknown,
  opts: { bulkItem?: boolean } = {},
): { value?: InvoiceCreateBody; errors: FieldError[] } {
  const schema = opts.bulkItem ? bulkInvoiceItemSchema : invoiceCreateBodySchema;
  if (body === null || body === undefined || typeof body !== 'object' || Array.isArray(body)) {
    return { errors: [{ code: 'invalid_type', path: '', message: 'the body must be a JSON object (InvoiceCreateBody)' }] };
  }
  const { value, error } = schema.validate(body, JOI_OPTIONS);
  if (!error) return { value: value as InvoiceCreateBody, errors: [] };
  return { errors: error.details.map((d) => joiFieldError(d, 'document', PARTNER_WORDS)) };
}
