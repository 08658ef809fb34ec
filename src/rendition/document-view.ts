// The PINT-AE XML (the document as delivered) read into what a person needs to see. Amounts stay the
// XML's decimal strings: the rendition prints what was delivered, it never recomputes. Pure code.
import { PAYMENT_MEANS_NAMES, EXEMPTION_REASON_NAMES, GOODS_TYPE_NAMES } from '@einvoice/pint-ae';
import { at, child, children, readXml, textAt, textOf, XmlParseError, type XmlElement } from './xml-tree';
import { ServiceError } from '../domain/errors';
import { CREDIT_REASONS, DOCUMENT_TYPES, TRANSACTION_FLAGS, type Bilingual } from './labels';

export interface AddressView {
  lines: string[];
  city?: string;
  postalZone?: string;
  /** Emirate code (AUH, DXB, ...) or another country's subdivision. */
  subentity?: string;
  country?: string;
}

export interface PartyView {
  legalName?: string;
  tradeNames: string[];
  /** The Arabic legal name: from the XML when a name there is in Arabic script, else from the invoice record. */
  arabicName?: string;
  arabicNameFromRecord: boolean;
  trn?: string;
  endpoint?: { scheme?: string; id: string };
  identifiers: { scheme?: string; id: string }[];
  registration?: { id: string; type?: string; authority?: string };
  legalForm?: string;
  address?: AddressView;
  contact: string[];
}

export interface AllowanceChargeView {
  charge: boolean;
  amount: string;
  reason?: string;
  reasonCode?: string;
  percent?: string;
  baseAmount?: string;
  taxCategory?: string;
  taxPercent?: string;
}

export interface LineView {
  id: string;
  name?: string;
  description?: string;
  note?: string;
  quantity: string;
  unitCode?: string;
  price?: string;
  baseQuantity?: string;
  grossPrice?: string;
  priceDiscount?: string;
  allowancesCharges: AllowanceChargeView[];
  net: string;
  taxCategory?: string;
  taxPercent?: string;
  exemptionReason?: string;
  /** BTAE-09 goods type of a reverse-charge line, with its name. */
  goodsType?: string;
  /** BTAE-08 line VAT and BTAE-10 line amount including VAT. */
  vat?: string;
  amountInclVat?: string;
  sellerItemId?: string;
  period?: string;
}

export interface VatBreakdownView {
  category: string;
  percent?: string;
  taxable: string;
  tax: string;
  exemptionReason?: string;
}

export interface PaymentMeansView {
  code?: string;
  name?: string;
  paymentId?: string;
  account?: string;
  accountName?: string;
  institution?: string;
  card?: string;
  mandate?: string;
}

export interface ReferenceView {
  key: 'purchaseOrder' | 'salesOrder' | 'precedingInvoice' | 'buyerReference' | 'contract' | 'project' | 'despatch' | 'receipt' | 'creditReason';
  value: string;
}

export interface DeliveryEvidence {
  submissionId?: string | null;
  ackRef?: string | null;
  documentSha256?: string | null;
  /** Status changes at the ASP, oldest first. */
  statuses?: { status: string; at: string }[];
}

export interface DocumentView {
  root: 'Invoice' | 'CreditNote';
  typeCode: string;
  title: Bilingual;
  selfBilling: boolean;
  number: string;
  uuid?: string;
  issueDate?: string;
  issueTime?: string;
  dueDate?: string;
  taxPointDate?: string;
  period?: string;
  currency: string;
  taxCurrency?: string;
  /** BTAE-02 as delivered, and the positions set, said in words. */
  transactionFlags?: string;
  transactionTypes: Bilingual[];
  references: ReferenceView[];
  seller: PartyView;
  buyer: PartyView;
  payee?: PartyView;
  taxRepresentative?: PartyView;
  deliveryDate?: string;
  deliveryAddress?: AddressView;
  lines: LineView[];
  allowancesCharges: AllowanceChargeView[];
  vatBreakdown: VatBreakdownView[];
  vatTotal?: string;
  vatTotalAccounting?: { amount: string; currency: string };
  totals: {
    lineExtension?: string;
    allowanceTotal?: string;
    chargeTotal?: string;
    taxExclusive?: string;
    taxInclusive?: string;
    prepaid?: string;
    rounding?: string;
    payable?: string;
  };
  paymentMeans: PaymentMeansView[];
  paymentTerms: string[];
  notes: string[];
  evidence?: DeliveryEvidence;
}

/** What the invoice record adds to the XML: the Arabic legal names (the XML carries none) and the delivery evidence. */
export interface RenditionExtras {
  arabicNames?: { seller?: string | null; buyer?: string | null };
  evidence?: DeliveryEvidence | null;
}

