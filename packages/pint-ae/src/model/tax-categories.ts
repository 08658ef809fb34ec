// How each Partner API taxCategory maps onto PINT-AE: category code (Aligned-TaxCategoryCodes), the
// rate printed on lines and in the breakdown, the rate that computes tax, exemption reason (E only),
// reverse-charge goods type (BTAE-09, AE only). Pure data and code.
import type { ShortTaxCode, TaxCategory } from './invoice-types';
import { EXEMPTION_REASON_NAMES as EXEMPTION_REASONS, GOODS_TYPE_NAMES as GOODS_TYPES, type ExemptionReasonCode, type GoodsTypeCode } from '../codelists';

export type PintTaxCode = 'S' | 'Z' | 'E' | 'O' | 'AE';

export interface TaxCategoryInfo {
  category: TaxCategory;
  code: PintTaxCode;
  /** The cbc:Percent written on lines and in the breakdown; null: omitted (E and O must not carry one). */
  percent: string | null;
  /** The rate (percent) that computes the seller's VAT: 5 for S, 0 for everything else (AE: the buyer accounts for it). */
  taxPercent: bigint;
  /** vatRate values (decimal fractions) the client may send for this category. */
  acceptedVatRates: readonly number[];
  exemptionReasonCode?: ExemptionReasonCode;
  exemptionReason?: string;
  /** BTAE-09 goods type for reverse charge; undefined for the designated zone (derived from the HS code). */
  goodsType?: GoodsTypeCode;
  reverseCharge: boolean;
  /** Human label used in messages. */
  label: string;
}

const FIVE = '5';
const NIL = '0';

function rc(category: TaxCategory, goodsType: GoodsTypeCode | undefined, label: string): TaxCategoryInfo {
  // The official example and aligned-ibrp-ae-05-ae: the line and the breakdown carry the 5 % the buyer
  // self-accounts for; the tax amount on the invoice is 0 (aligned-ibrp-ae-09-ae, ibr-162-ae).
  return { category, code: 'AE', percent: FIVE, taxPercent: 0n, acceptedVatRates: [0.05, 0], goodsType, reverseCharge: true, label };
}

const TAX_CATEGORY_INFO: Readonly<Record<TaxCategory, TaxCategoryInfo>> = {
  standard_5: { category: 'standard_5', code: 'S', percent: FIVE, taxPercent: 5n, acceptedVatRates: [0.05], reverseCharge: false, label: 'standard rate 5 %' },
  zero_rated_export: { category: 'zero_rated_export', code: 'Z', percent: NIL, taxPercent: 0n, acceptedVatRates: [0], reverseCharge: false, label: 'zero-rated export' },
  zero_rated_healthcare: { category: 'zero_rated_healthcare', code: 'Z', percent: NIL, taxPercent: 0n, acceptedVatRates: [0], reverseCharge: false, label: 'zero-rated healthcare' },
  zero_rated_education: { category: 'zero_rated_education', code: 'Z', percent: NIL, taxPercent: 0n, acceptedVatRates: [0], reverseCharge: false, label: 'zero-rated education' },
  exempt_financial: {
    category: 'exempt_financial', code: 'E', percent: null, taxPercent: 0n, acceptedVatRates: [0], reverseCharge: false, label: 'exempt financial services',
    exemptionReasonCode: 'DL8.46.1', exemptionReason: EXEMPTION_REASONS['DL8.46.1'],
  },
  exempt_residential_rent: {
    category: 'exempt_residential_rent', code: 'E', percent: null, taxPercent: 0n, acceptedVatRates: [0], reverseCharge: false, label: 'exempt residential rent',
    exemptionReasonCode: 'DL8.46.2', exemptionReason: EXEMPTION_REASONS['DL8.46.2'],
  },
  reverse_charge_designated_zone: rc('reverse_charge_designated_zone', undefined, 'reverse charge (designated zone)'),
  reverse_charge_electronic_devices: rc('reverse_charge_electronic_devices', 'DL8.48.8.2', 'reverse charge (electronic devices)'),
  reverse_charge_gold_diamonds: rc('reverse_charge_gold_diamonds', 'DL8.48.8.1', 'reverse charge (gold and diamonds)'),
  reverse_charge_crude_or_refined_oil: rc('reverse_charge_crude_or_refined_oil', 'DL8.48.3.1', 'reverse charge (crude or refined oil)'),
  out_of_scope: { category: 'out_of_scope', code: 'O', percent: null, taxPercent: 0n, acceptedVatRates: [0], reverseCharge: false, label: 'out of scope of VAT' },
};

/** What to send instead of a short PINT-AE code. */
export const SHORT_CODE_REPLACEMENTS: Readonly<Record<ShortTaxCode, string>> = {
  S: 'standard_5',
  Z: 'zero_rated_export, zero_rated_healthcare or zero_rated_education',
  E: 'exempt_financial or exempt_residential_rent',
  O: 'out_of_scope',
  AE: 'reverse_charge_electronic_devices, reverse_charge_gold_diamonds, reverse_charge_crude_or_refined_oil or reverse_charge_designated_zone',
};

function isTaxCategory(value: unknown): value is TaxCategory {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(TAX_CATEGORY_INFO, value);
}

/** Category info for a line (default standard_5); undefined for short codes and unknown values. */
export function taxCategoryInfo(category: string | undefined): TaxCategoryInfo | undefined {
  const c = category ?? 'standard_5';
  return isTaxCategory(c) ? TAX_CATEGORY_INFO[c] : undefined;
}

/**
 * BTAE-09 for a designated-zone reverse-charge line, from its HS code. PINT-AE's GoodsType list has no
 * "designated zone" entry: the goods themselves must be one of the listed kinds. HS headings:
 * 2709/2710 crude or refined oil, 2711 natural gas, 2901 hydrocarbons, 7102 diamonds and 7108 gold,
 * 8471 computers and 8517 telephones (electronic devices).
 */
export function goodsTypeFromHsCode(hsCode: string | undefined): GoodsTypeCode | undefined {
  if (!hsCode) return undefined;
  const digits = hsCode.replace(/[^0-9]/g, '');
  const heading = digits.slice(0, 4);
  switch (heading) {
    case '2709':
    case '2710':
      return 'DL8.48.3.1';
    case '2711':
      return 'DL8.48.3.2';
    case '2901':
      return 'DL8.48.3.3';
    case '7102':
    case '7108':
      return 'DL8.48.8.1';
    case '8471':
    case '8517':
      return 'DL8.48.8.2';
    default:
      return undefined;
  }
}

export { GOODS_TYPES };
