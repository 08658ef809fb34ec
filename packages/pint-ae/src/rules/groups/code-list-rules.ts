/**
 * Code list rules: pattern Codesmodel (PINT-UBL-validation) and Codesmodelaligned
 * (PINT-jurisdiction-aligned-rules). The lists themselves are in ../../codelists.ts, extracted from
 * the official .sch by scripts/gen-rule-tables.ts.
 */
import * as CL from '../../codelists';
import * as dslModule from '../dsl';
import type { Rule } from '../engine';
import type { El } from '../xml';
import * as xpathModule from '../xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { CAC, CBC, cbc, contextIs } = dslModule;
const { normalizeSpace, someBoolInPattern, someEq } = xpathModule;

/**
 * `not(contains(normalize-space(v), ' ')) and contains(' LIST ', concat(' ', normalize-space(v), ' '))`:
 * for a single-spaced token list (checked by the generator) this is token membership.
 */
function inList(list: CL.CodeList, value: string): boolean {
  const v = normalizeSpace(value);
  return !v.includes(' ') && list.has(v);
}

const ownValue = (list: CL.CodeList) => (el: El) => inList(list, el.value);
const attribute = (name: string, list: CL.CodeList) => (el: El) => inList(list, el.attr(name) ?? '');

const AMOUNTS = [
  'Amount',
  'BaseAmount',
  'PriceAmount',
  'TaxAmount',
  'TaxableAmount',
  'LineExtensionAmount',
  'TaxExclusiveAmount',
  'TaxInclusiveAmount',
  'AllowanceTotalAmount',
  'ChargeTotalAmount',
  'PrepaidAmount',
  'PayableRoundingAmount',
  'PayableAmount',
];

const withAttr = (name: string) => (el: El) => el.attr(name) !== undefined;

/** `context[@name]`: the pattern's path parsed once, no closure made per element. */
const contextWithAttr = (context: string, name: string) => {
  const matches = contextIs(context);
  return (el: El) => matches(el) && el.attr(name) !== undefined;
};

