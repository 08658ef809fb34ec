// Line amounts, VAT breakdown and document totals of an invoice, in exact decimal arithmetic (integer
// fils on BigInt, see money.ts), the way PINT-AE checks them. Pure code.
//
// Per line:   net = quantity x unitPrice - discountAmount + chargeAmount, rounded half-up to fils
//             (IBT-131, checked by ibr-147-ae); line VAT (BTAE-08) = net x rate, rounded; BTAE-10 = net + VAT.
// Breakdown:  one subtotal per PINT-AE category (aligned-ibrp-*-01 allow only one per category here);
//             taxable = sum of the category's line nets (exact); tax = taxable x rate, rounded half-up
//             (aligned-ibrp-s-09). The document VAT is the sum of the category amounts, not of the line
//             amounts (ibr-co-14), so BTAE-08 values may differ from it by rounding, as PINT-AE allows.
// Totals:     line extension = tax exclusive = sum of nets (no document-level allowances or charges in
//             InvoiceCreateBody); tax inclusive = payable = tax exclusive + VAT.
import { divRoundSmall, exact, fils, filsText, filsTextSmall, mulExact, numberText, percentOfFils, smallExact, toFils, type Exact } from './money';
import type { InvoiceCreateBody, InvoiceLine } from './invoice-types';
import { taxCategoryInfo, type PintTaxCode, type TaxCategoryInfo } from './tax-categories';

export interface LineAmounts {
  /** quantity x unitPrice, exact. */
  gross: Exact;
  /** Fils. */
  discount: bigint;
  charge: bigint;
  /** IBT-131 line net amount, in fils. */
  net: bigint;
  /** BTAE-08 line VAT amount in fils (0 for Z, O and AE); E lines carry none: `null`. */
  tax: bigint | null;
  /** BTAE-10 line amount including VAT, in fils. */
  inclusive: bigint;
  info: TaxCategoryInfo;
  /** The texts written into the XML. */
  quantityText: string;
  priceText: string;
  netText: string;
  taxText: string | null;
  inclusiveText: string;
  discountText: string;
  chargeText: string;
}

export interface CategoryBreakdown {
  code: PintTaxCode;
  /** cbc:Percent, or null where PINT-AE forbids it (E, O). */
  percent: string | null;
  /** Fils. */
  taxable: bigint;
  tax: bigint;
  /** Set when every line of the category shares one exemption reason (E). */
  exemptionReasonCode?: string;
  exemptionReason?: string;
  /** Distinct exemption reasons of the category's lines (E). */
  exemptionReasonCodes: string[];
}

