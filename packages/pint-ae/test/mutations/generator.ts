/**
 * Deterministic (seeded) mutation generator over the official PINT-AE examples: wrong totals,
 * rounding off by a fils, missing parties, bad TRNs and endpoints, wrong codes and code-list values,
 * removed mandatory elements, wrong tax category/rate combinations, missing emirate, missing
 * BTAE-08/10, wrong currency, bad dates and times, duplicated and emptied elements, and a share of
 * purely random edits. Each mutant is named after its example and the edit, so a disagreement
 * report says exactly what was changed.
 */
import Decimal from 'decimal.js';
import {
  descendants,
  duplicate,
  getAttr,
  insertAfter,
  insertChild,
  leaves,
  pathOf,
  remove,
  select,
  setAttr,
  setText,
  spans,
  textOf,
  type Span,
} from './xml-edit';

export interface Example {
  name: string;
  xml: string;
}

export interface Mutant {
  name: string;
  xml: string;
}

/** mulberry32 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** One applied edit: the new document and a human-readable description. */
type Edit = { xml: string; what: string } | null;

class Mutator {
  readonly root: Span;
  constructor(
    readonly xml: string,
    readonly random: () => number,
  ) {
    this.root = spans(xml);
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }
  /** A random element at one of `paths` (or null). */
  node(...paths: string[]): Span | null {
    const all = paths.flatMap((p) => select(this.root, p));
    return all.length ? this.pick(all) : null;
  }
  text(s: Span): string {
    return textOf(this.xml, s);
  }
  set(s: Span, value: string): Edit {
    return { xml: setText(this.xml, s, value), what: `${pathOf(s)} = ${JSON.stringify(value)}` };
  }
  del(s: Span): Edit {
    return { xml: remove(this.xml, s), what: `remove ${pathOf(s)}` };
  }
  dup(s: Span): Edit {
    return { xml: duplicate(this.xml, s), what: `duplicate ${pathOf(s)}` };
  }
  attr(s: Span, name: string, value: string | undefined): Edit {
    return { xml: setAttr(this.xml, s, name, value), what: `${pathOf(s)}/@${name} = ${value === undefined ? '(removed)' : JSON.stringify(value)}` };
  }
  after(s: Span, snippet: string): Edit {
    return { xml: insertAfter(this.xml, s, snippet), what: `after ${pathOf(s)} insert ${snippet}` };
  }
  child(s: Span, snippet: string, first = false): Edit {
    return { xml: insertChild(this.xml, s, snippet, first), what: `in ${pathOf(s)} insert ${snippet}` };
  }
  /** Adds `delta` to a decimal text, keeping at least its number of decimals. */
  shift(s: Span, delta: string): Edit {
    const t = this.text(s).trim();
    if (!/^-?\d+(\.\d+)?$/.test(t)) return null;
    const dp = Math.max((t.split('.')[1] ?? '').length, (delta.split('.')[1] ?? '').length);
    return this.set(s, new Decimal(t).plus(delta).toFixed(dp));
  }
}

const AMOUNTS = [
  'cac:LegalMonetaryTotal/cbc:LineExtensionAmount',
  'cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount',
  'cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount',
  'cac:LegalMonetaryTotal/cbc:PayableAmount',
  'cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount',
  'cac:LegalMonetaryTotal/cbc:ChargeTotalAmount',
  'cac:LegalMonetaryTotal/cbc:PayableRoundingAmount',
  '/cac:TaxTotal/cbc:TaxAmount',
  'cac:TaxSubtotal/cbc:TaxableAmount',
  'cac:TaxSubtotal/cbc:TaxAmount',
  'cac:InvoiceLine/cbc:LineExtensionAmount',
  'cac:CreditNoteLine/cbc:LineExtensionAmount',
  '/cac:AllowanceCharge/cbc:Amount',
  'cac:InvoiceLine/cac:AllowanceCharge/cbc:Amount',
  'cac:CreditNoteLine/cac:AllowanceCharge/cbc:Amount',
  'cac:Price/cbc:PriceAmount',
  'cac:ItemPriceExtension/cbc:Amount',
  'cac:ItemPriceExtension/cac:TaxTotal/cbc:TaxAmount',
];
const ANY_AMOUNT = ['cbc:LineExtensionAmount', 'cbc:TaxAmount', 'cbc:TaxableAmount', 'cbc:Amount', 'cbc:PriceAmount', 'cbc:BaseAmount', 'cbc:PayableAmount', 'cbc:TaxExclusiveAmount', 'cbc:TaxInclusiveAmount'];
const PARTIES = ['cac:AccountingSupplierParty/cac:Party', 'cac:AccountingCustomerParty/cac:Party'];
const LINES = ['/cac:InvoiceLine', '/cac:CreditNoteLine'];
const linePaths = (rest: string) => LINES.map((l) => `${l}/${rest}`);
const DATES = ['cbc:IssueDate', 'cbc:DueDate', 'cbc:TaxPointDate', 'cbc:StartDate', 'cbc:EndDate', 'cbc:ActualDeliveryDate'];

