// Line amounts, VAT breakdown and document totals of an invoice, in decimal arithmetic, the way
// PINT-AE checks them. Pure code.
//
// Per line:   net = quantity x unitPrice - discountAmount + chargeAmount, rounded half-up to fils
//             (IBT-131, checked by ibr-147-ae); line VAT (BTAE-08) = net x rate, rounded; BTAE-10 = net + VAT.
// Breakdown:  one subtotal per PINT-AE category (aligned-ibrp-*-01 allow only one per category here);
//             taxable = sum of the category's line nets (exact); tax = taxable x rate, rounded half-up
//             (aligned-ibrp-s-09). The document VAT is the sum of the category amounts, not of the line
//             amounts (ibr-co-14), so BTAE-08 values may differ from it by rounding, as PINT-AE allows.
// Totals:     line extension = tax exclusive = sum of nets (no document-level allowances or charges in
//             InvoiceCreateBody); tax inclusive = payable = tax exclusive + VAT.
import { dec, fmt2, fmtPlain, percentOf, round2, Decimal, ZERO } from './money';
import type { InvoiceCreateBody, InvoiceLine } from './invoice-types';
import { taxCategoryInfo, type PintTaxCode, type TaxCategoryInfo } from './tax-categories';

export interface LineAmounts {
  /** quantity x unitPrice, exact. */
  gross: Decimal;
  discount: Decimal;
  charge: Decimal;
  /** IBT-131 line net amount, 2 decimals. */
  net: Decimal;
  /** BTAE-08 line VAT amount, 2 decimals (0 for Z, O and AE; E lines carry none: `null`). */
  tax: Decimal | null;
  /** BTAE-10 line amount including VAT. */
  inclusive: Decimal;
  info: TaxCategoryInfo;
  /** The quantity and unit price exactly as they are written in the XML. */
  quantityText: string;
  priceText: string;
}

export interface CategoryBreakdown {
  code: PintTaxCode;
  /** cbc:Percent, or null where PINT-AE forbids it (E, O). */
  percent: Decimal | null;
  taxable: Decimal;
  tax: Decimal;
  /** Set when every line of the category shares one exemption reason (E). */
  exemptionReasonCode?: string;
  exemptionReason?: string;
  /** Distinct exemption reasons of the category's lines (E). */
  exemptionReasonCodes: string[];
}

export interface InvoiceAmounts {
  lines: LineAmounts[];
  breakdown: CategoryBreakdown[];
  lineExtension: Decimal;
  taxExclusive: Decimal;
  tax: Decimal;
  taxInclusive: Decimal;
  payable: Decimal;
}

/** Totals as decimal strings with two decimals (money) — the public, JSON-friendly form. */
export interface InvoiceTotals {
  currency: 'AED';
  lineExtension: string;
  taxExclusive: string;
  tax: string;
  taxInclusive: string;
  payable: string;
  breakdown: { category: PintTaxCode; percent: string | null; taxable: string; tax: string }[];
  lines: { lineExtension: string; tax: string | null; inclusive: string }[];
}

/**
 * ibr-147-ae evaluates `round(LineExtensionAmount * 100) div 100 = round((quantity * (price div
 * baseQuantity) + sum(charges) - sum(allowances)) * 100) div 100` on untyped XML values, i.e. in IEEE
 * doubles, ties rounded towards +infinity. For the rare exact half-fils line (0.5 x 10.01 = 5.005) the
 * double product sits just below the half and the official rule expects 5.00 where decimal half-up
 * gives 5.01. This reproduces the official expression so the renderer can follow it.
 */
function officialLineRound(quantityText: string, priceText: string, charges: string[], allowances: string[]): number {
  let charge = 0;
  for (const c of charges) charge += Number(c);
  let allowance = 0;
  for (const a of allowances) allowance += Number(a);
  return Math.round((Number(quantityText) * (Number(priceText) / 1) + charge - allowance) * 100) / 100;
}

const FILS = new Decimal('0.01');

