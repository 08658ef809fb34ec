// Pre-submit checks: business rules that put an invoice on hold (201 with status held, heldReason and
// heldErrors) instead of queueing it. They cover what SPEC 2.1 requires beyond the shape, and every
// input from which the renderer would otherwise produce a document the official PINT-AE Schematron
// rejects with a fatal finding (the rule id is named in each message). Pure code.
import { ISO3166 as COUNTRY_CODES, PASSPORT_COUNTRY as PASSPORT_COUNTRY_CODES, UNECE_REC20 as UNIT_CODES } from '../codelists';
import { emirateCode, EMIRATE_HINT } from './emirates';
import {
  addressCountry,
  buyerTrn,
  documentKind,
  hasReverseCharge,
  partyCountry,
  PINT_TRN_RE,
  sellerTrn,
  smeRole,
  type DocumentKind,
} from './invoice-facts';
import { precedingInvoiceNumber, type FieldError, type InvoiceCreateBody, type InvoiceLine, type InvoiceParty } from './invoice-types';
import { decimalPlaces } from './money';
import { goodsTypeFromHsCode, SHORT_CODE_REPLACEMENTS, taxCategoryInfo } from './tax-categories';
import { lineAmounts } from './totals';

export interface HeldResult {
  heldReason: string;
  heldErrors: FieldError[];
}

class Findings {
  readonly list: FieldError[] = [];
  private readonly seen = new Set<string>();
  add(code: string, path: string, message: string): void {
    const key = code + ' ' + path;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ code, path, message });
  }
}

const TRN_FORMAT = 'a UAE TRN has 15 digits, starts with 1 and ends with 03 (PINT-AE ibr-132-ae)';
const BUYER_ID_HINT =
  'send buyer.trn; for a buyer without a TRN send buyer.tradeLicenseNumber, or legalRegistrationType "PAS" with passportNumber and passportCountry';