type Kind = (m: Mutator) => Edit;

/** The catalogue: every kind returns null when the example has nothing to mutate. */
export const KINDS: Record<string, Kind> = {
  'amount-fils': (m) => {
    const s = m.node(...AMOUNTS);
    return s && m.shift(s, m.pick(['0.01', '-0.01']));
  },
  'amount-unit': (m) => {
    const s = m.node(...AMOUNTS);
    return s && m.shift(s, m.pick(['1', '-1', '100']));
  },
  'amount-half-fils': (m) => {
    const s = m.node(...AMOUNTS);
    return s && m.shift(s, m.pick(['0.005', '-0.005', '0.004', '0.0049']));
  },
  'breakdown-slack': (m) => {
    const s = m.node('cac:TaxSubtotal/cbc:TaxableAmount', 'cac:TaxSubtotal/cbc:TaxAmount');
    return s && m.shift(s, m.pick(['0.02', '-0.02', '0.03', '-0.03', '0.019', '0.021']));
  },
  'amount-text': (m) => {
    const s = m.node(...ANY_AMOUNT);
    const t = s ? m.text(s).trim() : '';
    return s && m.set(s, m.pick([`${t}0`, ` ${t} `, `+${t}`, `${t}.`, '1e3', 'abc', '', '-0', `${t}.123`, '1,000.00']));
  },
  'lmt-remove-field': (m) => {
    const fields = ['LineExtensionAmount', 'TaxExclusiveAmount', 'TaxInclusiveAmount', 'PayableAmount', 'AllowanceTotalAmount', 'ChargeTotalAmount', 'PayableRoundingAmount'];
    const s = m.node(...fields.map((x) => `cac:LegalMonetaryTotal/cbc:${x}`));
    return s && m.del(s);
  },
  'lmt-prepaid': (m) => {
    const tia = m.node('cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount');
    if (!tia) return null;
    const v = m.pick(['0', '100.00', m.text(tia).trim(), '0.01']);
    return m.after(tia, `<cbc:PrepaidAmount currencyID="AED">${v}</cbc:PrepaidAmount>`);
  },
  'lmt-rounding': (m) => {
    const rounding = m.node('cac:LegalMonetaryTotal/cbc:PayableRoundingAmount');
    if (rounding) return m.pick([() => m.del(rounding), () => m.set(rounding, m.pick(['0', '0.01', '-0.05']))])();
    const tia = m.node('cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount');
    return tia && m.after(tia, `<cbc:PayableRoundingAmount currencyID="AED">${m.pick(['0.01', '0', '-0.01'])}</cbc:PayableRoundingAmount>`);
  },
  'currency-attr': (m) => {
    const s = m.node(...ANY_AMOUNT);
    return s && m.attr(s, 'currencyID', m.pick(['USD', 'XXX', 'ABC', 'aed', ' AED', undefined]));
  },
  'document-currency': (m) => {
    const s = m.node('/cbc:DocumentCurrencyCode');
    return s && m.set(s, m.pick(['USD', 'EUR', 'XYZ', 'aed', ' AED ']));
  },
  'tax-currency': (m) => {
    const s = m.node('/cbc:DocumentCurrencyCode');
    return s && m.after(s, `<cbc:TaxCurrencyCode>${m.pick(['AED', 'USD', 'XYZ'])}</cbc:TaxCurrencyCode>`);
  },
  'charge-indicator': (m) => {
    const s = m.node('cac:AllowanceCharge/cbc:ChargeIndicator');
    if (!s) return null;
    return m.pick([() => m.del(s), () => m.set(s, m.pick(['true', 'false', '1', '0', ' false ', 'TRUE', 'yes', '']))])();
  },
  'allowance-amounts': (m) => {
    const s = m.node('cac:AllowanceCharge/cbc:Amount', 'cac:AllowanceCharge/cbc:BaseAmount', 'cac:AllowanceCharge/cbc:MultiplierFactorNumeric');
    if (!s) return null;
    return m.pick([() => m.del(s), () => m.shift(s, m.pick(['0.01', '-0.01', '1'])), () => m.set(s, m.pick(['0', '2.5', '10']))])();
  },
  'allowance-reason': (m) => {
    const s = m.node('cac:AllowanceCharge/cbc:AllowanceChargeReasonCode', 'cac:AllowanceCharge/cbc:AllowanceChargeReason');
    if (!s) return null;
    return m.pick([() => m.del(s), () => m.set(s, m.pick(['999', 'ZZZ', '95', 'AAC', ''])), () => m.dup(s)])();
  },
  'allowance-category': (m) => {
    const s = m.node('/cac:AllowanceCharge/cac:TaxCategory/cbc:ID', '/cac:AllowanceCharge/cac:TaxCategory/cbc:Percent');
    if (!s) return null;
    if (s.name === 'cbc:ID') return m.set(s, m.pick(['S', 'Z', 'E', 'O', 'AE', 'N', 'X']));
    return m.pick([() => m.del(s), () => m.set(s, m.pick(['0', '5', '10', 'abc', '']))])();
  },
  'party-remove': (m) => {
    const s = m.node(
      '/cac:AccountingSupplierParty',
      '/cac:AccountingCustomerParty',
      ...PARTIES.flatMap((p) => [
        `${p}/cac:PostalAddress`,
        `${p}/cac:PartyLegalEntity`,
        `${p}/cac:PartyLegalEntity/cbc:RegistrationName`,
        `${p}/cac:PartyLegalEntity/cbc:CompanyID`,
        `${p}/cac:PartyTaxScheme`,
        `${p}/cbc:EndpointID`,
        `${p}/cac:PartyName`,
        `${p}/cac:PartyIdentification`,
      ]),
    );
    return s && m.del(s);
  },
  'endpoint-scheme': (m) => {
    const s = m.node(...PARTIES.map((p) => `${p}/cbc:EndpointID`), 'cac:PartyIdentification/cbc:ID', 'cac:PartyLegalEntity/cbc:CompanyID');
    if (!s) return null;
    const scheme = m.pick(['0088', '0007', '0192', '0184', '0208', '0201', '0210', '9907', '0211', '9906', '0151', '9999', '0235', 'SEPA', undefined]);
    const e = m.attr(s, 'schemeID', scheme);
    if (!e || m.random() < 0.4) return e;
    const values: Record<string, string[]> = {
      '0088': ['5790000435975', '5790000435976', '12345'],
      '0007': ['5567890123', '556789012X'],
      '0192': ['974760673', '974760674'],
      '0184': ['DK12345678', 'DK1234567A', 'SE12345678'],
      '0208': ['0417497106', '0417497107'],
      '0201': ['UFY9MH', 'UFY9M'],
      '0210': ['RSSMRA85T10A562S', '12345678901', '1234567890'],
      '9907': ['RSSMRA85T10A562S'],
      '0211': ['IT12345678903', 'IT12345678901', 'DE123', 'IT+2345678901'],
      '9906': ['IT12345678903'],
      '0151': ['51824753556', '51824753557'],
    };
    const vals = values[scheme ?? ''] ?? ['1234567890', '9900000098'];
    const v = m.pick(vals);
    // the attribute edit keeps element order: find the same element again by document position
    const index = [...descendants(m.root)].indexOf(s);
    const again = [...descendants(spans(e.xml))][index];
    return { xml: setText(e.xml, again, v), what: `${e.what}; value ${v}` };
  },
  'endpoint-value': (m) => {
    const s = m.node(...PARTIES.map((p) => `${p}/cbc:EndpointID`));
    return s && m.set(s, m.pick(['1234567890', '2234567890', '9900000098', '123', 'abc', ' 1987654321 ', '１２３４５６７８９０', '']));
  },
  trn: (m) => {
    const s = m.node(...PARTIES.map((p) => `${p}/cac:PartyTaxScheme/cbc:CompanyID`), 'cac:TaxRepresentativeParty/cac:PartyTaxScheme/cbc:CompanyID');
    return (
      s &&
      m.set(
        s,
        m.pick([
          '19876543210200',
          '1987654321020034',
          '298765432102003',
          '198765432102004',
          '19876543210200A',
          ' 198765432102003',
          '100000000000003',
          '1234567890',
          '2234567890',
          'AE198765432102003',
          '',
        ]),
      )
    );
  },
  'tax-scheme': (m) => {
    const s = m.node('cac:TaxScheme/cbc:ID');
    return s && m.pick([() => m.set(s, m.pick(['VAT', 'vat', ' VAT ', 'GST', 'TIN', ''])), () => m.dup(s), () => m.del(s)])();
  },
  emirate: (m) => {
    const s = m.node('cac:PostalAddress/cbc:CountrySubentity', 'cac:Address/cbc:CountrySubentity');
    return s && m.pick([() => m.del(s), () => m.set(s, m.pick(['XYZ', 'Dubai', 'dxb', 'DXB', 'AUH', 'RAK', '']))])();
  },
  country: (m) => {
    const s = m.node('cac:Country/cbc:IdentificationCode', 'cac:OriginCountry/cbc:IdentificationCode');
    return s && m.set(s, m.pick(['US', 'XX', 'ae', 'IN', 'AE', 'XI', '1A', '']));
  },
  'address-field': (m) => {
    const s = m.node('cac:PostalAddress/cbc:StreetName', 'cac:PostalAddress/cbc:CityName', 'cac:Address/cbc:StreetName', 'cac:Address/cbc:CityName', 'cac:PostalAddress/cac:Country', 'cac:PostalAddress/cac:AddressLine');
    return s && m.pick([() => m.del(s), () => m.dup(s)])();
  },
  'legal-id-type': (m) => {
    const s = m.node(...PARTIES.map((p) => `${p}/cac:PartyLegalEntity/cbc:CompanyID`));
    if (!s) return null;
    if (m.random() < 0.6) return m.attr(s, 'schemeAgencyID', m.pick(['PAS', 'TL', 'EID', 'CD', 'CL', 'XX', undefined]));
    return m.attr(s, 'schemeAgencyName', m.pick(['IN', 'XX', 'AE', 'Dubai Economy', 'in', undefined]));
  },
  'type-code': (m) => {
    const s = m.node('/cbc:InvoiceTypeCode', '/cbc:CreditNoteTypeCode');
    return s && m.set(s, m.pick(['380', '381', '389', '480', '81', '261', '999', '', ' 380']));
  },
  'payment-means': (m) => {
    const s = m.node('cac:PaymentMeans/cbc:PaymentMeansCode', '/cac:PaymentMeans', 'cac:PaymentMeans/cac:PayeeFinancialAccount');
    if (!s) return null;
    if (s.name === 'cbc:PaymentMeansCode') return m.pick([() => m.set(s, m.pick(['30', '1', '31', '999', 'ZZZ', '58', ' 30'])), () => m.attr(s, 'name', undefined)])();
    return m.pick([() => m.del(s), () => m.dup(s)])();
  },
  'credit-reason': (m) => {
    const s = m.node('cac:DiscrepancyResponse/cbc:ResponseCode', '/cac:DiscrepancyResponse', '/cac:BillingReference');
    if (!s) return null;
    if (s.name === 'cbc:ResponseCode') return m.set(s, m.pick(['DL8.61.1.Z', 'VD', '', 'DL8.61.1.A', 'dl8.61.1.a']));
    return m.del(s);
  },
  'nature-code': (m) => {
    const s = m.node('cbc:NatureCode', 'cac:CommodityClassification');
    if (!s) return null;
    return s.name === 'cbc:NatureCode' ? m.pick([() => m.del(s), () => m.set(s, m.pick(['DL8.48.8.9', 'X', 'DL8.48.3.1']))])() : m.del(s);
  },
  frequency: (m) => {
    const s = m.node('/cac:InvoicePeriod');
    if (!s) return null;
    const code = select(m.root, '/cac:InvoicePeriod/cbc:DescriptionCode')[0];
    if (code) return m.set(code, m.pick(['OTH', 'MTH', 'XYZ', '']));
    return m.child(s, `<cbc:DescriptionCode>${m.pick(['OTH', 'MTH', 'XYZ'])}</cbc:DescriptionCode>`);
  },
  'unit-code': (m) => {
    const s = m.node('cbc:InvoicedQuantity', 'cbc:CreditedQuantity', 'cac:Price/cbc:BaseQuantity');
    return s && m.attr(s, 'unitCode', m.pick(['XYZ', 'C62', 'EA', 'H87', undefined]));
  },
  'line-category': (m) => {
    const s = m.node(...linePaths('cac:Item/cac:ClassifiedTaxCategory/cbc:ID'), ...linePaths('cac:Item/cac:ClassifiedTaxCategory/cbc:Percent'), ...linePaths('cac:Item/cac:ClassifiedTaxCategory/cbc:TaxExemptionReasonCode'));
    if (!s) return null;
    if (s.name === 'cbc:ID') return m.set(s, m.pick(['S', 'Z', 'E', 'O', 'AE', 'N', 'X', ' S']));
    if (s.name === 'cbc:Percent') return m.pick([() => m.del(s), () => m.set(s, m.pick(['0', '5', '5.00', '10', 'abc', '']))])();
    return m.del(s);
  },
  'line-category-add': (m) => {
    const s = m.node(...linePaths('cac:Item/cac:ClassifiedTaxCategory'));
    if (!s) return null;
    return m.pick([
      () => m.child(s, '<cbc:Percent>5</cbc:Percent>', true),
      () => m.child(s, '<cbc:TaxExemptionReasonCode>VATEX-AE-EDU</cbc:TaxExemptionReasonCode>', true),
      () => m.dup(s),
    ])();
  },
  'breakdown-category': (m) => {
    const s = m.node('/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID', '/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent', '/cac:TaxTotal/cac:TaxSubtotal');
    if (!s) return null;
    if (s.name === 'cbc:ID') return m.set(s, m.pick(['S', 'Z', 'E', 'O', 'AE', 'N', 'X']));
    if (s.name === 'cbc:Percent') return m.pick([() => m.del(s), () => m.set(s, m.pick(['0', '5', '10', '5.000', 'abc']))])();
    return m.pick([() => m.del(s), () => m.dup(s)])();
  },
  btae: (m) => {
    const s = m.node(...linePaths('cac:ItemPriceExtension'), ...linePaths('cac:ItemPriceExtension/cbc:Amount'), ...linePaths('cac:ItemPriceExtension/cac:TaxTotal'), ...linePaths('cac:ItemPriceExtension/cac:TaxTotal/cbc:TaxAmount'));
    if (!s) return null;
    if (s.name === 'cbc:TaxAmount') return m.set(s, m.pick(['0', '0.00', '5.00', '-1']));
    return m.del(s);
  },
  'transaction-flags': (m) => {
    const s = m.node('/cbc:ProfileExecutionID');
    if (!s) return null;
    const oneHot = Array.from({ length: 8 }, (_, i) => '00000000'.slice(0, i) + '1' + '00000000'.slice(i + 1));
    return m.pick([() => m.del(s), () => m.set(s, m.pick([...oneHot, '0000000', '0000000A', '00000000 ', '11111111', '10000001', '']))])();
  },
  customization: (m) => {
    const s = m.node('/cbc:CustomizationID', '/cbc:ProfileID');
    if (!s) return null;
    if (s.name === 'cbc:CustomizationID')
      return m.pick([
        () => m.del(s),
        () =>
          m.set(
            s,
            m.pick(['urn:peppol:pint:billing-1@jp-1', 'urn:peppol:pint:billing-1@ae-1*', 'urn:peppol:pint:selfbilling-1@ae-1', 'urn:peppol:pint:billing-1@ae-1', ' urn:peppol:pint:billing-1@ae-1', '']),
          ),
      ])();
    return m.pick([() => m.del(s), () => m.set(s, m.pick(['urn:peppol:bis:selfbilling', 'urn:peppol:bis:billing', 'urn:other', '']))])();
  },
  dates: (m) => {
    const s = m.node(...DATES);
    return (
      s &&
      m.set(
        s,
        m.pick([
          '2025-02-30',
          '2025/02/06',
          '20250206',
          '2025-2-6',
          '2024-02-29',
          '2023-02-29',
          '2025-12-31Z',
          '2025-01-01+04:00',
          '2025-01-01+15:00',
          '0000-01-01',
          '10000-01-01',
          ' 2025-02-06',
          '2030-01-01',
          '2000-01-01',
        ]),
      )
    );
  },
  time: (m) => {
    const s = m.node('/cbc:IssueTime');
    const t = s ?? m.node('/cbc:IssueDate');
    if (!t) return null;
    const v = m.pick(['25:00:00', '07:54', '07:54:00Z', '24:00:00', '07:54:00.123+04:00', '7:54:00', '07:60:00', '07:54:00+14:30']);
    return s ? m.set(s, v) : m.after(t, `<cbc:IssueTime>${v}</cbc:IssueTime>`);
  },
  'period-order': (m) => {
    const s = m.node('cac:InvoicePeriod/cbc:StartDate', 'cac:InvoicePeriod/cbc:EndDate');
    return s && m.set(s, m.pick(['2025-03-31', '2024-12-01', '2025-02-07', '2025-01-30', '2025-01-31+04:00', '2025-01-31-14:00', '2025-02-06Z']));
  },
  'remove-mandatory': (m) => {
    const s = m.node(
      ...['cbc:ID', 'cbc:IssueDate', 'cbc:UUID', 'cbc:DocumentCurrencyCode', 'cbc:InvoiceTypeCode', 'cbc:CreditNoteTypeCode', 'cbc:ProfileID', 'cbc:ProfileExecutionID', 'cac:LegalMonetaryTotal', 'cac:TaxTotal', 'cbc:DueDate'].map((x) => `/${x}`),
      ...linePaths('cbc:ID'),
      ...linePaths('cac:Item/cbc:Name'),
      ...linePaths('cac:Item/cbc:Description'),
      ...linePaths('cac:Price'),
      ...linePaths('cac:Price/cbc:PriceAmount'),
      ...linePaths('cac:Price/cbc:BaseQuantity'),
      ...linePaths('cbc:InvoicedQuantity'),
      ...linePaths('cbc:CreditedQuantity'),
      ...linePaths('cbc:LineExtensionAmount'),
      ...linePaths('cac:Item/cac:ClassifiedTaxCategory'),
      ...linePaths('cac:Price/cac:AllowanceCharge'),
      ...linePaths('cac:Item'),
    );
    return s && m.del(s);
  },
  'remove-all-lines': (m) => {
    let xml = m.xml;
    const lines = [...select(m.root, '/cac:InvoiceLine'), ...select(m.root, '/cac:CreditNoteLine')];
    if (!lines.length) return null;
    for (const l of [...lines].reverse()) xml = remove(xml, l);
    return { xml, what: 'remove all lines' };
  },
  duplicate: (m) => {
    const s = m.node(
      ...['cbc:Note', 'cbc:ProfileExecutionID', 'cbc:CustomizationID', 'cbc:IssueDate', 'cac:InvoicePeriod', 'cac:Delivery', 'cac:PaymentMeans', 'cac:LegalMonetaryTotal', 'cac:TaxTotal', 'cbc:DocumentCurrencyCode', 'cbc:ProfileID', 'cbc:UUID'].map((x) => `/${x}`),
      ...linePaths('cbc:LineExtensionAmount'),
      ...linePaths('cac:Price'),
      ...linePaths('cbc:InvoicedQuantity'),
      ...linePaths('cac:Item/cac:ClassifiedTaxCategory/cbc:Percent'),
      ...linePaths('cac:Item/cac:ClassifiedTaxCategory/cbc:ID'),
      ...PARTIES.flatMap((p) => [`${p}/cac:PartyLegalEntity/cbc:RegistrationName`, `${p}/cac:PartyTaxScheme`, `${p}/cac:PartyTaxScheme/cbc:CompanyID`, `${p}/cbc:EndpointID`, `${p}/cac:PartyLegalEntity/cbc:CompanyID`]),
      'cac:TaxSubtotal/cbc:TaxableAmount',
      'cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount',
      'cac:AllowanceCharge/cbc:ChargeIndicator',
      'cac:AllowanceCharge/cbc:Amount',
    );
    return s && m.dup(s);
  },
  'empty-leaf': (m) => {
    const s = m.pick(leaves(m.root));
    return s ? m.set(s, m.pick(['', ' ', '\n\t'])) : null;
  },
  'random-remove': (m) => {
    const all = [...descendants(m.root)];
    return all.length ? m.del(m.pick(all)) : null;
  },
  'random-text': (m) => {
    const s = m.pick(leaves(m.root));
    if (!s) return null;
    const t = m.text(s);
    return m.set(s, m.pick(['0', '-1', 'abc', '1e3', ` ${t} `, `${t}0`, 'NaN', 'INF', 'true', 'S', 'AE', '5']));
  },
  'random-attribute': (m) => {
    const withAttrs = [...descendants(m.root)].filter((s) => /\s\w+\s*=/.test(m.xml.slice(s.start, s.openEnd)));
    const s = withAttrs.length ? m.pick(withAttrs) : null;
    if (!s) return null;
    const name = m.pick(['currencyID', 'schemeID', 'unitCode', 'schemeAgencyID', 'schemeAgencyName', 'listID', 'mimeCode', 'filename', 'name'].filter((a) => getAttr(m.xml, s, a) !== undefined));
    if (!name) return null;
    return m.attr(s, name, m.pick([undefined, '', 'XX', '0235', 'AED', 'HS']));
  },
  price: (m) => {
    const s = m.node('cac:Price/cbc:PriceAmount', 'cac:Price/cbc:BaseQuantity', 'cac:Price/cac:AllowanceCharge/cbc:Amount', 'cac:Price/cac:AllowanceCharge/cbc:BaseAmount');
    if (!s) return null;
    return m.pick([() => m.shift(s, m.pick(['0.01', '-0.01', '1'])), () => m.set(s, m.pick(['0', '2', '-1', '0.5']))])();
  },
  quantity: (m) => {
    const s = m.node('cbc:InvoicedQuantity', 'cbc:CreditedQuantity');
    return s && m.set(s, m.pick(['1', '-1', '0', '2000.5', '3']));
  },
  attachment: (m) => {
    const s = m.node('cbc:EmbeddedDocumentBinaryObject', '/cac:AdditionalDocumentReference');
    if (!s) return null;
    if (s.name === 'cbc:EmbeddedDocumentBinaryObject') return m.attr(s, m.pick(['mimeCode', 'filename']), m.pick([undefined, 'text/plain', 'image/png']));
    return m.pick([
      () => m.child(s, '<cbc:DocumentTypeCode>130</cbc:DocumentTypeCode>'),
      () => m.child(s, '<cbc:DocumentDescription>Description</cbc:DocumentDescription>'),
      () => m.dup(s),
    ])();
  },
  delivery: (m) => {
    const anchor = m.node('/cac:AccountingCustomerParty');
    if (!anchor) return null;
    const country = m.pick(['AE', 'IN', 'US']);
    const sub = m.pick(['<cbc:CountrySubentity>DXB</cbc:CountrySubentity>', '<cbc:CountrySubentity>Dubai</cbc:CountrySubentity>', '']);
    const street = m.pick(['<cbc:StreetName>Street</cbc:StreetName>', '']);
    return m.after(
      anchor,
      `<cac:Delivery><cbc:ActualDeliveryDate>2025-02-01</cbc:ActualDeliveryDate><cac:DeliveryLocation><cac:Address>${street}<cbc:CityName>City</cbc:CityName>${sub}<cac:Country><cbc:IdentificationCode>${country}</cbc:IdentificationCode></cac:Country></cac:Address></cac:DeliveryLocation></cac:Delivery>`,
    );
  },
  'line-document-reference': (m) => {
    const s = m.node(...linePaths('cac:Item'));
    if (!s) return null;
    const code = m.pick(['130', '130', 'abc', '50']);
    return { xml: insertAfterBefore(m.xml, s, `<cac:DocumentReference><cbc:ID schemeID="${m.pick(['AAA', 'XXX'])}">REF</cbc:ID><cbc:DocumentTypeCode>${code}</cbc:DocumentTypeCode></cac:DocumentReference>`), what: `line document reference ${code}` };
  },
  'exchange-rate': (m) => {
    const s = m.node('/cbc:DocumentCurrencyCode');
    if (!s) return null;
    const edited = setText(m.xml, s, 'USD');
    const root = spans(edited);
    const dcc = select(root, '/cbc:DocumentCurrencyCode')[0];
    const withTcc = insertAfter(edited, dcc, '<cbc:TaxCurrencyCode>AED</cbc:TaxCurrencyCode>');
    const anchor = select(spans(withTcc), '/cac:TaxTotal')[0];
    if (!anchor) return null;
    const rate = m.pick(['3.6725', '3.67250001', 'abc']);
    return {
      xml: insertAfter(withTcc, anchor, `<cac:TaxExchangeRate><cbc:SourceCurrencyCode>USD</cbc:SourceCurrencyCode><cbc:TargetCurrencyCode>AED</cbc:TargetCurrencyCode><cbc:CalculationRate>${rate}</cbc:CalculationRate></cac:TaxExchangeRate>`),
      what: `USD document with AED tax currency, rate ${rate}`,
    };
  },
  'negative-amount': (m) => {
    const s = m.node(...AMOUNTS);
    const t = s ? m.text(s).trim() : '';
    return s && m.set(s, t.startsWith('-') ? t.slice(1) : `-${t}`);
  },
  'comment-split': (m) => {
    // a comment inside a value splits it into two text nodes (text() then holds two nodes)
    const candidates = leaves(m.root).filter((l) => m.text(l).trim().length > 1);
    if (!candidates.length) return null;
    const s = m.pick(candidates);
    const t = m.text(s);
    const at = m.pick([1, t.length - 1, Math.floor(t.length / 2), 0, t.length]);
    return m.set(s, `${t.slice(0, at)}<!--c-->${t.slice(at)}`);
  },
  'cdata-or-reference': (m) => {
    const candidates = leaves(m.root).filter((l) => m.text(l).trim().length > 0 && !m.text(l).includes('<'));
    if (!candidates.length) return null;
    const s = m.pick(candidates);
    const t = m.text(s);
    return m.pick([
      () => m.set(s, `<![CDATA[${t}]]>`),
      () => m.set(s, t.replace(/[0-9A-Z]/, (c) => `&#${c.charCodeAt(0)};`)),
      () => m.set(s, t.replace(/[0-9A-Z]/, (c) => `&#x${c.charCodeAt(0).toString(16)};`)),
      () => m.set(s, `${t}<?pi x?>`),
    ])();
  },
  'foreign-element': (m) => {
    const parent = m.node('/cac:AccountingSupplierParty/cac:Party', '/cac:LegalMonetaryTotal', ...linePaths('cac:Item'), '/cac:TaxTotal');
    if (!parent) return null;
    return m.child(
      parent,
      m.pick(['<x:Extra xmlns:x="urn:example"/>', '<x:Extra xmlns:x="urn:example">value</x:Extra>', '<cbc:Note/>', '<cbc:IssueTime>10:00:00</cbc:IssueTime>', '<cac:PostalAddress><cbc:CountrySubentity>XYZ</cbc:CountrySubentity><cac:Country><cbc:IdentificationCode>AE</cbc:IdentificationCode></cac:Country></cac:PostalAddress>']),
      true,
    );
  },
  'second-tax-total': (m) => {
    const tt = m.node('/cac:TaxTotal');
    if (!tt) return null;
    const copy = m.xml.slice(tt.start, tt.end);
    const currency = m.pick(['AED', 'USD', 'EUR']);
    const amounts = copy.replace(/currencyID="[^"]*"/g, `currencyID="${currency}"`);
    const variant = m.pick([amounts, amounts.replace(/<cac:TaxSubtotal>[\s\S]*<\/cac:TaxSubtotal>/, ''), copy]);
    return m.after(tt, variant);
  },
  'prefix-rename': (m) => {
    // same document with other namespace prefixes: the rules must not depend on prefixes
    const xml = m.xml
      .replace(/(<\/?)cbc:/g, '$1b:')
      .replace(/(<\/?)cac:/g, '$1a:')
      .replace(/xmlns:cbc=/, 'xmlns:b=')
      .replace(/xmlns:cac=/, 'xmlns:a=');
    return xml === m.xml ? null : { xml, what: 'prefixes cbc/cac renamed to b/a' };
  },
  'whitespace-attribute': (m) => {
    const s = m.node('cbc:EndpointID', 'cac:PartyLegalEntity/cbc:CompanyID', 'cbc:InvoicedQuantity', 'cbc:PayableAmount');
    if (!s) return null;
    const name = ['schemeID', 'schemeAgencyID', 'unitCode', 'currencyID'].find((a) => getAttr(m.xml, s, a) !== undefined);
    return name ? m.attr(s, name, ` ${getAttr(m.xml, s, name)}`) : null;
  },
  'seller-tin': (m) => {
    const s = m.node('cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme');
    if (!s) return null;
    return m.after(s, `<cac:PartyTaxScheme><cbc:CompanyID>${m.pick(['1987654321', '198765432', 'X987654321'])}</cbc:CompanyID><cac:TaxScheme><cbc:ID>${m.pick(['TIN', 'VAT'])}</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`);
  },
};

