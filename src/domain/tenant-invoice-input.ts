// Reading a Tenant API invoice body (SPEC 2.2: InvoiceCreateInput, or the alternative payload shape) into a
// draft in the internal invoice model (InvoiceCreateBody, shared with the Partner API, the renderer and the
// pre-submit checks), or refusing it with a SPEC 7.2 code (HTTP 400). Pure code: no I/O.
//
// Decisions (where SPEC 2.2 and 7.2 leave room):
// - Shape: a body carrying `invoiceNumber` or `items` is the alternative shape; anything else is the standard one.
//   Both refuse unknown fields (invalid_body, unknown_field) and report every finding at once.
// - Refusal precedence (refusal.code): invalid_body (every shape finding: missing or malformed field, bad TRN,
//   buyer equals seller, missing tax on a line, negative amounts), then unknown_tax, then
//   arabic_seller_name_required, then totals_mismatch. refusal.errors lists every finding found, each with its
//   own code, the highest-precedence ones first. Totals are only compared once the shape and the taxes are
//   readable (they cannot be computed before).
// - unknown_tax_ledger: alternative items may name the ERP's tax ledger code instead of (or beside) a tax name,
//   `taxLedger`: the VAT codes UAE ERPs use (SR standard-rated, ZR zero-rated, EX exempt, RC reverse charge, OS
//   out of scope, and their spelled-out forms, see TAX_LEDGERS). A ledger code we do not map is
//   unknown_tax_ledger; a ledger and a tax name that disagree are invalid_body (tax_ledger_mismatch).
// - Client totals (rule 1): clients "must not send" them, yet SPEC 7.2 defines totals_mismatch with a 0.01 AED
//   tolerance, so a standard body may carry subtotal / vatAmount / vat_amount / total (at the top level or in a
//   `totals` object, which also takes the draft response's `tax` and `currency`) when they agree with the
//   totals computed from the lines within 0.01 AED; they are never used. Likewise the alternative shape's
//   totals.* and items[].lineTotal (the VAT-exclusive line amount, quantity x unitPrice - discount).
// - Tax names (alternative shape), matched case-insensitively ("zero rate" reads as ZERO_RATE):
//   STANDARD -> standard_5; ZERO_RATE -> zero_rated_export when the buyer's country is not AE, else
//   zero_rated_healthcare (PINT-AE writes every zero-rated category as Z at 0 % with no reason code, so the
//   choice changes nothing in the XML; the shape cannot say which domestic zero rating applies);
//   EXEMPT -> exempt_financial (the usual exempt supply between businesses; written as E with reason DL8.46.1);
//   REVERSE_CHARGE -> reverse_charge_designated_zone (pre-submit then needs an HS code and a buyer TRN);
//   OUT_OF_SCOPE -> out_of_scope. Without a name, taxPercent 5 reads as STANDARD and 0 as ZERO_RATE; another
//   percent is unknown_tax. A name with a percent it does not carry (STANDARD with 0) is invalid_body.
// - Units: `unit` defaults to EA (the Partner API's default, what the pre-submit checks assume); C62 and every
//   other UN/ECE Rec 20 code is accepted, anything else is invalid_body.
// - reasonCode -> creditNoteReasonCode (SPEC 2.1 codes; BTAE-03 through invoice-facts.ts CREDIT_REASON_MAP):
//   ReturnOfGoods -> 04 (return of goods, DL8.61.1.D); PriceCorrection -> 03 (the agreed consideration was
//   altered, DL8.61.1.C: a corrected price changes the consideration; 02 is for tax charged in error);
//   OtherAdjustment -> 05 (other, DL8.61.1.C). Other values are refused (invalid_body): SPEC 2.2 lists only
//   the values seen, and guessing a legal reason for the authority is worse than asking. A debit note's
//   reasonCode is checked but not mapped (the internal model has credit reasons only).
// - notes -> the document note (IBT-022, cbc:Note after the document's title; SPEC 2.2 "appears in the
//   authority-facing XML"). Not mapped, because InvoiceCreateBody has no field for them (the service stores the
//   original input): sellerInvoiceReference, lines[].sellerItemId, lines[].marginScheme, seller.designatedZone.
// - Reverse charge: lines (and alternative items) take goodsType (BTAE-09, GoodsType.gc codes) and hsCode (the
//   item standard identifier); tenant-rule-checks.ts names what a reverse-charge line lacks.
// - Credit and debit notes: the referenced invoice's issue date comes from the invoice the service holds under
//   referencedInvoiceNumber (same tenant and mode, looked up by the caller and handed in as `originals`);
//   referencedInvoiceIssueDate, when sent, overrides it (an original issued before the tenant used us).
// - Document type (rule 3 and the official rules): credit_note, debit_note as sent; every line exempt or out
//   of scope -> commercial_invoice (ibr-151-ae; not for credit notes, which become type 81 by themselves);
//   a sale without buyer TRN below 10,000 AED -> simplified_tax_invoice; else tax_invoice.
// - B2C: a UAE buyer without TRN or trade licence gets a customer reference (IBT-046, ibr-135-ae; see
//   tenant-rule-checks.ts customerReference).
//   buyerReference (customer PO or reference) becomes purchaseOrderReference.
// - invoiceType purchase -> internal invoiceType purchase, documentType tax_invoice; the body's `trn` is then
//   the buyer's (the tenant's side of a purchase, see invoice-facts.ts smeRole): buyer.trn, else the tenant's.
//   Seller defaults (rule 5) apply to every type, as SPEC 2.2 says nothing else.
// - Additive fields (optional): seller.address (standard shape), seller/buyer.tradeLicenseNumber (PINT-AE
//   needs a seller legal registration, and a buyer identifier when the buyer has no TRN), alternative
//   parties' country (default AE) and buyer email, and referencedInvoiceIssueDate (PINT-AE needs the
//   preceding invoice's date on credit and debit notes; without it pre-submit holds the note).
import Joi from 'joi';
import { UNECE_REC20, EMIRATE_NAMES, emirateCode, type EmirateCode, type CreditNoteReasonCode, type DocumentType, type FieldError, type InvoiceCreateBody, type InvoiceLine, type InvoiceParty, type PartyAddress, dec, fils, computeTotals, type InvoiceTotals } from '@einvoice/pint-ae';
import { joiFieldError, type DocumentWords } from './joi-errors';
import { countryCode as country, isoDate as date, JOI_OPTIONS, str, trnString } from './schema-helpers';
import { customerReference, GOODS_TYPE_CODES, GOODS_TYPE_HINT, onlyExemptOrOutOfScope } from './tenant-rule-checks';
import {
  TENANT_INVOICE_TYPES,
  TENANT_REASON_CODES,
  TENANT_TAX_CATEGORIES,
  TENANT_TAX_NAMES,
  type TenantAddress,
  type TenantAlternativeInput,
  type TenantAlternativeParty,
  type TenantDraft,
  type TenantInputCode,
  type TenantInputRefusal,
  type TenantInvoiceInput,
  type TenantInvoiceType,
  type ReferencedOriginal,
  type TenantRegistration,
  type TenantTaxCategory,
  type TenantTaxName,
} from './tenant-invoice-types';

