// InvoiceCreateBody -> PINT-AE UBL 2.1 (Invoice or CreditNote). Pure code: no I/O.
//
// The mapping follows the official PINT-AE examples in ../shared/pint-ae/examples and the rules of
// both Schematron files; docs/decisions/0005-held-or-400.md and 0006-pint-ae-mapping.md record the
// choices the specification leaves open. Element order follows the UBL 2.1 schemas.
import { createHash } from 'node:crypto';
import { emirateCode, EMIRATE_NAMES } from '../domain/emirates';
import {
  addressCountry,
  buyerTrn,
  CREDIT_REASON_MAP,
  documentKind,
  involvesDesignatedZone,
  isExport,
  partyCountry,
  PINT_TRN_RE,
  sellerTrn,
  type DocumentKind,
} from '../domain/invoice-facts';
import { precedingInvoiceNumber, type FieldError, type InvoiceCreateBody, type InvoiceParty } from '../domain/invoice-types';
import { filsText } from '../domain/money';
import { preSubmitCheck } from '../domain/pre-submit';
import { goodsTypeFromHsCode } from '../domain/tax-categories';
import { computeAmounts, type CategoryBreakdown, type LineAmounts } from '../domain/totals';
import { PAYMENT_MEANS_NAMES } from './codelists';
import { NS, StringSink, Xmlbuilder2Sink, type XmlSink } from './xml-sink';

export { computeTotals, computeAmounts, type InvoiceTotals } from '../domain/totals';

export interface RenderOptions {
  /** BTAE-07 document UUID; default: a name-based UUID of seller TRN, document type, number and issue date. */
  documentUuid?: string;
  /** 'string' (default, fast) or 'xmlbuilder2' (reference serializer; identical output). */
  engine?: 'string' | 'xmlbuilder2';
  /** Skip preSubmitCheck (callers that have just run it). Default false. */
  skipChecks?: boolean;
}

/** Thrown by renderInvoice for a body that preSubmitCheck refuses. */
export class InvoiceNotRenderableError extends Error {
  constructor(
    readonly heldReason: string,
    readonly heldErrors: FieldError[],
  ) {
    super(`invoice cannot be rendered: ${heldReason} (${heldErrors.map((e) => `${e.path}: ${e.code}`).join('; ')})`);
    this.name = 'InvoiceNotRenderableError';
  }
}

/** Predefined buyer endpoints of PINT-AE (see the "predefined endpoint" examples). */
export const ENDPOINT_NO_TIN = '9900000098';
export const ENDPOINT_EXPORT = '9900000099';

// Attribute objects written on every line are constants, so StringSink reuses their text.
const AED = { currencyID: 'AED' } as const;
const HS = { listID: 'HS' } as const;
const SCHEME_0160 = { schemeID: '0160' } as const;
const UNIT_ATTRS = new Map<string, { unitCode: string }>();

function unitAttrs(unit: string): { unitCode: string } {
  let attrs = UNIT_ATTRS.get(unit);
  if (!attrs) {
    attrs = { unitCode: unit };
    if (UNIT_ATTRS.size < 1000) UNIT_ATTRS.set(unit, attrs); // bounded: callers may skip the unit check
  }
  return attrs;
}
const IBAN_RE = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;
const UUID_NAMESPACE = 'einvoice-submission-service:pint-ae:document';