/** The kind of a document this module cannot read: not XML, or not a UBL Invoice / CreditNote. */
export const UNREADABLE_DOCUMENT = 'unreadable_document';

function unreadable(detail: string): ServiceError {
  return new ServiceError(400, UNREADABLE_DOCUMENT, 'Unreadable document', detail);
}

const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;

export function hasArabic(s: string): boolean {
  return ARABIC.test(s);
}

function address(el: XmlElement | undefined): AddressView | undefined {
  if (!el) return undefined;
  const lines = [textAt(el, 'StreetName'), textAt(el, 'AdditionalStreetName'), ...children(el, 'AddressLine').map((a) => textAt(a, 'Line'))].filter(
    (s): s is string => !!s,
  );
  return { lines, city: textAt(el, 'CityName'), postalZone: textAt(el, 'PostalZone'), subentity: textAt(el, 'CountrySubentity'), country: textAt(el, 'Country', 'IdentificationCode') };
}

function party(p: XmlElement | undefined, recordArabic?: string | null): PartyView {
  const legal = child(p, 'PartyLegalEntity');
  const names = children(p, 'PartyName').map((n) => textAt(n, 'Name')).filter((s): s is string => !!s);
  const legalName = textAt(legal, 'RegistrationName');
  const all = [legalName, ...names].filter((s): s is string => !!s);
  const arabicInXml = all.find(hasArabic);
  const endpointEl = child(p, 'EndpointID');
  const regEl = child(legal, 'CompanyID');
  const contactEl = child(p, 'Contact');
  const recordName = recordArabic?.trim();
  const shownLegal = legalName && !hasArabic(legalName) ? legalName : (all.find((s) => !hasArabic(s)) ?? legalName);
  return {
    legalName: shownLegal,
    tradeNames: names.filter((n) => n !== shownLegal && !hasArabic(n)),
    arabicName: arabicInXml ?? (recordName || undefined),
    arabicNameFromRecord: !arabicInXml && !!recordName,
    trn: children(p, 'PartyTaxScheme').map((t) => textAt(t, 'CompanyID')).find((s) => !!s),
    endpoint: endpointEl && textOf(endpointEl) ? { scheme: endpointEl.attr('schemeID'), id: textOf(endpointEl)! } : undefined,
    identifiers: children(p, 'PartyIdentification')
      .map((i) => child(i, 'ID'))
      .filter((i): i is XmlElement => !!textOf(i))
      .map((i) => ({ scheme: i.attr('schemeID'), id: textOf(i)! })),
    registration: regEl && textOf(regEl) ? { id: textOf(regEl)!, type: regEl.attr('schemeAgencyID'), authority: regEl.attr('schemeAgencyName') } : undefined,
    legalForm: textAt(legal, 'CompanyLegalForm'),
    address: address(child(p, 'PostalAddress')),
    contact: [textAt(contactEl, 'Name'), textAt(contactEl, 'Telephone'), textAt(contactEl, 'ElectronicMail')].filter((s): s is string => !!s),
  };
}

function allowanceCharge(el: XmlElement): AllowanceChargeView {
  return {
    charge: textAt(el, 'ChargeIndicator') === 'true',
    amount: textAt(el, 'Amount') ?? '0',
    reason: textAt(el, 'AllowanceChargeReason'),
    reasonCode: textAt(el, 'AllowanceChargeReasonCode'),
    percent: textAt(el, 'MultiplierFactorNumeric'),
    baseAmount: textAt(el, 'BaseAmount'),
    taxCategory: textAt(el, 'TaxCategory', 'ID'),
    taxPercent: textAt(el, 'TaxCategory', 'Percent'),
  };
}

function exemption(cat: XmlElement | undefined): string | undefined {
  const code = textAt(cat, 'TaxExemptionReasonCode');
  const reason = textAt(cat, 'TaxExemptionReason') ?? (code ? (EXEMPTION_REASON_NAMES as Record<string, string>)[code] : undefined);
  if (code && reason) return `${code}: ${reason}`;
  return reason ?? code;
}

function periodText(el: XmlElement | undefined): string | undefined {
  const start = textAt(el, 'StartDate');
  const end = textAt(el, 'EndDate');
  if (!start && !end) return undefined;
  return `${start ?? ''} – ${end ?? ''}`.trim();
}