/** Unit of measure when a line sends none (the Partner API's default; UN/ECE Rec 20 "each"). */
export const DEFAULT_TENANT_UNIT = 'EA';

/** reasonCode -> SPEC 2.1 creditNoteReasonCode (see the decisions above). */
export const TENANT_REASON_CODE_MAP: Readonly<Record<(typeof TENANT_REASON_CODES)[number], CreditNoteReasonCode>> = {
  ReturnOfGoods: '04',
  PriceCorrection: '03',
  OtherAdjustment: '05',
};

/** SPEC 2.2 rule 3: below this VAT-inclusive total (10,000.00 AED, in fils) a sale without buyer TRN is simplified. */
const SIMPLIFIED_LIMIT_FILS = 1_000_000n;
/** SPEC 7.2: client totals may differ from the computed ones by at most 0.01 AED. */
const TOLERANCE = dec('0.01');

/** Refusal precedence (see the decisions above). */
const PRECEDENCE: readonly TenantInputCode[] = ['invalid_body', 'unknown_tax', 'unknown_tax_ledger', 'arabic_seller_name_required', 'totals_mismatch'];

// ---------------------------------------------------------------------------------------------------------
// joi schemas. Field rules only; what needs the registration or computed amounts is checked afterwards.

/** SPEC 2.2 "15 digits"; PINT-AE's stricter form (1...03) is a pre-submit check. */
const trn = trnString;
/** An empty Arabic name is arabic_seller_name_required (SPEC 7.2), not invalid_body: joi lets '' through. */
const arabicName = () => str().max(300).allow('');
const unit = () => str().custom((v: string, h) => (UNECE_REC20.has(v) ? v : h.error('unit.unknown')), 'UN/ECE Rec 20 code');
const clientAmount = () => Joi.number();
/** Reverse-charge line fields (additive): BTAE-09 code, and the HS code (digits, dots allowed). */
const goodsType = () => str().valid(...GOODS_TYPE_CODES).description(`Reverse-charge lines: type of goods or services subject to the reverse charge (PINT-AE BTAE-09, GoodsType code list): ${GOODS_TYPE_HINT}. May be left out when hsCode's heading names one of them.`);
const hsCode = () => str().max(20).pattern(/^\d{4}[\d.]*$/).description('Reverse-charge lines: the HS code of the goods (written as the item standard identifier, PINT-AE ibr-174-ae), e.g. "8517.13".');
const notesOnly = (schema: Joi.Schema) => schema.when('invoiceType', { is: Joi.valid('credit_note', 'debit_note'), then: Joi.required() });

const tenantAddress = Joi.object({
  line1: str().max(200).required(),
  line2: str().max(200),
  city: str().max(100).required(),
  state: str().max(50),
  postalCode: str().max(20),
  country: country(),
});

const standardSeller = Joi.object({
  name: str().max(300),
  legalNameArabic: arabicName(),
  trn: trn(),
  country: country(),
  designatedZone: Joi.boolean(),
  address: tenantAddress,
  tradeLicenseNumber: str().max(100),
});