export function lineAmounts(line: InvoiceLine): LineAmounts {
  const info = taxCategoryInfo(line.taxCategory);
  if (!info) throw new Error(`unsupported taxCategory ${String(line.taxCategory)} (run preSubmitCheck first)`);
  const qty = dec(line.quantity);
  const price = dec(line.unitPrice);
  const gross = qty.times(price);
  const discount = line.discountAmount ? round2(dec(line.discountAmount)) : ZERO;
  const charge = line.chargeAmount ? round2(dec(line.chargeAmount)) : ZERO;
  const quantityText = fmtPlain(qty);
  const priceText = fmtPlain(price);
  let net = round2(gross.minus(discount).plus(charge));
  const official = officialLineRound(
    quantityText,
    priceText,
    line.chargeAmount ? [fmt2(charge)] : [],
    line.discountAmount ? [fmt2(discount)] : [],
  );
  if (Math.round(net.toNumber() * 100) / 100 !== official) {
    // Only at an exact half fils: take the neighbouring fils the official rule computes.
    for (const candidate of [net.minus(FILS), net.plus(FILS)]) {
      if (Math.round(candidate.toNumber() * 100) / 100 === official) {
        net = candidate;
        break;
      }
    }
  }
  const tax = info.code === 'E' ? null : percentOf(net, info.taxPercent);
  return { gross, discount, charge, net, tax, inclusive: tax ? net.plus(tax) : net, info, quantityText, priceText };
}

/** Line amounts, breakdown and totals with Decimals (what the renderer writes). */
export function computeAmounts(body: Pick<InvoiceCreateBody, 'lines'>): InvoiceAmounts {
  const lines = body.lines.map(lineAmounts);
  const byCode = new Map<PintTaxCode, CategoryBreakdown>();
  let lineExtension = ZERO;
  for (const l of lines) {
    lineExtension = lineExtension.plus(l.net);
    let entry = byCode.get(l.info.code);
    if (!entry) {
      entry = { code: l.info.code, percent: l.info.percent, taxable: ZERO, tax: ZERO, exemptionReasonCodes: [] };
      byCode.set(l.info.code, entry);
    }
    entry.taxable = entry.taxable.plus(l.net);
    if (l.info.exemptionReasonCode && !entry.exemptionReasonCodes.includes(l.info.exemptionReasonCode)) {
      entry.exemptionReasonCodes.push(l.info.exemptionReasonCode);
      entry.exemptionReason = entry.exemptionReasonCodes.length === 1 ? l.info.exemptionReason : undefined;
    }
  }
  const breakdown = [...byCode.values()];
  let tax = ZERO;
  for (const b of breakdown) {
    const info = lines.find((l) => l.info.code === b.code)!.info;
    b.tax = percentOf(b.taxable, info.taxPercent);
    if (b.exemptionReasonCodes.length === 1) b.exemptionReasonCode = b.exemptionReasonCodes[0];
    tax = tax.plus(b.tax);
  }
  const taxInclusive = lineExtension.plus(tax);
  return { lines, breakdown, lineExtension, taxExclusive: lineExtension, tax, taxInclusive, payable: taxInclusive };
}

/** Document totals and VAT breakdown of an invoice body, as two-decimal strings. */
export function computeTotals(body: Pick<InvoiceCreateBody, 'lines'>): InvoiceTotals {
  const a = computeAmounts(body);
  return {
    currency: 'AED',
    lineExtension: fmt2(a.lineExtension),
    taxExclusive: fmt2(a.taxExclusive),
    tax: fmt2(a.tax),
    taxInclusive: fmt2(a.taxInclusive),
    payable: fmt2(a.payable),
    breakdown: a.breakdown.map((b) => ({
      category: b.code,
      percent: b.percent ? fmtPlain(b.percent) : null,
      taxable: fmt2(b.taxable),
      tax: fmt2(b.tax),
    })),
    lines: a.lines.map((l) => ({ lineExtension: fmt2(l.net), tax: l.tax ? fmt2(l.tax) : null, inclusive: fmt2(l.inclusive) })),
  };
}