function line(el: XmlElement, qtyName: string): LineView {
  const item = child(el, 'Item');
  const cat = child(item, 'ClassifiedTaxCategory');
  const price = child(el, 'Price');
  const priceAc = child(price, 'AllowanceCharge');
  const qty = child(el, qtyName);
  const ext = child(el, 'ItemPriceExtension');
  const goods = children(item, 'CommodityClassification').map((c) => textAt(c, 'NatureCode')).find((s) => !!s);
  const goodsName = goods ? (GOODS_TYPE_NAMES as Record<string, string>)[goods] : undefined;
  return {
    id: textAt(el, 'ID') ?? '',
    name: textAt(item, 'Name'),
    description: textAt(item, 'Description'),
    note: textAt(el, 'Note'),
    quantity: textOf(qty) ?? '',
    unitCode: qty?.attr('unitCode'),
    price: textAt(price, 'PriceAmount'),
    baseQuantity: textAt(price, 'BaseQuantity'),
    grossPrice: textAt(priceAc, 'BaseAmount'),
    priceDiscount: textAt(priceAc, 'Amount'),
    allowancesCharges: children(el, 'AllowanceCharge').map(allowanceCharge),
    net: textAt(el, 'LineExtensionAmount') ?? '0',
    taxCategory: textAt(cat, 'ID'),
    taxPercent: textAt(cat, 'Percent'),
    exemptionReason: exemption(cat),
    goodsType: goods ? (goodsName ? `${goods} ${goodsName}` : goods) : undefined,
    vat: textAt(ext, 'TaxTotal', 'TaxAmount'),
    amountInclVat: textAt(ext, 'Amount'),
    sellerItemId: textAt(item, 'SellersItemIdentification', 'ID'),
    period: periodText(child(el, 'InvoicePeriod')),
  };
}

function references(doc: XmlElement): ReferenceView[] {
  const out: ReferenceView[] = [];
  const push = (key: ReferenceView['key'], value: string | undefined) => {
    if (value) out.push({ key, value });
  };
  for (const d of children(doc, 'DiscrepancyResponse')) {
    const code = textAt(d, 'ResponseCode');
    const words = code ? CREDIT_REASONS[code] : undefined;
    push('creditReason', [code, words?.en, textAt(d, 'Description')].filter(Boolean).join(' — ') || undefined);
  }
  push('purchaseOrder', textAt(doc, 'OrderReference', 'ID'));
  push('salesOrder', textAt(doc, 'OrderReference', 'SalesOrderID'));
  for (const b of children(doc, 'BillingReference')) {
    const r = child(b, 'InvoiceDocumentReference') ?? child(b, 'CreditNoteDocumentReference');
    const id = textAt(r, 'ID');
    const date = textAt(r, 'IssueDate');
    push('precedingInvoice', id ? (date ? `${id} (${date})` : id) : undefined);
  }
  push('buyerReference', textAt(doc, 'BuyerReference'));
  push('contract', textAt(doc, 'ContractDocumentReference', 'ID'));
  push('project', textAt(doc, 'ProjectReference', 'ID'));
  push('despatch', textAt(doc, 'DespatchDocumentReference', 'ID'));
  push('receipt', textAt(doc, 'ReceiptDocumentReference', 'ID'));
  return out;
}

function paymentMeans(el: XmlElement): PaymentMeansView {
  const codeEl = child(el, 'PaymentMeansCode');
  const code = textOf(codeEl);
  const acct = child(el, 'PayeeFinancialAccount');
  const card = child(el, 'CardAccount');
  const cardText = card ? [textAt(card, 'NetworkID'), textAt(card, 'PrimaryAccountNumberID'), textAt(card, 'HolderName')].filter(Boolean).join(' ') : undefined;
  return {
    code,
    name: codeEl?.attr('name') ?? (code ? PAYMENT_MEANS_NAMES[code] : undefined),
    paymentId: textAt(el, 'PaymentID'),
    account: textAt(acct, 'ID'),
    accountName: textAt(acct, 'Name'),
    institution: textAt(acct, 'FinancialInstitutionBranch', 'ID'),
    card: cardText || undefined,
    mandate: textAt(el, 'PaymentMandate', 'ID'),
  };
}