const standardBuyer = Joi.object({
  name: str().max(300).required(),
  legalNameArabic: str().max(300).allow(''),
  // '' reads as "no TRN" (B2C), like an absent field.
  trn: trn().allow(''),
  country: country(),
  email: str().email({ tlds: false }),
  address: tenantAddress,
  tradeLicenseNumber: str().max(100),
});

const standardLine = Joi.object({
  description: str().max(1000).required(),
  sellerItemId: str().max(100),
  quantity: Joi.number().positive().required(),
  unit: unit(),
  unitPrice: Joi.number().min(0).required(),
  vatRate: Joi.number().min(0).max(1).required(),
  taxCategory: str().valid(...TENANT_TAX_CATEGORIES).required(),
  discountAmount: Joi.number().min(0),
  marginScheme: Joi.boolean(),
  goodsType: goodsType(),
  hsCode: hsCode(),
});

/** SPEC 2.2 InvoiceCreateInput (POST /v1/invoices). Unknown fields are refused. */
export const tenantInvoiceInputSchema: Joi.ObjectSchema<TenantInvoiceInput> = Joi.object({
  number: str().max(64).required(),
  issueDate: date().required(),
  dueDate: date(),
  currency: str().valid('AED').required(),
  invoiceType: str().valid(...TENANT_INVOICE_TYPES).required(),
  seller: standardSeller.required(),
  buyer: standardBuyer.required(),
  lines: Joi.array().items(standardLine).min(1).required(),
  sellerInvoiceReference: str().max(200),
  buyerReference: str().max(200),
  notes: str().max(2000).description('Free text; written as the document note (IBT-022) of the PINT-AE XML, after the document title.'),
  referencedInvoiceNumber: notesOnly(str().max(64)).description('Credit and debit notes: the number of the invoice adjusted. When the service holds it (same tenant and mode), its issue date is taken from there.'),
  referencedInvoiceIssueDate: date().description('Optional: the issue date of the referenced invoice; needed only when the service does not hold that invoice, and overrides the stored date when sent.'),
  reasonCode: notesOnly(str().valid(...TENANT_REASON_CODES)),
  totals: Joi.object({
    subtotal: clientAmount(),
    tax: clientAmount(),
    vatAmount: clientAmount(),
    vat_amount: clientAmount(),
    total: clientAmount(),
    currency: str().valid('AED'),
  }),
  subtotal: clientAmount(),
  vatAmount: clientAmount(),
  vat_amount: clientAmount(),
  total: clientAmount(),
});

const alternativeParty = (role: 'seller' | 'buyer') =>
  Joi.object({
    trn: role === 'buyer' ? trn().allow('') : trn(),
    legalName: role === 'buyer' ? str().max(300).required() : str().max(300),
    legalNameArabic: arabicName(),
    address: str().max(500),
    country: country(),
    tradeLicenseNumber: str().max(100),
    ...(role === 'buyer' ? { email: str().email({ tlds: false }) } : {}),
  });

const alternativeItem = Joi.object({
  name: str().max(1000).required(),
  quantity: Joi.number().positive().required(),
  unitPrice: Joi.number().min(0).required(),
  discount: Joi.number().min(0),
  taxPercent: Joi.number().min(0).max(100),
  tax: str().max(50),
  taxLedger: str().max(50),
  lineTotal: clientAmount(),
  goodsType: goodsType(),
  hsCode: hsCode(),
});

/** SPEC 2.2 rule 4, the alternative payload shape (always a sale). Unknown fields are refused. */
export const tenantAlternativeInputSchema: Joi.ObjectSchema<TenantAlternativeInput> = Joi.object({
  invoiceNumber: str().max(64).required(),
  issueDate: date().required(),
  dueDate: date(),
  currency: str().valid('AED').required(),
  seller: alternativeParty('seller'),
  buyer: alternativeParty('buyer').required(),
  items: Joi.array().items(alternativeItem).min(1).required(),
  totals: Joi.object({ netAmount: clientAmount(), taxAmount: clientAmount(), grossAmount: clientAmount() }),
});

// ---------------------------------------------------------------------------------------------------------
// Findings

/** A finding with the SPEC 7.2 code it refuses the body with. */
interface Finding {
  kind: TenantInputCode;
  error: FieldError;
}

/** The Tenant API's words in the messages of joi-errors.ts. */
const TENANT_WORDS: DocumentWords = {
  bodyName: '',
  itemsName: 'objects',
  requiredHints: {
    taxCategory: ': send the VAT category of the line, one of ' + TENANT_TAX_CATEGORIES.join(', '),
    tax: ': send a tax name (' + TENANT_TAX_NAMES.join(', ') + ') or taxPercent',
    referencedInvoiceNumber: ': credit and debit notes name the invoice they adjust',
    reasonCode: ': credit and debit notes carry one of ' + TENANT_REASON_CODES.join(', '),
    currency: ': send "AED"',
    lines: ': send at least one line',
    items: ': send at least one item',
  },
  formatHints: {
    trn: 'must be the 15-digit tax registration number (digits only, e.g. "100123456700003")',
    country: 'must be an ISO 3166-1 alpha-2 country code such as "AE"',
    email: 'must be an e-mail address such as "accounts@example.ae"',
  },
  lengthWithLimit: false,
};