/** Amounts in fils (bigint). */
export interface InvoiceAmounts {
  lines: LineAmounts[];
  breakdown: CategoryBreakdown[];
  lineExtension: bigint;
  taxExclusive: bigint;
  tax: bigint;
  taxInclusive: bigint;
  payable: bigint;
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
 * doubles, ties rounded towards +infinity. For the rare line whose exact amount ends in half a fils,
 * the double product can sit just below the half (7 x 0.145 = 1.0149999999999999): the official rule
 * then expects 1.01 where decimal half-up gives 1.02. This reproduces the official expression so the
 * line amount can follow it (docs/decisions/0007-exact-money.md).
 */
function officialLineRound(quantityText: string, priceText: string, chargeText: string | null, discountText: string | null): number {
  const charge = chargeText === null ? 0 : Number(chargeText);
  const allowance = discountText === null ? 0 : Number(discountText);
  return officialLineDouble(Number(quantityText), Number(priceText), charge, allowance);
}

/** The official expression on the values as doubles (what the XML texts parse to). */
function officialLineDouble(quantity: number, price: number, charge: number, allowance: number): number {
  return Math.round((quantity * (price / 1) + charge - allowance) * 100) / 100;
}

const officialLeft = (text: string) => officialLeftDouble(Number(text));
const officialLeftDouble = (value: number) => Math.round(value * 100) / 100;

/**
 * Number(text) of a plain decimal text without parsing it: units / 10^scale is one correctly
 * rounded division of two exact doubles (scale <= 22), so it is the double nearest to the decimal,
 * as Number() gives. Fils amounts are exact at scale 2.
 */
function doubleOf(units: number, scale: number): number {
  return units / 10 ** scale;
}

export function lineAmounts(line: InvoiceLine): LineAmounts {
  const info = taxCategoryInfo(line.taxCategory);
  if (!info) throw new Error(`unsupported taxCategory ${String(line.taxCategory)} (run preSubmitCheck first)`);
  const quantityText = numberText(line.quantity);
  const priceText = numberText(line.unitPrice);
  return smallLineAmounts(line, info, quantityText, priceText) ?? exactLineAmounts(line, info, quantityText, priceText);
}

/** Fils of a discount or charge on doubles (fils() rounds half-up to two decimals), if safe. */
function smallFils(value: number | undefined): number | undefined {
  if (!value) return 0;
  const e = smallExact(numberText(value));
  if (!e) return undefined;
  if (e.scale > 2) return e.scale > 24 ? undefined : divRoundSmall(e.units, 10 ** (e.scale - 2));
  const units = e.units * 10 ** (2 - e.scale);
  return Number.isSafeInteger(units) ? units : undefined;
}

/**
 * lineAmounts on doubles, the same steps as exactLineAmounts; undefined when a value does not fit a
 * safe integer (then the BigInt path runs). Checked against it on random lines (test/unit/pint-ae).
 */
export function smallLineAmounts(line: InvoiceLine, info: TaxCategoryInfo, quantityText: string, priceText: string): LineAmounts | undefined {
  const q = smallExact(quantityText);
  const p = smallExact(priceText);
  const discount = smallFils(line.discountAmount);
  const charge = smallFils(line.chargeAmount);
  if (!q || !p || discount === undefined || charge === undefined) return undefined;
  // net = round(gross - discount + charge): add the fils amounts at the gross's scale, then round.
  const grossScale = q.scale + p.scale;
  const scale = Math.max(grossScale, 2);
  if (scale > 24) return undefined; // 10^(scale - 2) must be an exact double
  const shift = 10 ** (scale - 2);
  const grossUnits = q.units * p.units;
  const scaledGross = grossUnits * 10 ** (scale - grossScale);
  const unrounded = scaledGross - discount * shift + charge * shift;
  if (![grossUnits, scaledGross, discount * shift, charge * shift, scaledGross - discount * shift, unrounded].every(Number.isSafeInteger)) return undefined;
  const discountText = discount === 0 ? '0.00' : filsTextSmall(discount);
  const chargeText = charge === 0 ? '0.00' : filsTextSmall(charge);
  let net = divRoundSmall(unrounded, shift);
  const official = officialLineDouble(doubleOf(q.units, q.scale), doubleOf(p.units, p.scale), doubleOf(line.chargeAmount ? charge : 0, 2), doubleOf(line.discountAmount ? discount : 0, 2));
  if (officialLeftDouble(doubleOf(net, 2)) !== official) {
    // Only at an exact half fils: take the neighbouring fils the official rule computes.
    for (const candidate of [net - 1, net + 1]) {
      if (officialLeftDouble(doubleOf(candidate, 2)) === official) {
        net = candidate;
        break;
      }
    }
  }
  const netText = filsTextSmall(net);
  const taxUnits = info.code === 'E' ? null : net * Number(info.taxPercent);
  if (taxUnits !== null && !Number.isSafeInteger(taxUnits)) return undefined;
  const taxFils = taxUnits === null ? null : divRoundSmall(taxUnits, 100);
  const inclusive = taxFils === null ? net : net + taxFils;
  return {
    gross: { units: BigInt(grossUnits), scale: grossScale },
    discount: BigInt(discount),
    charge: BigInt(charge),
    net: BigInt(net),
    tax: taxFils === null ? null : BigInt(taxFils),
    inclusive: BigInt(inclusive),
    info,
    quantityText,
    priceText,
    netText,
    taxText: taxFils === null ? null : filsTextSmall(taxFils),
    inclusiveText: filsTextSmall(inclusive),
    discountText,
    chargeText,
  };
}

/** lineAmounts in BigInt arithmetic: exact at any size. */
export function exactLineAmounts(line: InvoiceLine, info: TaxCategoryInfo, quantityText: string, priceText: string): LineAmounts {
  const gross = mulExact(exact(quantityText), exact(priceText));
  const discount = line.discountAmount ? fils(line.discountAmount) : 0n;
  const charge = line.chargeAmount ? fils(line.chargeAmount) : 0n;
  const discountText = discount === 0n ? '0.00' : filsText(discount);
  const chargeText = charge === 0n ? '0.00' : filsText(charge);
  // net = round(gross - discount + charge): add the fils amounts at the gross's scale, then round.
  const scale = Math.max(gross.scale, 2);
  const shift = 10n ** BigInt(scale - 2);
  const grossUnits = gross.units * 10n ** BigInt(scale - gross.scale);
  let net = toFils({ units: grossUnits - discount * shift + charge * shift, scale });
  let netText = filsText(net);
  const official = officialLineRound(quantityText, priceText, line.chargeAmount ? chargeText : null, line.discountAmount ? discountText : null);
  if (officialLeft(netText) !== official) {
    // Only at an exact half fils: take the neighbouring fils the official rule computes.
    for (const candidate of [net - 1n, net + 1n]) {
      const text = filsText(candidate);
      if (officialLeft(text) === official) {
        net = candidate;
        netText = text;
        break;
      }
    }
  }
  const tax = info.code === 'E' ? null : percentOfFils(net, info.taxPercent);
  const inclusive = tax === null ? net : net + tax;
  return {
    gross,
    discount,
    charge,
    net,
    tax,
    inclusive,
    info,
    quantityText,
    priceText,
    netText,
    taxText: tax === null ? null : filsText(tax),
    inclusiveText: filsText(inclusive),
    discountText,
    chargeText,
  };
}

/** Line amounts, breakdown and totals in fils (what the renderer writes). */
export function computeAmounts(body: Pick<InvoiceCreateBody, 'lines'>): InvoiceAmounts {
  const lines = body.lines.map(lineAmounts);
  const byCode = new Map<PintTaxCode, CategoryBreakdown & { taxPercent: bigint }>();
  let lineExtension = 0n;
  for (const l of lines) {
    lineExtension += l.net;
    let entry = byCode.get(l.info.code);
    if (!entry) {
      entry = { code: l.info.code, percent: l.info.percent, taxable: 0n, tax: 0n, exemptionReasonCodes: [], taxPercent: l.info.taxPercent };
      byCode.set(l.info.code, entry);
    }
    entry.taxable += l.net;
    if (l.info.exemptionReasonCode && !entry.exemptionReasonCodes.includes(l.info.exemptionReasonCode)) {
      entry.exemptionReasonCodes.push(l.info.exemptionReasonCode);
      entry.exemptionReason = entry.exemptionReasonCodes.length === 1 ? l.info.exemptionReason : undefined;
    }
  }
  const breakdown: CategoryBreakdown[] = [];
  let tax = 0n;
  for (const { taxPercent, ...b } of byCode.values()) {
    b.tax = percentOfFils(b.taxable, taxPercent);
    if (b.exemptionReasonCodes.length === 1) b.exemptionReasonCode = b.exemptionReasonCodes[0];
    tax += b.tax;
    breakdown.push(b);
  }
  const taxInclusive = lineExtension + tax;
  return { lines, breakdown, lineExtension, taxExclusive: lineExtension, tax, taxInclusive, payable: taxInclusive };
}

/** Document totals and VAT breakdown of an invoice body, as two-decimal strings. */
export function computeTotals(body: Pick<InvoiceCreateBody, 'lines'>): InvoiceTotals {
  const a = computeAmounts(body);
  return {
    currency: 'AED',
    lineExtension: filsText(a.lineExtension),
    taxExclusive: filsText(a.taxExclusive),
    tax: filsText(a.tax),
    taxInclusive: filsText(a.taxInclusive),
    payable: filsText(a.payable),
    breakdown: a.breakdown.map((b) => ({ category: b.code, percent: b.percent, taxable: filsText(b.taxable), tax: filsText(b.tax) })),
    lines: a.lines.map((l) => ({ lineExtension: l.netText, tax: l.taxText, inclusive: l.inclusiveText })),
  };
}