/** Reads a delivered PINT-AE Invoice or CreditNote. Throws a ServiceError unreadable_document when it is neither. */
export function documentView(xml: string, extras: RenditionExtras = {}): DocumentView {
  let doc: XmlElement;
  try {
    doc = readXml(xml);
  } catch (err) {
    if (err instanceof XmlParseError) throw unreadable(`The document is not well-formed XML: ${err.message}.`);
    throw err;
  }
  if (doc.local !== 'Invoice' && doc.local !== 'CreditNote') {
    throw unreadable(`The root element is <${doc.local}>; a PINT-AE document is a UBL <Invoice> or <CreditNote>.`);
  }
  const root = doc.local;
  const credit = root === 'CreditNote';
  const typeCode = textAt(doc, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode') ?? '';
  const customization = textAt(doc, 'CustomizationID') ?? '';
  const flags = textAt(doc, 'ProfileExecutionID');
  const taxTotals = children(doc, 'TaxTotal');
  const currency = textAt(doc, 'DocumentCurrencyCode') ?? 'AED';
  // The VAT total with the breakdown is in the document currency; a second one, if any, in the tax currency.
  const mainTax = taxTotals.find((t) => child(t, 'TaxAmount')?.attr('currencyID') === currency) ?? taxTotals[0];
  const otherTax = taxTotals.find((t) => t !== mainTax);
  const totals = child(doc, 'LegalMonetaryTotal');
  const lineName = credit ? 'CreditNoteLine' : 'InvoiceLine';
  const qtyName = credit ? 'CreditedQuantity' : 'InvoicedQuantity';
  const delivery = child(doc, 'Delivery');
  const ev = extras.evidence ?? undefined;
  return {
    root,
    typeCode,
    title: DOCUMENT_TYPES[typeCode] ?? (credit ? DOCUMENT_TYPES['381'] : DOCUMENT_TYPES['380']),
    selfBilling: customization.includes('selfbilling'),
    number: textAt(doc, 'ID') ?? '',
    uuid: textAt(doc, 'UUID'),
    issueDate: textAt(doc, 'IssueDate'),
    issueTime: textAt(doc, 'IssueTime'),
    dueDate: textAt(doc, 'DueDate') ?? textAt(doc, 'PaymentMeans', 'PaymentDueDate'),
    taxPointDate: textAt(doc, 'TaxPointDate'),
    period: periodText(child(doc, 'InvoicePeriod')),
    currency,
    taxCurrency: textAt(doc, 'TaxCurrencyCode'),
    transactionFlags: flags,
    transactionTypes: flags ? TRANSACTION_FLAGS.filter((_, i) => flags[i] === '1') : [],
    references: references(doc),
    seller: party(at(doc, 'AccountingSupplierParty', 'Party'), extras.arabicNames?.seller),
    buyer: party(at(doc, 'AccountingCustomerParty', 'Party'), extras.arabicNames?.buyer),
    payee: child(doc, 'PayeeParty') ? party(child(doc, 'PayeeParty')) : undefined,
    taxRepresentative: child(doc, 'TaxRepresentativeParty') ? party(child(doc, 'TaxRepresentativeParty')) : undefined,
    deliveryDate: textAt(delivery, 'ActualDeliveryDate'),
    deliveryAddress: address(at(delivery, 'DeliveryLocation', 'Address')),
    lines: children(doc, lineName).map((l) => line(l, qtyName)),
    allowancesCharges: children(doc, 'AllowanceCharge').map(allowanceCharge),
    vatBreakdown: children(mainTax, 'TaxSubtotal').map((s) => ({
      category: textAt(s, 'TaxCategory', 'ID') ?? '',
      percent: textAt(s, 'TaxCategory', 'Percent'),
      taxable: textAt(s, 'TaxableAmount') ?? '0',
      tax: textAt(s, 'TaxAmount') ?? '0',
      exemptionReason: exemption(child(s, 'TaxCategory')),
    })),
    vatTotal: textAt(mainTax, 'TaxAmount'),
    vatTotalAccounting: otherTax && textAt(otherTax, 'TaxAmount') ? { amount: textAt(otherTax, 'TaxAmount')!, currency: child(otherTax, 'TaxAmount')!.attr('currencyID') ?? '' } : undefined,
    totals: {
      lineExtension: textAt(totals, 'LineExtensionAmount'),
      allowanceTotal: textAt(totals, 'AllowanceTotalAmount'),
      chargeTotal: textAt(totals, 'ChargeTotalAmount'),
      taxExclusive: textAt(totals, 'TaxExclusiveAmount'),
      taxInclusive: textAt(totals, 'TaxInclusiveAmount'),
      prepaid: textAt(totals, 'PrepaidAmount'),
      rounding: textAt(totals, 'PayableRoundingAmount'),
      payable: textAt(totals, 'PayableAmount'),
    },
    paymentMeans: children(doc, 'PaymentMeans').map(paymentMeans),
    paymentTerms: children(doc, 'PaymentTerms').map((t) => textAt(t, 'Note')).filter((s): s is string => !!s),
    notes: children(doc, 'Note').map(textOf).filter((s): s is string => !!s),
    evidence: ev && (ev.submissionId || ev.ackRef || ev.documentSha256 || ev.statuses?.length) ? ev : undefined,
  };
}