function isFiniteNumber(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

function checkParty(f: Findings, body: InvoiceCreateBody, role: 'seller' | 'buyer'): void {
  const party: InvoiceParty | undefined = body[role];
  if (!party) {
    f.add('required', role, `${role} is required`);
    return;
  }
  const country = partyCountry(party);
  if (!COUNTRY_CODES.has(country)) {
    f.add('invalid_country', `${role}.country`, `${role}.country "${party.country}" is not an ISO 3166-1 alpha-2 code: send e.g. "AE"`);
  }
  const address = party.address;
  if (!address) {
    f.add('address_required', `${role}.address`, `${role}.address is required: send {line1, city, emirate} (PINT-AE ibr-143-ae/ibr-144-ae need street, city and emirate)`);
  } else {
    if (address.country) {
      const ac = address.country.toUpperCase();
      if (!COUNTRY_CODES.has(ac)) {
        f.add('invalid_country', `${role}.address.country`, `${role}.address.country "${address.country}" is not an ISO 3166-1 alpha-2 code`);
      } else if (ac !== country) {
        f.add('country_mismatch', `${role}.address.country`, `${role}.address.country (${ac}) differs from ${role}.country (${country}): send the same country in both, or leave address.country out`);
      }
    }
    if (addressCountry(party) === 'AE') {
      if (!address.emirate) {
        f.add('emirate_required', `${role}.address.emirate`, `${role}.address.emirate is required for a UAE address: ${EMIRATE_HINT}`);
      } else if (!emirateCode(address.emirate)) {
        f.add('invalid_emirate', `${role}.address.emirate`, `${role}.address.emirate "${address.emirate}" is not an emirate PINT-AE accepts: ${EMIRATE_HINT}`);
      }
    } else if (!address.emirate) {
      f.add(
        'region_required',
        `${role}.address.emirate`,
        `${role}.address.emirate is required: for an address outside the UAE send its state, province or region there (PINT-AE ibr-143-ae/ibr-144-ae need a country subdivision; where a country has none, repeat the city)`,
      );
    }
  }
  const type = party.legalRegistrationType ?? 'TIN';
  if (type === 'PAS') {
    if (!party.passportNumber) {
      f.add('passport_number_required', `${role}.passportNumber`, `${role}.passportNumber is required when legalRegistrationType is PAS`);
    }
    if (!party.passportCountry) {
      f.add('passport_country_required', `${role}.passportCountry`, `${role}.passportCountry is required when legalRegistrationType is PAS: send the ISO 3166-1 alpha-2 code of the issuing country`);
    } else if (!PASSPORT_COUNTRY_CODES.has(party.passportCountry.toUpperCase())) {
      f.add('invalid_passport_country', `${role}.passportCountry`, `${role}.passportCountry "${party.passportCountry}" is not an ISO 3166-1 alpha-2 country code (PINT-AE ibr-010-ae/ibr-012-ae)`);
    }
  }
  if (party.trn && country === 'AE' && !PINT_TRN_RE.test(party.trn)) {
    f.add('invalid_trn', `${role}.trn`, `${role}.trn "${party.trn}" is not a valid TRN: ${TRN_FORMAT}`);
  }
}

function checkLine(f: Findings, line: InvoiceLine, i: number, typeCode: string): void {
  const p = `lines[${i}]`;
  const raw = line.taxCategory ?? 'standard_5';
  const info = taxCategoryInfo(raw);
  if (!info) {
    const replacement = SHORT_CODE_REPLACEMENTS[raw as keyof typeof SHORT_CODE_REPLACEMENTS];
    f.add(
      'short_tax_code',
      `${p}.taxCategory`,
      replacement
        ? `${p}.taxCategory "${raw}" is a PINT-AE short code, which this API does not accept: send ${replacement}`
        : `${p}.taxCategory "${raw}" is not a tax category`,
    );
  }
  const rate = line.vatRate;
  if (!isFiniteNumber(rate)) {
    f.add('invalid_vat_rate', `${p}.vatRate`, `${p}.vatRate must be a number: a decimal fraction such as 0.05`);
  } else if (rate > 1) {
    f.add('vat_rate_percent', `${p}.vatRate`, `${p}.vatRate ${rate} looks like a percentage: vatRate is a decimal fraction, send ${rate / 100} (0.05 means 5 %)`);
  } else if (rate < 0) {
    f.add('invalid_vat_rate', `${p}.vatRate`, `${p}.vatRate must not be negative: send a decimal fraction between 0 and 1, such as 0.05`);
  } else if (info && !info.acceptedVatRates.includes(rate)) {
    f.add(
      'vat_rate_mismatch',
      `${p}.vatRate`,
      `${p}.vatRate ${rate} does not match taxCategory ${info.category} (${info.label}): send ${info.acceptedVatRates.join(' or ')}`,
    );
  }

  let amountsOk = true;
  if (!isFiniteNumber(line.quantity) || line.quantity <= 0) {
    f.add('invalid_quantity', `${p}.quantity`, `${p}.quantity must be greater than 0 (credit and debit notes also carry positive quantities)`);
    amountsOk = false;
  }
  if (!isFiniteNumber(line.unitPrice) || line.unitPrice < 0) {
    f.add('negative_unit_price', `${p}.unitPrice`, `${p}.unitPrice must be 0 or more (PINT-AE ibr-027); express reductions with discountAmount`);
    amountsOk = false;
  }
  for (const field of ['discountAmount', 'chargeAmount'] as const) {
    const v = line[field];
    if (v === undefined) continue;
    if (!isFiniteNumber(v) || v < 0) {
      f.add('negative_amount', `${p}.${field}`, `${p}.${field} must be an absolute amount of 0 or more`);
      amountsOk = false;
    } else if (decimalPlaces(v) > 2) {
      f.add('too_many_decimals', `${p}.${field}`, `${p}.${field} must be in AED with at most 2 decimals (fils)`);
      amountsOk = false;
    }
  }
  if (amountsOk && info) {
    if (line.discountAmount && lineAmounts(line).net < 0n) {
      f.add('discount_exceeds_line_amount', `${p}.discountAmount`, `${p}.discountAmount is larger than quantity x unitPrice + chargeAmount: the line amount would be negative`);
    }
  }
  const unit = line.unitOfMeasureCode ?? 'EA';
  if (!UNIT_CODES.has(unit)) {
    f.add('invalid_unit_code', `${p}.unitOfMeasureCode`, `${p}.unitOfMeasureCode "${unit}" is not a UN/ECE Recommendation 20 code (PINT-AE ibr-cl-23): send e.g. EA, H87, HUR, KGM, LTR, MTR or SET`);
  }
  if (!info) return;
  if ((typeCode === '480' || typeCode === '81') && (info.code === 'S' || info.code === 'AE')) {
    f.add(
      'tax_category_not_allowed',
      `${p}.taxCategory`,
      `${p}.taxCategory ${info.category} is not allowed on a ${typeCode === '480' ? 'commercial invoice' : 'credit note for out-of-scope supplies'}: only zero-rated, exempt and out-of-scope lines are (PINT-AE ibr-122-ae); use documentType tax_invoice for taxable supplies`,
    );
  }
  if (info.reverseCharge) {
    if (!line.classificationCode) {
      f.add(
        'classification_code_required',
        `${p}.classificationCode`,
        `${p}.classificationCode is required on a reverse-charge line: send the HS code of the goods (PINT-AE ibr-174-ae needs an item standard identifier on reverse-charge lines)`,
      );
    } else if (info.category === 'reverse_charge_designated_zone' && !line.goodsType && !goodsTypeFromHsCode(line.classificationCode)) {
      f.add(
        'goods_type_unknown',
        `${p}.classificationCode`,
        `${p}.classificationCode "${line.classificationCode}" does not identify goods PINT-AE lists for the reverse charge (BTAE-09, ibr-006-ae: electronic devices HS 8471/8517, gold and diamonds HS 7102/7108, oil, gas and hydrocarbons HS 2709/2710/2711/2901)`,
      );
    }
  }
}

/**
 * Business checks of a shape-valid body. Returns null when the invoice may be queued, else the
 * held reason and the errors with their JSON paths (in this order: document, payment, parties, delivery, lines).
 */
export function preSubmitCheck(body: InvoiceCreateBody): HeldResult | null {
  const f = new Findings();
  const kind = documentKind(body);
  const lines = Array.isArray(body.lines) ? body.lines : [];
  checkDocument(f, body, kind);
  checkPayment(f, body);
  checkParties(f, body, kind);
  checkDelivery(f, body, lines);
  checkLines(f, lines, kind);
  if (f.list.length === 0) return null;
  const codes = new Set(f.list.map((e) => e.code));
  return { heldReason: codes.size === 1 ? f.list[0].code : 'pre_submit_validation_failed', heldErrors: f.list };
}


/** Currency, the supplier TRN's form, and what a credit or debit note must say about the invoice it adjusts. */
function checkDocument(f: Findings, body: InvoiceCreateBody, kind: DocumentKind): void {
  if (body.currency !== 'AED') {
    f.add('unsupported_currency', 'currency', 'only AED is accepted: send currency "AED" with amounts in AED');
  }
  if (typeof body.trn === 'string' && !PINT_TRN_RE.test(body.trn)) {
    f.add('invalid_trn', 'trn', `trn "${body.trn}" is not a valid TRN: ${TRN_FORMAT}`);
  }

  if (kind.needsPrecedingInvoice) {
    const what = body.documentType === 'debit_note' ? 'a debit note' : 'a credit note';
    if (!precedingInvoiceNumber(body)) {
      f.add('preceding_invoice_required', 'precedingInvoiceNumber', `precedingInvoiceNumber is required for ${what}: send the number of the invoice it adjusts`);
    }
    if (!body.precedingInvoiceIssueDate) {
      f.add('preceding_invoice_date_required', 'precedingInvoiceIssueDate', `precedingInvoiceIssueDate is required for ${what}: send the issue date (YYYY-MM-DD) of the invoice it adjusts`);
    }
  }
  if (body.precedingInvoiceNumber && body.precedingInvoiceReference && body.precedingInvoiceNumber !== body.precedingInvoiceReference) {
    f.add('preceding_invoice_conflict', 'precedingInvoiceReference', 'precedingInvoiceReference (deprecated) differs from precedingInvoiceNumber: send only precedingInvoiceNumber');
  }
  if (body.documentType === 'credit_note' && !body.creditNoteReasonCode) {
    f.add(
      'credit_note_reason_required',
      'creditNoteReasonCode',
      'creditNoteReasonCode is required for a credit note: send 01 (cancellation), 02 (correction), 03 (discount), 04 (return of goods) or 05 (other)',
    );
  }
}

/** Payment means and account go together (ibr-192-ae). */
function checkPayment(f: Findings, body: InvoiceCreateBody): void {
  if (body.paymentMeansCode === '30' && !body.paymentAccountIdentifier) {
    f.add('payment_account_required', 'paymentAccountIdentifier', 'paymentAccountIdentifier is required with paymentMeansCode 30 (credit transfer): send the IBAN or account number (PINT-AE ibr-192-ae)');
  }
  if (body.paymentAccountIdentifier && !body.paymentMeansCode) {
    f.add('payment_means_required', 'paymentMeansCode', 'paymentMeansCode is required when paymentAccountIdentifier is set: send e.g. 30 (credit transfer)');
  }
}

/** Seller and buyer: addresses, TRNs, legal registrations. */
function checkParties(f: Findings, body: InvoiceCreateBody, kind: DocumentKind): void {
  checkParty(f, body, 'seller');
  checkParty(f, body, 'buyer');

  const role = smeRole(body);
  const sme = body[role];
  if (sme?.trn && body.trn && sme.trn !== body.trn) {
    f.add('trn_mismatch', `${role}.trn`, `${role}.trn differs from trn: the ${role} of a ${body.invoiceType ?? 'sale'} is your SME, whose TRN is trn; send the same value or leave ${role}.trn out`);
  }
  if (body.seller && !sellerTrn(body)) {
    f.add('trn_required', 'seller.trn', "seller.trn is required: PINT-AE needs the seller's TRN (ibr-134-ae) and derives its electronic address (TIN) from it");
  }
  if (body.seller) {
    const s = body.seller;
    if ((s.legalRegistrationType ?? 'TIN') === 'TIN' && !s.tradeLicenseNumber) {
      f.add(
        'trade_license_required',
        'seller.tradeLicenseNumber',
        'seller.tradeLicenseNumber is required: PINT-AE needs the seller legal registration (ibr-150-ae); a seller registered by passport sends legalRegistrationType "PAS" with passportNumber and passportCountry instead',
      );
    }
  }
  if (body.buyer) {
    const b = body.buyer;
    const pas = (b.legalRegistrationType ?? 'TIN') === 'PAS';
    const bTrn = buyerTrn(body);
    if (!bTrn && partyCountry(b) === 'AE' && !pas && !b.tradeLicenseNumber && !b.identifier) {
      f.add('trn_required', 'buyer.trn', `buyer.trn is required for a UAE buyer (PINT-AE ibr-135-ae needs a buyer identifier): ${BUYER_ID_HINT}`);
    }
    if (!bTrn && hasReverseCharge(body)) {
      f.add('trn_required', 'buyer.trn', 'buyer.trn is required on a reverse-charge invoice: the buyer accounts for the VAT under its TRN (PINT-AE ibr-103-ae)');
    }
    if ((kind.typeCode === '480' || kind.typeCode === '81') && !pas && !b.tradeLicenseNumber) {
      f.add(
        'legal_registration_required',
        'buyer.tradeLicenseNumber',
        `buyer.tradeLicenseNumber is required on a ${kind.typeCode === '480' ? 'commercial invoice' : 'credit note for exempt or out-of-scope supplies'} (PINT-AE ibr-136-ae needs the buyer legal registration); a buyer registered by passport sends legalRegistrationType "PAS" with passportNumber and passportCountry`,
      );
    }
  }
}

/** Delivery (SPEC 2.1 DeliveryAddress; PINT-AE ibr-152-ae for exports). */
function checkDelivery(f: Findings, body: InvoiceCreateBody, lines: InvoiceLine[]): void {
  const exportedGoods = lines.some((l) => l?.taxCategory === 'zero_rated_export' && l?.itemType === 'goods');
  const buyerAbroad = body.buyer ? partyCountry(body.buyer) !== 'AE' : false;
  const d = body.deliveryAddress;
  if (!d) {
    if (buyerAbroad) {
      f.add('delivery_address_required', 'deliveryAddress', 'deliveryAddress is required on an export invoice (buyer.country is not AE): send where the goods or services are delivered, with line1, city, emirate (state or region) and country');
    } else if (exportedGoods) {
      f.add('delivery_address_required', 'deliveryAddress', 'deliveryAddress is required when zero-rated export goods are invoiced: send the delivery address outside the UAE (line1, city, emirate as state or region, country)');
    }
  } else {
    const dc = (d.country ?? body.buyer?.country ?? 'AE').toUpperCase();
    if (!COUNTRY_CODES.has(dc)) {
      f.add('invalid_country', 'deliveryAddress.country', `deliveryAddress.country "${d.country}" is not an ISO 3166-1 alpha-2 code`);
    }
    if (dc === 'AE') {
      if (d.emirate && !emirateCode(d.emirate)) {
        f.add('invalid_emirate', 'deliveryAddress.emirate', `deliveryAddress.emirate "${d.emirate}" is not an emirate: ${EMIRATE_HINT}`);
      }
    } else {
      for (const field of ['line1', 'city', 'emirate'] as const) {
        if (!d[field]) {
          f.add(
            'delivery_address_incomplete',
            `deliveryAddress.${field}`,
            `deliveryAddress.${field} is required for a delivery outside the UAE (PINT-AE ibr-152-ae needs street, city and country subdivision)${field === 'emirate' ? ': send the state, province or region' : ''}`,
          );
        }
      }
    }
  }
}

/** Each line, then the document as a whole needs one taxable line (ibr-151-ae). */
function checkLines(f: Findings, lines: InvoiceLine[], kind: DocumentKind): void {
  lines.forEach((line, i) => {
    if (line && typeof line === 'object') checkLine(f, line, i, kind.typeCode);
    else f.add('invalid_type', `lines[${i}]`, `lines[${i}] must be an invoice line object`);
  });

  if (lines.length > 0 && kind.typeCode === '380' && lines.every((l) => ['E', 'O'].includes(taxCategoryInfo(l?.taxCategory)?.code ?? ''))) {
    f.add(
      'no_taxable_line',
      'lines',
      `lines: a ${kind.title.toLowerCase()} needs at least one line that is not exempt or out of scope (PINT-AE ibr-151-ae): for exempt or out-of-scope supplies only, send documentType commercial_invoice`,
    );
  }
}