function finding(kind: TenantInputCode, path: string, message: string, code: string = kind): Finding {
  return { kind, error: { code, path, message } };
}

/** The refusal: the highest-precedence kind names it; every finding is listed, highest precedence first. */
function refusal(findings: Finding[]): { refusal: TenantInputRefusal } {
  const sorted = [...findings].sort((a, b) => PRECEDENCE.indexOf(a.kind) - PRECEDENCE.indexOf(b.kind));
  return { refusal: { code: sorted[0].kind, errors: sorted.map((f) => f.error) } };
}

// ---------------------------------------------------------------------------------------------------------
// Checks that need the registration (rule 5). They read the joi output, which may be partly invalid: hence
// the type guards.

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function textAt(obj: unknown, key: string): string | undefined {
  if (!isObject(obj)) return undefined;
  const v = obj[key];
  return typeof v === 'string' ? v : undefined;
}

/** The seller's TRN after the default: the body's, else the registration's. */
function resolvedSellerTrn(body: Record<string, unknown>, tenant: TenantRegistration): string {
  return textAt(body.seller, 'trn') || tenant.trn;
}

/** SPEC 7.2: "buyer equals seller" is invalid_body, reported on buyer.trn. */
function buyerEqualsSeller(body: Record<string, unknown>, tenant: TenantRegistration): Finding[] {
  const buyerTrn = textAt(body.buyer, 'trn');
  if (!buyerTrn || buyerTrn !== resolvedSellerTrn(body, tenant)) return [];
  return [finding('invalid_body', 'buyer.trn', `buyer.trn ${buyerTrn} is the seller's TRN: an invoice needs a buyer other than the seller`, 'buyer_equals_seller')];
}

/**
 * SPEC 2.2 and 7.2: the seller's Arabic legal name is required. An empty string sent overrides the registered
 * name (the client said "none"); nothing sent falls back to the registration.
 */