/** A deterministic RFC 4122 version-5-style UUID (SHA-1) for a name. */
export function nameBasedUuid(name: string): string {
  const h = createHash('sha1').update(UUID_NAMESPACE).update('\u0000').update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** The document UUID renderInvoice uses when none is given. */
export function defaultDocumentUuid(body: InvoiceCreateBody): string {
  return nameBasedUuid([sellerTrn(body) ?? body.trn, body.documentType ?? 'tax_invoice', body.number, body.issueDate].join('|'));
}

/** The 10-digit TIN PINT-AE uses as electronic address: the first ten digits of the TRN. */
export function tinFromTrn(trn: string): string {
  return trn.slice(0, 10);
}

/** BTAE-11/BTAE-12, the trade licence's issuing authority, by the emirate of the party's address. */
export function tradeLicenceAuthority(party: InvoiceParty): string {
  const code = addressCountry(party) === 'AE' ? emirateCode(party.address?.emirate) : undefined;
  return code ? `${EMIRATE_NAMES[code]} Department of Economic Development` : 'Trade License issuing Authority';
}

function amount(sink: XmlSink, name: string, fils: bigint): void {
  sink.leaf(name, filsText(fils), AED);
}

function taxScheme(sink: XmlSink): void {
  sink.open('cac:TaxScheme');
  sink.leaf('cbc:ID', 'VAT');
  sink.close();
}

function writeAddress(
  sink: XmlSink,
  element: string,
  a: { line1?: string; line2?: string; city?: string; postalCode?: string; emirate?: string },
  country: string,
): void {
  sink.open(element);
  if (a.line1) sink.leaf('cbc:StreetName', a.line1);
  if (a.line2) sink.leaf('cbc:AdditionalStreetName', a.line2);
  if (a.city) sink.leaf('cbc:CityName', a.city);
  if (a.postalCode) sink.leaf('cbc:PostalZone', a.postalCode);
  const subentity = country === 'AE' ? emirateCode(a.emirate) : a.emirate;
  if (subentity) sink.leaf('cbc:CountrySubentity', subentity);
  sink.open('cac:Country');
  sink.leaf('cbc:IdentificationCode', country);
  sink.close();
  sink.close();
}

interface PartyPlan {
  endpoint: string;
  /** cac:PartyIdentification/cbc:ID (buyers without a TRN: ibr-135-ae). */
  identification?: string;
  trn?: string;
}

function writeParty(sink: XmlSink, party: InvoiceParty, plan: PartyPlan): void {
  sink.open('cac:Party');
  sink.leaf('cbc:EndpointID', plan.endpoint, { schemeID: '0235' });
  if (plan.identification) {
    sink.open('cac:PartyIdentification');
    sink.leaf('cbc:ID', plan.identification);
    sink.close();
  }
  writeAddress(sink, 'cac:PostalAddress', party.address ?? {}, addressCountry(party));
  if (plan.trn) {
    sink.open('cac:PartyTaxScheme');
    sink.leaf('cbc:CompanyID', plan.trn);
    taxScheme(sink);
    sink.close();
  }
  sink.open('cac:PartyLegalEntity');
  sink.leaf('cbc:RegistrationName', party.name);
  if (party.legalRegistrationType === 'PAS' && party.passportNumber) {
    sink.leaf('cbc:CompanyID', party.passportNumber, {
      schemeAgencyID: 'PAS',
      schemeAgencyName: (party.passportCountry ?? '').toUpperCase(),
    });
  } else if (party.tradeLicenseNumber) {
    sink.leaf('cbc:CompanyID', party.tradeLicenseNumber, { schemeAgencyID: 'TL', schemeAgencyName: tradeLicenceAuthority(party) });
  }
  sink.close();
  if (party.phone || party.email) {
    sink.open('cac:Contact');
    if (party.phone) sink.leaf('cbc:Telephone', party.phone);
    if (party.email) sink.leaf('cbc:ElectronicMail', party.email);
    sink.close();
  }
  sink.close();
}

function sellerPlan(body: InvoiceCreateBody): PartyPlan {
  const trn = sellerTrn(body);
  if (!trn) throw new Error('seller TRN missing (run preSubmitCheck first)');
  return { endpoint: tinFromTrn(trn), trn };
}

function buyerPlan(body: InvoiceCreateBody): PartyPlan {
  const trn = buyerTrn(body);
  const b = body.buyer;
  if (trn && PINT_TRN_RE.test(trn)) return { endpoint: tinFromTrn(trn), trn };
  if (isExport(body)) return { endpoint: ENDPOINT_EXPORT, trn };
  // ibr-135-ae: a buyer without TRN is identified by passport, trade licence, else the identifier the Tenant
  // API assigns a B2C buyer (IBT-046 has no scheme: the seller's own reference).
  const identification = b.legalRegistrationType === 'PAS' && b.passportNumber ? b.passportNumber : (b.tradeLicenseNumber ?? b.identifier);
  return { endpoint: ENDPOINT_NO_TIN, identification, trn };
}

function writeTaxCategory(sink: XmlSink, element: string, b: Pick<CategoryBreakdown, 'code' | 'percent'>, reasonCode?: string, reason?: string): void {
  sink.open(element);
  sink.leaf('cbc:ID', b.code);
  if (b.percent !== null) sink.leaf('cbc:Percent', b.percent);
  if (reasonCode) sink.leaf('cbc:TaxExemptionReasonCode', reasonCode);
  if (reason) sink.leaf('cbc:TaxExemptionReason', reason);
  taxScheme(sink);
  sink.close();
}

function writeLine(sink: XmlSink, kind: DocumentKind, body: InvoiceCreateBody, index: number, l: LineAmounts): void {
  const line = body.lines[index];
  const credit = kind.root === 'CreditNote';
  const unit = unitAttrs(line.unitOfMeasureCode ?? 'EA');
  sink.open(credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine');
  sink.leaf('cbc:ID', String(index + 1));
  sink.leaf(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', l.quantityText, unit);
  sink.leaf('cbc:LineExtensionAmount', l.netText, AED);
  if (line.discountAmount) {
    sink.open('cac:AllowanceCharge');
    sink.leaf('cbc:ChargeIndicator', 'false');
    sink.leaf('cbc:AllowanceChargeReasonCode', '95');
    sink.leaf('cbc:AllowanceChargeReason', 'Discount');
    sink.leaf('cbc:Amount', l.discountText, AED);
    sink.close();
  }
  if (line.chargeAmount) {
    sink.open('cac:AllowanceCharge');
    sink.leaf('cbc:ChargeIndicator', 'true');
    sink.leaf('cbc:AllowanceChargeReasonCode', 'ABK');
    sink.leaf('cbc:AllowanceChargeReason', 'Charge');
    sink.leaf('cbc:Amount', l.chargeText, AED);
    sink.close();
  }
  const info = l.info;
  sink.open('cac:Item');
  sink.leaf('cbc:Description', line.description);
  sink.leaf('cbc:Name', line.description);
  if (info.reverseCharge && line.classificationCode) {
    // ibr-174-ae: reverse-charge lines need an item standard identifier with scheme 0160; the body has
    // no GTIN field, so the HS code is used (docs/decisions/0006-pint-ae-mapping.md).
    sink.open('cac:StandardItemIdentification');
    sink.leaf('cbc:ID', line.classificationCode, SCHEME_0160);
    sink.close();
  }
  const goodsType = info.reverseCharge ? (line.goodsType ?? info.goodsType ?? goodsTypeFromHsCode(line.classificationCode)) : undefined;
  const goodsFlag = line.itemType === 'goods' && line.classificationCode;
  if (goodsType || line.classificationCode) {
    sink.open('cac:CommodityClassification');
    if (goodsType) sink.leaf('cbc:NatureCode', goodsType);
    if (goodsFlag) sink.leaf('cbc:CommodityCode', 'G');
    if (line.classificationCode) sink.leaf('cbc:ItemClassificationCode', line.classificationCode, HS);
    sink.close();
  }
  writeTaxCategory(sink, 'cac:ClassifiedTaxCategory', { code: info.code, percent: info.percent }, info.exemptionReasonCode, info.exemptionReason);
  sink.close();
  sink.open('cac:Price');
  sink.leaf('cbc:PriceAmount', l.priceText, AED);
  sink.leaf('cbc:BaseQuantity', '1', unit);
  // ibr-126-ae wants the gross price; with no price discount it equals the net price (aligned-ibrp-004).
  sink.open('cac:AllowanceCharge');
  sink.leaf('cbc:ChargeIndicator', 'false');
  sink.leaf('cbc:Amount', '0.00', AED);
  sink.leaf('cbc:BaseAmount', l.priceText, AED);
  sink.close();
  sink.close();
  sink.open('cac:ItemPriceExtension');
  sink.leaf('cbc:Amount', l.inclusiveText, AED);
  if (l.taxText !== null) {
    sink.open('cac:TaxTotal');
    sink.leaf('cbc:TaxAmount', l.taxText, AED);
    sink.close();
  }
  sink.close();
  sink.close();
}

function writeDocument(sink: XmlSink, body: InvoiceCreateBody, opts: RenderOptions): void {
  const kind = documentKind(body);
  const amounts = computeAmounts(body);
  const zoneFlag = involvesDesignatedZone(body);
  sink.open(kind.root, { xmlns: NS[kind.root], 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc });
  writeHeader(sink, body, kind, opts, zoneFlag);
  writeReferences(sink, body, kind);
  writeParties(sink, body, zoneFlag);
  writeDelivery(sink, body);
  writePayment(sink, body, kind);
  writeTotals(sink, amounts);
  for (let i = 0; i < amounts.lines.length; i++) writeLine(sink, kind, body, i, amounts.lines[i]);
  sink.close();
}

/** Profile, ids, dates, type code and currency. */
function writeHeader(sink: XmlSink, body: InvoiceCreateBody, kind: DocumentKind, opts: RenderOptions, zoneFlag: boolean): void {
  const credit = kind.root === 'CreditNote';
  // BTAE-02 transaction type flags: position 1 free trade zone, 8 exports; the others do not arise.
  const flags = (zoneFlag ? '1' : '0') + '000000' + (isExport(body) ? '1' : '0');
  sink.leaf('cbc:CustomizationID', kind.customizationId);
  sink.leaf('cbc:ProfileID', kind.profileId);
  sink.leaf('cbc:ProfileExecutionID', flags);
  sink.leaf('cbc:ID', body.number);
  sink.leaf('cbc:UUID', opts.documentUuid ?? defaultDocumentUuid(body));
  sink.leaf('cbc:IssueDate', body.issueDate);
  // ibr-127-ae: an invoice with an amount due needs a due date; without one, payment is due on issue.
  if (!credit) sink.leaf('cbc:DueDate', body.dueDate ?? body.issueDate);
  sink.leaf(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', kind.typeCode);
  // ibr-sr-51 allows one document note: the Tenant API's notes follow the title there (SPEC 2.2: they appear
  // in the authority-facing XML).
  sink.leaf('cbc:Note', body.notes ? `${kind.title}: ${body.notes}` : kind.title);
  sink.leaf('cbc:DocumentCurrencyCode', 'AED');
}

/** Credit reason, order, preceding invoice and contract references. */
function writeReferences(sink: XmlSink, body: InvoiceCreateBody, kind: DocumentKind): void {
  const credit = kind.root === 'CreditNote';
  if (credit && body.creditNoteReasonCode) {
    sink.open('cac:DiscrepancyResponse');
    sink.leaf('cbc:ResponseCode', CREDIT_REASON_MAP[body.creditNoteReasonCode]);
    sink.close();
  }
  if (body.purchaseOrderReference || body.salesOrderReference) {
    sink.open('cac:OrderReference');
    sink.leaf('cbc:ID', body.purchaseOrderReference ?? 'NA');
    if (body.salesOrderReference) sink.leaf('cbc:SalesOrderID', body.salesOrderReference);
    sink.close();
  }
  const preceding = precedingInvoiceNumber(body);
  if (preceding) {
    sink.open('cac:BillingReference');
    sink.open('cac:InvoiceDocumentReference');
    sink.leaf('cbc:ID', preceding);
    if (body.precedingInvoiceIssueDate) sink.leaf('cbc:IssueDate', body.precedingInvoiceIssueDate);
    sink.close();
    sink.close();
  }
  if (body.contractReference) {
    sink.open('cac:ContractDocumentReference');
    sink.leaf('cbc:ID', body.contractReference);
    sink.close();
  }
}

/** Seller, buyer and, for a free-trade-zone supply, the beneficiary. */
function writeParties(sink: XmlSink, body: InvoiceCreateBody, zoneFlag: boolean): void {
  sink.open('cac:AccountingSupplierParty');
  writeParty(sink, body.seller, sellerPlan(body));
  sink.close();
  const bPlan = buyerPlan(body);
  sink.open('cac:AccountingCustomerParty');
  writeParty(sink, body.buyer, bPlan);
  sink.close();
  if (zoneFlag) {
    // ibr-007-ae: a free-trade-zone supply names the beneficiary; here the buyer, by its TRN.
    sink.open('cac:BuyerCustomerParty');
    sink.open('cac:Party');
    sink.open('cac:PartyIdentification');
    sink.leaf('cbc:ID', bPlan.trn ?? bPlan.endpoint);
    sink.close();
    sink.close();
    sink.close();
  }
}

/** Where the goods or services go (ibr-152-ae for exports). */
function writeDelivery(sink: XmlSink, body: InvoiceCreateBody): void {
  const d = body.deliveryAddress;
  if (d) {
    sink.open('cac:Delivery');
    if (d.actualDeliveryDate) sink.leaf('cbc:ActualDeliveryDate', d.actualDeliveryDate);
    if (d.latestDeliveryDate) sink.leaf('cbc:LatestDeliveryDate', d.latestDeliveryDate);
    sink.open('cac:DeliveryLocation');
    writeAddress(sink, 'cac:Address', d, (d.country ?? partyCountry(body.buyer)).toUpperCase());
    sink.close();
    sink.close();
  }
}

/** Payment means, account and terms. */
function writePayment(sink: XmlSink, body: InvoiceCreateBody, kind: DocumentKind): void {
  const credit = kind.root === 'CreditNote';
  // ibr-191-ae: invoices need a payment means; code 1 ("instrument not defined") when none is given.
  const meansCode = body.paymentMeansCode ?? (credit ? undefined : '1');
  if (meansCode) {
    sink.open('cac:PaymentMeans');
    const name = PAYMENT_MEANS_NAMES[meansCode];
    sink.leaf('cbc:PaymentMeansCode', meansCode, name ? { name } : undefined);
    if (credit && body.dueDate) sink.leaf('cbc:PaymentDueDate', body.dueDate);
    if (body.paymentAccountIdentifier) {
      const id = body.paymentAccountIdentifier;
      const compact = id.replace(/\s+/g, '').toUpperCase();
      sink.open('cac:PayeeFinancialAccount');
      sink.leaf('cbc:ID', id, IBAN_RE.test(compact) ? { schemeID: 'IBAN' } : undefined);
      if (body.paymentAccountName) sink.leaf('cbc:Name', body.paymentAccountName);
      sink.close();
    }
    sink.close();
  }
  if (body.paymentTermsNote) {
    sink.open('cac:PaymentTerms');
    sink.leaf('cbc:Note', body.paymentTermsNote);
    sink.close();
  }
}

/** The VAT breakdown and the document totals. */
function writeTotals(sink: XmlSink, amounts: ReturnType<typeof computeAmounts>): void {
  sink.open('cac:TaxTotal');
  amount(sink, 'cbc:TaxAmount', amounts.tax);
  sink.leaf('cbc:TaxIncludedIndicator', 'false');
  for (const b of amounts.breakdown) {
    sink.open('cac:TaxSubtotal');
    amount(sink, 'cbc:TaxableAmount', b.taxable);
    amount(sink, 'cbc:TaxAmount', b.tax);
    const mixed = b.code === 'E' && b.exemptionReasonCodes.length > 1 ? 'Exempt supplies: see the exemption reason of each line' : undefined;
    writeTaxCategory(sink, 'cac:TaxCategory', b, b.exemptionReasonCode, b.exemptionReason ?? mixed);
    sink.close();
  }
  sink.close();

  sink.open('cac:LegalMonetaryTotal');
  amount(sink, 'cbc:LineExtensionAmount', amounts.lineExtension);
  amount(sink, 'cbc:TaxExclusiveAmount', amounts.taxExclusive);
  amount(sink, 'cbc:TaxInclusiveAmount', amounts.taxInclusive);
  amount(sink, 'cbc:PayableAmount', amounts.payable);
  sink.close();
}

/**
 * Renders a Partner API invoice body as PINT-AE UBL XML (Invoice, or CreditNote for credit notes).
 * Runs preSubmitCheck first (unless skipChecks) and throws InvoiceNotRenderableError for a body it
 * refuses, so no document the official rules would reject leaves this function.
 */
export function renderInvoice(body: InvoiceCreateBody, opts: RenderOptions = {}): string {
  if (!opts.skipChecks) {
    const held = preSubmitCheck(body);
    if (held) throw new InvoiceNotRenderableError(held.heldReason, held.heldErrors);
  }
  const sink = opts.engine === 'xmlbuilder2' ? new Xmlbuilder2Sink() : new StringSink();
  writeDocument(sink, body, opts);
  return sink.done();
}