export const codeListRules: Rule[] = [
  // ---- PINT-UBL-validation, Codesmodel
  {
    pattern: 'Codesmodel',
    seq: 1,
    context: 'cbc:InvoiceTypeCode | cbc:CreditNoteTypeCode',
    names: [cbc('InvoiceTypeCode'), cbc('CreditNoteTypeCode')],
    asserts: [
      {
        id: 'ibr-cl-01',
        test: (el, ctx) => {
          const selfbilling = ctx.profile === 'selfbilling';
          if (el.local === 'InvoiceTypeCode') return inList(selfbilling ? CL.INVOICE_TYPE_SELFBILLING : CL.INVOICE_TYPE_BILLING, el.value);
          return inList(selfbilling ? CL.CREDIT_NOTE_TYPE_SELFBILLING : CL.CREDIT_NOTE_TYPE_BILLING, el.value);
        },
      },
    ],
  },
  {
    pattern: 'Codesmodel',
    seq: 2,
    context: AMOUNTS.map((a) => `cbc:${a}`).join(' | '),
    names: AMOUNTS.map(cbc),
    asserts: [{ id: 'ibr-cl-03', test: attribute('currencyID', CL.ISO4217) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 3,
    context: 'cbc:DocumentCurrencyCode',
    names: [cbc('DocumentCurrencyCode')],
    asserts: [{ id: 'ibr-cl-04', test: ownValue(CL.ISO4217) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 4,
    context: 'cbc:TaxCurrencyCode',
    names: [cbc('TaxCurrencyCode')],
    asserts: [{ id: 'ibr-cl-05', test: ownValue(CL.ISO4217) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 5,
    context:
      "cac:AdditionalDocumentReference[cbc:DocumentTypeCode = '130']/cbc:ID[@schemeID] | cac:DocumentReference[cbc:DocumentTypeCode = '130']/cbc:ID[@schemeID]",
    names: [cbc('ID')],
    match: (el) => {
      const ref = el.parent;
      if (!ref || el.attr('schemeID') === undefined) return false;
      if (!ref.is(CAC, 'AdditionalDocumentReference') && !ref.is(CAC, 'DocumentReference')) return false;
      return someEq(ref.children(CBC, 'DocumentTypeCode'), '130');
    },
    asserts: [{ id: 'ibr-cl-07', test: attribute('schemeID', CL.UNCL1153) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 6,
    context: 'cac:PartyIdentification/cbc:ID[@schemeID]',
    names: [cbc('ID')],
    match: contextWithAttr('cac:PartyIdentification/cbc:ID', 'schemeID'),
    asserts: [
      {
        id: 'ibr-cl-10',
        test: (el) =>
          inList(CL.ICD, el.attr('schemeID') ?? '') ||
          (normalizeSpace(el.attr('schemeID') ?? '') === 'SEPA' &&
            (el.ancestor(CAC, 'AccountingSupplierParty') !== undefined || el.ancestor(CAC, 'PayeeParty') !== undefined)),
      },
    ],
  },
  {
    pattern: 'Codesmodel',
    seq: 7,
    context: 'cac:PartyLegalEntity/cbc:CompanyID[@schemeID]',
    names: [cbc('CompanyID')],
    match: contextWithAttr('cac:PartyLegalEntity/cbc:CompanyID', 'schemeID'),
    asserts: [{ id: 'ibr-cl-11', test: attribute('schemeID', CL.ICD) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 8,
    context: 'cac:CommodityClassification/cbc:ItemClassificationCode[@listID]',
    names: [cbc('ItemClassificationCode')],
    match: contextWithAttr('cac:CommodityClassification/cbc:ItemClassificationCode', 'listID'),
    asserts: [{ id: 'ibr-cl-13', test: attribute('listID', CL.UNCL7143) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 9,
    context: 'cac:Country/cbc:IdentificationCode',
    names: [cbc('IdentificationCode')],
    match: contextIs('cac:Country/cbc:IdentificationCode'),
    asserts: [{ id: 'ibr-cl-14', test: ownValue(CL.ISO3166) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 10,
    context: 'cac:OriginCountry/cbc:IdentificationCode',
    names: [cbc('IdentificationCode')],
    match: contextIs('cac:OriginCountry/cbc:IdentificationCode'),
    asserts: [{ id: 'ibr-cl-15', test: ownValue(CL.ISO3166) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 11,
    context: 'cac:PaymentMeans/cbc:PaymentMeansCode',
    names: [cbc('PaymentMeansCode')],
    match: contextIs('cac:PaymentMeans/cbc:PaymentMeansCode'),
    asserts: [{ id: 'ibr-cl-16', test: ownValue(CL.UNCL4461) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 12,
    context: 'cac:AllowanceCharge[cbc:ChargeIndicator = false()]/cbc:AllowanceChargeReasonCode',
    names: [cbc('AllowanceChargeReasonCode')],
    match: (el) => !!el.parent && el.parent.is(CAC, 'AllowanceCharge') && someBoolInPattern(el.parent.children(CBC, 'ChargeIndicator'), false),
    asserts: [{ id: 'ibr-cl-19', test: ownValue(CL.UNCL5189) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 13,
    context: 'cac:AllowanceCharge[cbc:ChargeIndicator = true()]/cbc:AllowanceChargeReasonCode',
    names: [cbc('AllowanceChargeReasonCode')],
    match: (el) => !!el.parent && el.parent.is(CAC, 'AllowanceCharge') && someBoolInPattern(el.parent.children(CBC, 'ChargeIndicator'), true),
    asserts: [{ id: 'ibr-cl-20', test: ownValue(CL.UNCL7161) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 14,
    context: 'cac:StandardItemIdentification/cbc:ID[@schemeID]',
    names: [cbc('ID')],
    match: contextWithAttr('cac:StandardItemIdentification/cbc:ID', 'schemeID'),
    asserts: [{ id: 'ibr-cl-21', test: attribute('schemeID', CL.ICD) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 15,
    context: 'cbc:InvoicedQuantity[@unitCode] | cbc:BaseQuantity[@unitCode] | cbc:CreditedQuantity[@unitCode]',
    names: [cbc('InvoicedQuantity'), cbc('BaseQuantity'), cbc('CreditedQuantity')],
    match: withAttr('unitCode'),
    asserts: [{ id: 'ibr-cl-23', test: attribute('unitCode', CL.UNECE_REC20) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 16,
    context: 'cbc:EmbeddedDocumentBinaryObject[@mimeCode]',
    names: [cbc('EmbeddedDocumentBinaryObject')],
    match: withAttr('mimeCode'),
    // compared with '=' one by one: exact strings, no normalisation
    asserts: [{ id: 'ibr-cl-24', test: (el) => CL.MIME_CODE.has(el.attr('mimeCode')!) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 17,
    context: 'cbc:EndpointID[@schemeID]',
    names: [cbc('EndpointID')],
    match: withAttr('schemeID'),
    asserts: [{ id: 'ibr-cl-25', test: attribute('schemeID', CL.EAS) }],
  },
  {
    pattern: 'Codesmodel',
    seq: 18,
    context: 'cac:DeliveryLocation/cbc:ID[@schemeID]',
    names: [cbc('ID')],
    match: contextWithAttr('cac:DeliveryLocation/cbc:ID', 'schemeID'),
    asserts: [{ id: 'ibr-cl-26', test: attribute('schemeID', CL.ICD) }],
  },

  // ---- PINT-jurisdiction-aligned-rules, Codesmodelaligned
  {
    pattern: 'Codesmodelaligned',
    seq: 1,
    context: 'cac:DiscrepancyResponse/cbc:ResponseCode',
    names: [cbc('ResponseCode')],
    match: contextIs('cac:DiscrepancyResponse/cbc:ResponseCode'),
    asserts: [{ id: 'ibr-001-ae', test: ownValue(CL.CREDIT_REASON) }],
  },
  {
    pattern: 'Codesmodelaligned',
    seq: 2,
    context: "cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID[@schemeAgencyID='PAS']/@schemeAgencyName",
    names: [],
    neverFires: 'attribute context: the compiled XSLT applies templates to elements only (apply-templates select="*")',
    asserts: [{ id: 'ibr-011-ae', test: (el) => inList(CL.ISO3166, el.value) }],
  },
  {
    pattern: 'Codesmodelaligned',
    seq: 3,
    context: "cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID[@schemeAgencyID='PAS']/@schemeAgencyName",
    names: [],
    neverFires: 'attribute context: the compiled XSLT applies templates to elements only (apply-templates select="*")',
    asserts: [{ id: 'ibr-013-ae', test: (el) => inList(CL.ISO3166, el.value) }],
  },
  {
    pattern: 'Codesmodelaligned',
    seq: 4,
    context: 'cac:InvoicePeriod/cbc:DescriptionCode',
    names: [cbc('DescriptionCode')],
    match: contextIs('cac:InvoicePeriod/cbc:DescriptionCode'),
    asserts: [{ id: 'ibr-005-ae', test: ownValue(CL.FREQ_BILLING) }],
  },
  {
    pattern: 'Codesmodelaligned',
    seq: 5,
    context: 'cac:TaxCategory/cbc:ID | cac:ClassifiedTaxCategory/cbc:ID',
    names: [cbc('ID')],
    match: contextIs('cac:TaxCategory/cbc:ID', 'cac:ClassifiedTaxCategory/cbc:ID'),
    asserts: [{ id: 'ibr-139-ae', test: ownValue(CL.TAX_CATEGORY) }],
  },
  {
    pattern: 'Codesmodelaligned',
    seq: 6,
    context: 'cbc:NatureCode',
    names: [cbc('NatureCode')],
    asserts: [{ id: 'ibr-006-ae', test: ownValue(CL.GOODS_TYPE) }],
  },
];