function arabicSellerName(body: Record<string, unknown>, tenant: TenantRegistration): Finding[] {
  const sent = isObject(body.seller) ? body.seller.legalNameArabic : undefined;
  if (sent !== undefined && typeof sent !== 'string') return []; // a type error, already reported
  const name = sent === undefined ? (tenant.legalNameArabic ?? '').trim() : sent.trim();
  if (name) return [];
  return [
    finding(
      'arabic_seller_name_required',
      'seller.legalNameArabic',
      sent === undefined
        ? 'seller.legalNameArabic is required: send the seller\'s Arabic legal name (none is registered for this tenant)'
        : 'seller.legalNameArabic must not be empty: send the seller\'s Arabic legal name, or leave the field out to use the registered one',
    ),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Alternative shape: tax names

const TAX_NAME_PERCENTS: Readonly<Record<TenantTaxName, readonly number[]>> = {
  STANDARD: [5],
  ZERO_RATE: [0],
  EXEMPT: [0],
  // The buyer self-accounts for 5 %; PINT-AE writes 5 on the line (tax-categories.ts accepts 0.05 and 0).
  REVERSE_CHARGE: [5, 0],
  OUT_OF_SCOPE: [0],
};

function isTaxName(v: string): v is TenantTaxName {
  return (TENANT_TAX_NAMES as readonly string[]).includes(v);
}

/** "zero rate", "Zero-Rate" -> ZERO_RATE: names are matched without regard to case or separators. */
function normalTaxName(v: string): string {
  return v.trim().toUpperCase().replace(/[\s-]+/g, '_');
}

/** ERP tax ledger codes, normalised (upper case, letters and digits only), to tax names. */
const TAX_LEDGERS: Readonly<Record<string, TenantTaxName>> = {
  SR: 'STANDARD', S: 'STANDARD', STD: 'STANDARD', STANDARD: 'STANDARD', STANDARDRATED: 'STANDARD', VAT5: 'STANDARD', OUTPUTVAT5: 'STANDARD',
  ZR: 'ZERO_RATE', Z: 'ZERO_RATE', ZERORATED: 'ZERO_RATE', ZERORATE: 'ZERO_RATE', VAT0: 'ZERO_RATE', OUTPUTVAT0: 'ZERO_RATE',
  EX: 'EXEMPT', E: 'EXEMPT', EXEMPT: 'EXEMPT',
  RC: 'REVERSE_CHARGE', RCM: 'REVERSE_CHARGE', REVERSECHARGE: 'REVERSE_CHARGE',
  OS: 'OUT_OF_SCOPE', OOS: 'OUT_OF_SCOPE', OUTOFSCOPE: 'OUT_OF_SCOPE', NOTSUBJECT: 'OUT_OF_SCOPE',
};

/** The tax name of a ledger code ("Output VAT 5%" -> STANDARD), or undefined. */
export function taxOfLedger(ledger: string): TenantTaxName | undefined {
  return TAX_LEDGERS[ledger.toUpperCase().replace(/[^A-Z0-9]/g, '')];
}

interface ItemTax {
  name: TenantTaxName;
  /** Percent, e.g. 5. */
  percent: number;
}

/** An item's tax: its name (or the name its taxPercent implies), or the finding that stops it. */
function itemTax(item: Record<string, unknown>, i: number): ItemTax | Finding {
  const p = `items[${i}]`;
  const percent = typeof item.taxPercent === 'number' ? item.taxPercent : undefined;
  if (typeof item.taxLedger === 'string') {
    const ledgerTax = taxOfLedger(item.taxLedger);
    if (!ledgerTax) {
      return finding('unknown_tax_ledger', `${p}.taxLedger`, `${p}.taxLedger "${item.taxLedger}" is not a tax ledger this API maps: send SR (standard 5 %), ZR (zero-rated), EX (exempt), RC (reverse charge) or OS (out of scope), or a tax name in tax`);
    }
    if (typeof item.tax === 'string' && normalTaxName(item.tax) !== ledgerTax) {
      return finding('invalid_body', `${p}.taxLedger`, `${p}.taxLedger "${item.taxLedger}" means ${ledgerTax}, but tax says ${item.tax}: send one of them, or both agreeing`, 'tax_ledger_mismatch');
    }
    if (item.tax === undefined) return itemTax({ ...item, tax: ledgerTax, taxLedger: undefined }, i);
  }
  if (typeof item.tax === 'string') {
    const name = normalTaxName(item.tax);
    if (!isTaxName(name)) {
      return finding('unknown_tax', `${p}.tax`, `${p}.tax "${item.tax}" is not a tax name this API maps: send one of ${TENANT_TAX_NAMES.join(', ')}`);
    }
    const percents = TAX_NAME_PERCENTS[name];
    if (percent !== undefined && !percents.includes(percent)) {
      return finding('invalid_body', `${p}.taxPercent`, `${p}.taxPercent ${percent} does not match tax ${name}: send ${percents.join(' or ')}, or leave taxPercent out`, 'tax_percent_mismatch');
    }
    return { name, percent: percent ?? percents[0] };
  }
  if (item.tax !== undefined) return finding('invalid_body', `${p}.tax`, `${p}.tax must be a string`, 'invalid_type'); // already reported by joi
  if (percent === undefined) {
    if (item.taxPercent !== undefined) return finding('invalid_body', `${p}.taxPercent`, `${p}.taxPercent must be a number`, 'invalid_type'); // idem
    return finding('invalid_body', `${p}.tax`, `${p}.tax is required${TENANT_WORDS.requiredHints.tax}`, 'required');
  }
  if (percent === 5) return { name: 'STANDARD', percent };
  if (percent === 0) return { name: 'ZERO_RATE', percent };
  return finding('unknown_tax', `${p}.taxPercent`, `${p}.taxPercent ${percent} maps to no tax: send 5 (STANDARD) or 0 (ZERO_RATE), or a tax name (${TENANT_TAX_NAMES.join(', ')})`);
}

/** Every item's tax, adding the findings (shape or unknown_tax) to `findings`; joi's own findings are not repeated. */
function itemTaxes(body: Record<string, unknown>, findings: Finding[]): ItemTax[] {
  const items = Array.isArray(body.items) ? body.items : [];
  const reported = new Set(findings.map((f) => f.error.path));
  const taxes: ItemTax[] = [];
  items.forEach((item, i) => {
    if (!isObject(item)) return;
    const t = itemTax(item, i);
    if ('kind' in t) {
      if (!reported.has(t.error.path)) findings.push(t);
    } else taxes.push(t);
  });
  return taxes;
}

/** The internal category of a tax name (see the decisions above). */
function taxCategoryOf(name: TenantTaxName, buyerCountry: string): TenantTaxCategory {
  switch (name) {
    case 'STANDARD':
      return 'standard_5';
    case 'ZERO_RATE':
      return buyerCountry === 'AE' ? 'zero_rated_healthcare' : 'zero_rated_export';
    case 'EXEMPT':
      return 'exempt_financial';
    case 'REVERSE_CHARGE':
      return 'reverse_charge_designated_zone';
    case 'OUT_OF_SCOPE':
      return 'out_of_scope';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Addresses

/**
 * The emirate named in a free text ("Office 4, Bay Square, Business Bay, Dubai"), looking from the end (where
 * addresses name it) at runs of up to four words, so "Abu Dhabi Road, Dubai" is Dubai.
 */
export function emirateInText(text: string | undefined): EmirateCode | undefined {
  if (!text) return undefined;
  const words = text.split(/[\s,;/]+/).filter(Boolean);
  for (let end = words.length; end > 0; end--) {
    for (let size = Math.min(4, end); size > 0; size--) {
      const code = emirateCode(words.slice(end - size, end).join(' '));
      if (code) return code;
    }
  }
  return undefined;
}

const COUNTRY_WORDS = /^(uae|u\.a\.e\.?|united arab emirates)$/i;

/**
 * The alternative shape's one-string address: all of it is the street line (nothing is lost); in the UAE the
 * emirate recognised in it is the city and the emirate (PINT-AE needs both); otherwise, or when none is
 * recognised, the city is the last comma-separated part that is not the country name.
 */
export function addressFromText(text: string, country: string): PartyAddress {
  const code = country === 'AE' ? emirateInText(text) : undefined;
  if (code) return { line1: text, city: EMIRATE_NAMES[code], emirate: code };
  const parts = text.split(/[,;\n]+/).map((s) => s.trim()).filter((s) => s && !COUNTRY_WORDS.test(s));
  return { line1: text, city: parts.length > 1 ? parts[parts.length - 1] : text };
}

/** A standard-shape address; the emirate is `state`, else the one recognised in the city (UAE addresses). */
function standardAddress(a: TenantAddress, partyCountry: string): PartyAddress {
  const country = (a.country ?? partyCountry).toUpperCase();
  return compact({
    line1: a.line1 ?? '',
    line2: a.line2,
    city: a.city ?? '',
    emirate: a.state ?? (country === 'AE' ? emirateInText(a.city) : undefined),
    postalCode: a.postalCode,
    country: a.country,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Parties (rule 5: seller defaults from the registration)

/** A party as either shape gives it, before defaults. */
interface PartyInput {
  name?: string;
  legalNameArabic?: string;
  trn?: string;
  country?: string;
  email?: string;
  address?: PartyAddress;
  tradeLicenseNumber?: string;
}

/** Drops undefined fields, so drafts store (and tests compare) only what is set. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function sellerParty(p: PartyInput, tenant: TenantRegistration): InvoiceParty {
  return compact({
    name: p.name || tenant.legalName,
    legalNameArabic: p.legalNameArabic ?? tenant.legalNameArabic,
    country: p.country ?? 'AE',
    address: p.address ?? tenant.address ?? undefined,
    trn: p.trn || tenant.trn,
    tradeLicenseNumber: p.tradeLicenseNumber ?? tenant.tradeLicenseNumber ?? undefined,
  });
}

function buyerParty(p: PartyInput): InvoiceParty {
  const country = p.country ?? 'AE';
  const b2c = !p.trn && !p.tradeLicenseNumber && country === 'AE' && p.name && p.address;
  return compact({
    name: p.name ?? '',
    legalNameArabic: p.legalNameArabic || undefined,
    country,
    address: p.address,
    trn: p.trn || undefined, // '' is B2C: no TRN
    email: p.email,
    tradeLicenseNumber: p.tradeLicenseNumber,
    identifier: b2c ? customerReference({ name: p.name!, address: p.address }) : undefined,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Mapping to the internal body (documentType is set once the totals are known)

/** A client-sent amount to compare with a computed one. */
interface Claim {
  path: string;
  sent: number;
  computed: (t: InvoiceTotals) => string;
  what: string;
}

interface Mapped {
  number: string;
  invoiceType: TenantInvoiceType;
  body: InvoiceCreateBody;
  claims: Claim[];
}

const SUBTOTAL = (t: InvoiceTotals) => t.taxExclusive;
const VAT = (t: InvoiceTotals) => t.tax;
const TOTAL = (t: InvoiceTotals) => t.taxInclusive;

/** Standard-shape totals, at the top level or in `totals`, by field name. */
const STANDARD_TOTALS: Record<string, [(t: InvoiceTotals) => string, string]> = {
  subtotal: [SUBTOTAL, 'subtotal (VAT exclusive)'],
  tax: [VAT, 'VAT amount'],
  vatAmount: [VAT, 'VAT amount'],
  vat_amount: [VAT, 'VAT amount'],
  total: [TOTAL, 'total (VAT inclusive)'],
};

function standardClaims(v: TenantInvoiceInput): Claim[] {
  const claims: Claim[] = [];
  const collect = (obj: object | undefined, prefix: string) => {
    for (const [key, value] of Object.entries(obj ?? {})) {
      const known = STANDARD_TOTALS[key];
      if (known && typeof value === 'number') claims.push({ path: prefix + key, sent: value, computed: known[0], what: known[1] });
    }
  };
  collect({ subtotal: v.subtotal, vatAmount: v.vatAmount, vat_amount: v.vat_amount, total: v.total }, '');
  collect(v.totals, 'totals.');
  return claims;
}

function fromStandard(v: TenantInvoiceInput, tenant: TenantRegistration, originals: ReadonlyMap<string, ReferencedOriginal>): Mapped {
  const sellerCountry = v.seller.country ?? 'AE';
  const buyerCountry = v.buyer.country ?? 'AE';
  const seller = sellerParty({ ...v.seller, address: v.seller.address && standardAddress(v.seller.address, sellerCountry) }, tenant);
  const buyer = buyerParty({ ...v.buyer, address: v.buyer.address && standardAddress(v.buyer.address, buyerCountry) });
  const lines: InvoiceLine[] = v.lines.map((l) =>
    compact({
      description: l.description,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      vatRate: l.vatRate,
      taxCategory: l.taxCategory,
      unitOfMeasureCode: l.unit ?? DEFAULT_TENANT_UNIT,
      discountAmount: l.discountAmount,
      goodsType: l.goodsType,
      classificationCode: l.hsCode,
    }),
  );
  const note = v.invoiceType === 'credit_note' || v.invoiceType === 'debit_note';
  const body: InvoiceCreateBody = compact({
    trn: v.invoiceType === 'purchase' ? buyer.trn ?? tenant.trn : seller.trn!,
    number: v.number,
    issueDate: v.issueDate,
    dueDate: v.dueDate,
    invoiceType: v.invoiceType === 'purchase' ? ('purchase' as const) : ('sale' as const),
    precedingInvoiceNumber: note ? v.referencedInvoiceNumber : undefined,
    precedingInvoiceIssueDate: note ? (v.referencedInvoiceIssueDate ?? (v.referencedInvoiceNumber ? originals.get(v.referencedInvoiceNumber)?.issueDate : undefined)) : undefined,
    creditNoteReasonCode: v.invoiceType === 'credit_note' && v.reasonCode ? TENANT_REASON_CODE_MAP[v.reasonCode as keyof typeof TENANT_REASON_CODE_MAP] : undefined,
    currency: 'AED' as const,
    purchaseOrderReference: v.buyerReference,
    notes: v.notes,
    seller,
    buyer,
    lines,
  });
  return { number: v.number, invoiceType: v.invoiceType, body, claims: standardClaims(v) };
}

function alternativePartyInput(p: TenantAlternativeParty | undefined): PartyInput {
  const country = p?.country ?? 'AE';
  return {
    name: p?.legalName,
    legalNameArabic: p?.legalNameArabic,
    trn: p?.trn,
    country: p?.country,
    email: p?.email,
    address: p?.address ? addressFromText(p.address, country) : undefined,
    tradeLicenseNumber: p?.tradeLicenseNumber,
  };
}

function fromAlternative(v: TenantAlternativeInput, taxes: ItemTax[], tenant: TenantRegistration): Mapped {
  const seller = sellerParty(alternativePartyInput(v.seller), tenant);
  const buyer = buyerParty(alternativePartyInput(v.buyer));
  const lines: InvoiceLine[] = v.items.map((item, i) =>
    compact({
      description: item.name,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      vatRate: taxes[i].percent / 100,
      taxCategory: taxCategoryOf(taxes[i].name, buyer.country),
      unitOfMeasureCode: DEFAULT_TENANT_UNIT,
      discountAmount: item.discount,
      goodsType: item.goodsType,
      classificationCode: item.hsCode,
    }),
  );
  const claims: Claim[] = [];
  v.items.forEach((item, i) => {
    if (item.lineTotal !== undefined) {
      claims.push({ path: `items[${i}].lineTotal`, sent: item.lineTotal, computed: (t) => t.lines[i].lineExtension, what: 'line amount (quantity x unitPrice - discount, VAT exclusive)' });
    }
  });
  const t = v.totals ?? {};
  if (t.netAmount !== undefined) claims.push({ path: 'totals.netAmount', sent: t.netAmount, computed: SUBTOTAL, what: 'net amount (VAT exclusive)' });
  if (t.taxAmount !== undefined) claims.push({ path: 'totals.taxAmount', sent: t.taxAmount, computed: VAT, what: 'VAT amount' });
  if (t.grossAmount !== undefined) claims.push({ path: 'totals.grossAmount', sent: t.grossAmount, computed: TOTAL, what: 'gross amount (VAT inclusive)' });
  const body: InvoiceCreateBody = compact({
    trn: seller.trn!,
    number: v.invoiceNumber,
    issueDate: v.issueDate,
    dueDate: v.dueDate,
    invoiceType: 'sale' as const,
    currency: 'AED' as const,
    seller,
    buyer,
    lines,
  });
  return { number: v.invoiceNumber, invoiceType: 'sale', body, claims };
}

/** SPEC 7.2 totals_mismatch: a client amount more than 0.01 AED away from the computed one. */
function totalsFindings(claims: Claim[], totals: InvoiceTotals): Finding[] {
  const out: Finding[] = [];
  for (const c of claims) {
    const computed = c.computed(totals);
    if (dec(c.sent).minus(computed).abs().lte(TOLERANCE)) continue;
    out.push(
      finding(
        'totals_mismatch',
        c.path,
        `${c.path} ${c.sent} differs from the ${c.what} computed from the lines, ${computed} (tolerance 0.01 AED): send ${computed} or leave the field out`,
      ),
    );
  }
  return out;
}

/** SPEC 2.2 rule 3: which document a type becomes, and whether it is the simplified profile. */
function documentTypeOf(type: TenantInvoiceType, body: InvoiceCreateBody, totals: InvoiceTotals): { documentType: DocumentType; profile: TenantDraft['profile'] } {
  const buyerTrn = body.buyer.trn;
  if (type === 'credit_note') return { documentType: type, profile: 'standard' };
  // ibr-151-ae: a 380 document needs a line neither exempt nor out of scope; 480 is the one the rules allow.
  if (onlyExemptOrOutOfScope(body.lines)) return { documentType: 'commercial_invoice', profile: 'standard' };
  if (type === 'debit_note') return { documentType: type, profile: 'standard' };
  if (type === 'sale' && !buyerTrn && fils(totals.taxInclusive) < SIMPLIFIED_LIMIT_FILS) {
    return { documentType: 'simplified_tax_invoice', profile: 'simplified' };
  }
  return { documentType: 'tax_invoice', profile: 'standard' };
}

// ---------------------------------------------------------------------------------------------------------

/** SPEC 2.2 rule 4: the alternative shape is recognised by its own field names. */
function isAlternativeShape(body: Record<string, unknown>): boolean {
  return 'invoiceNumber' in body || 'items' in body;
}

/**
 * Reads a Tenant API invoice body (either shape) for a registered tenant: the draft in the internal model,
 * with documentType, totals and profile, or the refusal with its SPEC 7.2 code and every finding.
 */
export function readTenantInvoice(
  input: unknown,
  tenant: TenantRegistration,
  originals: ReadonlyMap<string, ReferencedOriginal> = new Map(),
): { draft: TenantDraft } | { refusal: TenantInputRefusal } {
  if (!isObject(input)) return refusal([finding('invalid_body', '', 'the body must be a JSON object (InvoiceCreateInput)', 'invalid_type')]);
  const alternative = isAlternativeShape(input);
  const { value, error } = (alternative ? tenantAlternativeInputSchema : tenantInvoiceInputSchema).validate(input, JOI_OPTIONS);
  const v = value as unknown as Record<string, unknown>;
  const findings: Finding[] = (error?.details ?? []).map((d) => ({ kind: 'invalid_body' as const, error: joiFieldError(d, 'document', TENANT_WORDS) }));
  findings.push(...buyerEqualsSeller(v, tenant));
  const taxes = alternative ? itemTaxes(v, findings) : [];
  findings.push(...arabicSellerName(v, tenant));
  // Amounts are only computable from a readable body with known taxes.
  if (findings.some((f) => f.kind === 'invalid_body' || f.kind === 'unknown_tax' || f.kind === 'unknown_tax_ledger')) return refusal(findings);

  const mapped = alternative ? fromAlternative(value as unknown as TenantAlternativeInput, taxes, tenant) : fromStandard(value as unknown as TenantInvoiceInput, tenant, originals);
  const totals = computeTotals(mapped.body);
  findings.push(...totalsFindings(mapped.claims, totals));
  if (findings.length > 0) return refusal(findings);

  const { documentType, profile } = documentTypeOf(mapped.invoiceType, mapped.body, totals);
  return {
    draft: {
      number: mapped.number,
      invoiceType: mapped.invoiceType,
      body: { ...mapped.body, documentType },
      totals: { subtotal: Number(totals.taxExclusive), tax: Number(totals.tax), total: Number(totals.taxInclusive), currency: 'AED' },
      profile,
      shape: alternative ? 'alternative' : 'standard',
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Paths of the internal body, as the tenant wrote them

/** Internal field names that the standard shape calls otherwise (the pre-submit checks name internal paths). */
const STANDARD_NAMES: readonly [RegExp, string][] = [
  [/\.unitOfMeasureCode$/, '.unit'],
  [/\.address\.emirate$/, '.address.state'],
  [/^precedingInvoiceNumber$/, 'referencedInvoiceNumber'],
  [/^precedingInvoiceIssueDate$/, 'referencedInvoiceIssueDate'],
  [/^creditNoteReasonCode$/, 'reasonCode'],
  [/^purchaseOrderReference$/, 'buyerReference'],
  [/\.discountAmount$/, '.discountAmount'],
  [/\.classificationCode$/, '.hsCode'],
];

/** The same for the alternative shape: items, invoiceNumber, a party's legalName and its one-string address. */
const ALTERNATIVE_NAMES: readonly [RegExp, string][] = [
  [/^lines\[(\d+)\]\.description$/, 'items[$1].name'],
  [/^lines\[(\d+)\]\.discountAmount$/, 'items[$1].discount'],
  [/^lines\[(\d+)\]\.(vatRate|taxCategory)$/, 'items[$1].tax'],
  [/^lines\[(\d+)\]\.classificationCode$/, 'items[$1].hsCode'],
  [/^lines(\[\d+\])?/, 'items$1'],
  [/^number$/, 'invoiceNumber'],
  [/^(seller|buyer)\.name$/, '$1.legalName'],
  [/^(seller|buyer)\.address(\..*)?$/, '$1.address'],
];

/** A pre-submit finding's path (internal body) as a path of the body the tenant sent, in either shape. */
export function tenantPathOf(path: string, shape: TenantDraft['shape']): string {
  for (const [pattern, replacement] of shape === 'alternative' ? ALTERNATIVE_NAMES : STANDARD_NAMES) {
    if (pattern.test(path)) return path.replace(pattern, replacement);
  }
  return path;
}