/** Inserts a line DocumentReference at a schema-plausible place (before the line's Item). */
function insertAfterBefore(xml: string, item: Span, snippet: string): string {
  return xml.slice(0, item.start) + snippet + xml.slice(item.start);
}

export const KIND_NAMES = Object.keys(KINDS);

/**
 * `perExample` mutants for each example; the kinds rotate over the catalogue so each is used about
 * equally often, and every fifth mutant combines two edits.
 */
export function generateMutants(examples: readonly Example[], perExample: number, seed: number): Mutant[] {
  const out: Mutant[] = [];
  examples.forEach((ex, ei) => {
    for (let slot = 0; slot < perExample; slot++) {
      const random = rng(seed ^ hash(ex.name) ^ Math.imul(slot + 1, 0x9e3779b1));
      const edits = slot % 5 === 4 ? 2 : 1;
      let xml = ex.xml;
      const what: string[] = [];
      let start = (ei * perExample + slot) % KIND_NAMES.length;
      for (let e = 0; e < edits; e++) {
        for (let tries = 0; tries < KIND_NAMES.length; tries++) {
          const kind = KIND_NAMES[(start + tries) % KIND_NAMES.length];
          const edit = KINDS[kind](new Mutator(xml, random));
          if (edit && edit.xml !== xml) {
            xml = edit.xml;
            what.push(`${kind}: ${edit.what}`);
            start = (start + tries + 7) % KIND_NAMES.length;
            break;
          }
        }
      }
      if (what.length) out.push({ name: `${ex.name} #${slot} ${what.join(' + ')}`, xml });
    }
  });
  return out;
}
