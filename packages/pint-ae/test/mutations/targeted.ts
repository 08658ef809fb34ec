/**
 * Rule-directed mutations: one or a few per official rule that random mutation rarely reaches
 * (scheme check digits, cardinalities, tax representative, payee, UAE transaction flags, commodity
 * codes, per-category allowance/charge rates...). Each is a short list of text edits on a named
 * official example; the expected outcome is never stored: the official Schematron decides at test time.
 */
import type { Example, Mutant } from './generator';
import { duplicate, insertAfter, insertChild, remove, select, setAttr, setText, spans } from './xml-edit';

/** [op, path(#k = k-th match, default first), ...args] */
type Op =
  | ['set', string, string]
  | ['del', string]
  | ['dup', string]
  | ['attr', string, string, string | null]
  | ['in', string, string]
  | ['first', string, string]
  | ['after', string, string];

interface Target {
  name: string;
  /** substring of the example's relative path */
  example: string;
  ops: Op[];
}

const EXT = 'Standard.invoice.-.Extensive';
const STD = 'billing/inv/Standard tax invoice';
const CN = 'billing/cn/Standard tax credit Note';
const RC = 'Supply under Reverse charge';
const EXPORT = 'billing/inv/Exports.xml';
const MAND = 'Standard invoice Mandatory fields';
const SELLER = '/cac:AccountingSupplierParty/cac:Party';
const BUYER = '/cac:AccountingCustomerParty/cac:Party';
const LINE = '/cac:InvoiceLine';
const SUMMARY = 'Summary tax invoice';
const ZERO_RATED = '<cac:ClassifiedTaxCategory><cbc:ID>Z</cbc:ID><cbc:Percent>0</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>';
const flags = (position: number) => '00000000'.slice(0, position - 1) + '1' + '00000000'.slice(position);

const scheme = (scheme: string, value: string): Target => ({
  name: `endpoint ${scheme} ${value}`,
  example: STD,
  ops: [
    ['attr', `${SELLER}/cbc:EndpointID`, 'schemeID', scheme],
    ['set', `${SELLER}/cbc:EndpointID`, value],
  ],
});

export const TARGETS: Target[] = [
  // identifier schemes (ibr-068 .. ibr-120), valid and invalid values
  scheme('0088', '5790000435975'),
  scheme('0088', '5790000435976'),
  scheme('0007', '5567890123'),
  scheme('0007', '55678901'),
  scheme('0192', '974760673'),
  scheme('0192', '974760674'),
  scheme('0184', 'DK12345678'),
  scheme('0184', 'DK1234567X'),
  scheme('0208', '0417497106'),
  scheme('0208', '0417497107'),
  scheme('0201', 'UFY9MH'),
  scheme('0201', 'UFY-MH'),
  scheme('0210', 'RSSMRA85T10A562S'),
  scheme('9907', 'RSSMRA85T1XA562S'),
  scheme('0211', 'IT12345678903'),
  scheme('9906', 'IT12345678901'),
  scheme('0151', '51824753556'),
  scheme('0151', '51824753557'),
  { name: 'party identification 0088 bad GLN', example: EXT, ops: [['attr', '/cac:PayeeParty/cac:PartyIdentification/cbc:ID', 'schemeID', '0088']] },
  { name: 'legal id 0192', example: EXT, ops: [['attr', `${BUYER}/cac:PartyLegalEntity/cbc:CompanyID`, 'schemeID', '0192']] },
  // allowances and charges
  { name: 'doc allowance without reason', example: EXT, ops: [['del', '/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode'], ['del', '/cac:AllowanceCharge/cbc:AllowanceChargeReason']] },
  { name: 'doc charge without reason', example: EXT, ops: [['del', '/cac:AllowanceCharge#3/cbc:AllowanceChargeReasonCode'], ['del', '/cac:AllowanceCharge#3/cbc:AllowanceChargeReason']] },
  { name: 'doc charge without amount', example: EXT, ops: [['del', '/cac:AllowanceCharge#3/cbc:Amount']] },
  { name: 'doc allowance two reasons', example: EXT, ops: [['dup', '/cac:AllowanceCharge/cbc:AllowanceChargeReason']] },
  { name: 'doc charge two reasons', example: EXT, ops: [['dup', '/cac:AllowanceCharge#3/cbc:AllowanceChargeReason']] },
  { name: 'line allowance without reason', example: EXT, ops: [['del', `${LINE}/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode`], ['del', `${LINE}/cac:AllowanceCharge/cbc:AllowanceChargeReason`]] },
  { name: 'line charge without reason', example: EXT, ops: [['del', `${LINE}/cac:AllowanceCharge#2/cbc:AllowanceChargeReasonCode`], ['del', `${LINE}/cac:AllowanceCharge#2/cbc:AllowanceChargeReason`]] },
  { name: 'line allowance without amount', example: EXT, ops: [['del', `${LINE}/cac:AllowanceCharge/cbc:Amount`]] },
  { name: 'line charge without amount', example: EXT, ops: [['del', `${LINE}/cac:AllowanceCharge#2/cbc:Amount`]] },
  { name: 'allowance tax category two exemption reasons', example: 'Doc-level-allowance-E-category', ops: [['in', '/cac:AllowanceCharge/cac:TaxCategory', '<cbc:TaxExemptionReason>a</cbc:TaxExemptionReason><cbc:TaxExemptionReason>b</cbc:TaxExemptionReason>']] },
  { name: 'doc allowance without tax category', example: EXT, ops: [['del', '/cac:AllowanceCharge/cac:TaxCategory']] },
  { name: 'doc charge without tax category', example: EXT, ops: [['del', '/cac:AllowanceCharge#3/cac:TaxCategory']] },
  { name: 'doc allowance factor without base', example: EXT, ops: [['del', '/cac:AllowanceCharge/cbc:BaseAmount']] },
  { name: 'doc charge factor without base', example: EXT, ops: [['del', '/cac:AllowanceCharge#3/cbc:BaseAmount']] },
  { name: 'doc allowance category N', example: EXT, ops: [['set', '/cac:AllowanceCharge/cac:TaxCategory/cbc:ID', 'N']] },
  { name: 'doc charge category N', example: EXT, ops: [['set', '/cac:AllowanceCharge#3/cac:TaxCategory/cbc:ID', 'N']] },
  { name: 'doc charge category E without reason code', example: EXT, ops: [['set', '/cac:AllowanceCharge#3/cac:TaxCategory/cbc:ID', 'E'], ['del', '/cac:AllowanceCharge#3/cbc:AllowanceChargeReasonCode']] },
  { name: 'doc charge category S rate 0', example: EXT, ops: [['set', '/cac:AllowanceCharge#3/cac:TaxCategory/cbc:Percent', '0']] },
  { name: 'doc allowance category E rate 5', example: 'Doc-level-allowance-E-category', ops: [['first', '/cac:AllowanceCharge/cac:TaxCategory', '<cbc:Percent>5</cbc:Percent>']] },
  { name: 'doc charge category E rate 5', example: 'Doc-level-charge-E-category', ops: [['first', '/cac:AllowanceCharge/cac:TaxCategory', '<cbc:Percent>5</cbc:Percent>']] },
  { name: 'doc allowance category Z rate 5', example: 'Doc-level-allowance-Z-category', ops: [['set', '/cac:AllowanceCharge/cac:TaxCategory/cbc:Percent', '5']] },
  { name: 'doc charge category Z rate 5', example: 'Doc-level-charge-Z-category', ops: [['set', '/cac:AllowanceCharge/cac:TaxCategory/cbc:Percent', '5']] },
  { name: 'doc allowance category O with rate', example: 'Doc-level-allowance-O-category', ops: [['first', '/cac:AllowanceCharge/cac:TaxCategory', '<cbc:Percent>0</cbc:Percent>']] },
  { name: 'doc charge category O with rate', example: 'Doc-level-charge-O-category', ops: [['first', '/cac:AllowanceCharge/cac:TaxCategory', '<cbc:Percent>0</cbc:Percent>']] },
  { name: 'doc allowance category AE rate 5', example: 'Doc-level-allowance-AE-category', ops: [['set', '/cac:AllowanceCharge/cac:TaxCategory/cbc:Percent', '5']] },
  { name: 'doc allowance category AE rate blank', example: 'Doc-level-allowance-AE-category', ops: [['set', '/cac:AllowanceCharge/cac:TaxCategory/cbc:Percent', ' ']] },
  { name: 'doc charge category AE rate missing', example: 'Doc-level-charge-AE-category', ops: [['del', '/cac:AllowanceCharge/cac:TaxCategory/cbc:Percent']] },
  { name: 'price allowance as charge', example: STD, ops: [['set', `${LINE}/cac:Price/cac:AllowanceCharge/cbc:ChargeIndicator`, 'true']] },
  { name: 'price base amount negative', example: STD, ops: [['set', `${LINE}/cac:Price/cac:AllowanceCharge/cbc:BaseAmount`, '-5']] },
  { name: 'price without base quantity', example: STD, ops: [['del', `${LINE}/cac:Price/cbc:BaseQuantity`]] },
  { name: 'price base quantity unit differs', example: STD, ops: [['attr', `${LINE}/cac:Price/cbc:BaseQuantity`, 'unitCode', 'C62']] },
  { name: 'two price allowance amounts', example: STD, ops: [['dup', `${LINE}/cac:Price/cac:AllowanceCharge/cbc:Amount`]] },
  // document references and cardinalities
  { name: 'additional document without id', example: EXT, ops: [['set', '/cac:AdditionalDocumentReference/cbc:ID', ' ']] },
  { name: 'additional document two descriptions', example: EXT, ops: [['dup', '/cac:AdditionalDocumentReference/cbc:DocumentDescription']] },
  { name: 'invoiced object with attachment', example: EXT, ops: [['in', '/cac:AdditionalDocumentReference', '<cbc:DocumentTypeCode>130</cbc:DocumentTypeCode>']] },
  { name: 'invoiced object with description', example: EXT, ops: [['after', '/cac:AdditionalDocumentReference/cbc:ID', '<cbc:DocumentTypeCode>130</cbc:DocumentTypeCode>'], ['del', '/cac:AdditionalDocumentReference/cac:Attachment']] },
  { name: 'two invoiced objects', example: STD, ops: [['after', '/cac:AdditionalDocumentReference/cbc:ID', '<cbc:DocumentTypeCode>130</cbc:DocumentTypeCode>'], ['after', '/cac:AdditionalDocumentReference#2/cbc:ID', '<cbc:DocumentTypeCode>130</cbc:DocumentTypeCode>']] },
  { name: 'two project references', example: EXT, ops: [['dup', '/cac:ProjectReference']] },
  { name: 'two contract references', example: EXT, ops: [['dup', '/cac:ContractDocumentReference']] },
  { name: 'two receipt references', example: EXT, ops: [['dup', '/cac:ReceiptDocumentReference']] },
  { name: 'two despatch references', example: EXT, ops: [['dup', '/cac:DespatchDocumentReference']] },
  { name: 'two originator references', example: EXT, ops: [['dup', '/cac:OriginatorDocumentReference']] },
  { name: 'two invoice periods', example: EXT, ops: [['dup', '/cac:InvoicePeriod']] },
  { name: 'two invoice periods, no line periods', example: MAND, ops: [['after', '/cbc:DocumentCurrencyCode', '<cac:InvoicePeriod><cbc:StartDate>2025-01-01</cbc:StartDate></cac:InvoicePeriod><cac:InvoicePeriod><cbc:EndDate>2025-01-31</cbc:EndDate></cac:InvoicePeriod>']] },
  { name: 'two notes', example: EXT, ops: [['dup', '/cbc:Note']] },
  // empty-element rules read the value: whitespace written as character references is still whitespace
  { name: 'note of a space character reference', example: EXT, ops: [['set', '/cbc:Note', '&#32;']] },
  { name: 'line note of whitespace character references', example: EXT, ops: [['set', `${LINE}/cbc:Note`, '&#x20;&#9;&#xA;']] },
  { name: 'payment terms note of a character reference and a space', example: STD, ops: [['set', '/cac:PaymentTerms/cbc:Note', '&#13; ']] },
  { name: 'two period description codes', example: EXT, ops: [['dup', '/cac:InvoicePeriod/cbc:DescriptionCode']] },
  { name: 'customization with wildcard', example: STD, ops: [['set', '/cbc:CustomizationID', 'urn:peppol:pint:billing-1@ae-1*']] },
  { name: 'no document currency', example: STD, ops: [['del', '/cbc:DocumentCurrencyCode']] },
  { name: 'two payment mandates', example: EXT, ops: [['dup', '/cac:PaymentMeans']] },
  { name: 'two card accounts', example: EXT, ops: [['dup', '/cac:PaymentMeans/cac:CardAccount']] },
  // parties
  { name: 'seller two trade names', example: EXT, ops: [['dup', `${SELLER}/cac:PartyName`]] },
  { name: 'buyer two trade names', example: EXT, ops: [['dup', `${BUYER}/cac:PartyName`]] },
  { name: 'seller two legal forms', example: EXT, ops: [['dup', `${SELLER}/cac:PartyLegalEntity/cbc:CompanyLegalForm`]] },
  { name: 'buyer two legal ids', example: EXT, ops: [['dup', `${BUYER}/cac:PartyLegalEntity/cbc:CompanyID`]] },
  { name: 'seller two legal ids', example: EXT, ops: [['dup', `${SELLER}/cac:PartyLegalEntity/cbc:CompanyID`]] },
  { name: 'buyer two VAT ids', example: EXT, ops: [['dup', `${BUYER}/cac:PartyTaxScheme`]] },
  { name: 'buyer two identifiers', example: EXT, ops: [['first', BUYER, '<cac:PartyIdentification><cbc:ID>1</cbc:ID></cac:PartyIdentification><cac:PartyIdentification><cbc:ID>2</cbc:ID></cac:PartyIdentification>']] },
  { name: 'buyer address two lines', example: EXT, ops: [['dup', `${BUYER}/cac:PostalAddress/cac:AddressLine`]] },
  { name: 'seller address two lines', example: EXT, ops: [['dup', `${SELLER}/cac:PostalAddress/cac:AddressLine`]] },
  { name: 'seller without any identifier', example: MAND, ops: [['del', `${SELLER}/cac:PartyTaxScheme`], ['del', `${SELLER}/cac:PartyLegalEntity/cbc:CompanyID`]] },
  { name: 'seller three tax schemes', example: EXT, ops: [['dup', `${SELLER}/cac:PartyTaxScheme`], ['dup', `${SELLER}/cac:PartyTaxScheme`]] },
  { name: 'party tax scheme without id', example: EXT, ops: [['del', `${BUYER}/cac:PartyTaxScheme/cbc:CompanyID`]] },
  { name: 'payee named as seller', example: EXT, ops: [['set', '/cac:PayeeParty/cac:PartyName/cbc:Name', 'Supplier Trade Name']] },
  { name: 'payee without name', example: EXT, ops: [['del', '/cac:PayeeParty/cac:PartyName']] },
  { name: 'payee two ids', example: EXT, ops: [['dup', '/cac:PayeeParty/cac:PartyIdentification']] },
  { name: 'payee two ids named as seller legal name', example: EXT, ops: [['dup', '/cac:PayeeParty/cac:PartyIdentification'], ['set', '/cac:PayeeParty/cac:PartyName/cbc:Name', 'Supplier Legal Name']] },
  { name: 'payee two SEPA ids', example: EXT, ops: [['attr', '/cac:PayeeParty/cac:PartyIdentification/cbc:ID', 'schemeID', 'SEPA'], ['dup', '/cac:PayeeParty/cac:PartyIdentification']] },
  { name: 'payee two legal ids', example: EXT, ops: [['dup', '/cac:PayeeParty/cac:PartyLegalEntity/cbc:CompanyID']] },
  { name: 'payee two names', example: EXT, ops: [['dup', '/cac:PayeeParty/cac:PartyName/cbc:Name']] },
  { name: 'tax representative without name', example: EXT, ops: [['del', '/cac:TaxRepresentativeParty/cac:PartyName']] },
  { name: 'tax representative without address', example: EXT, ops: [['del', '/cac:TaxRepresentativeParty/cac:PostalAddress']] },
  { name: 'tax representative without VAT id', example: EXT, ops: [['del', '/cac:TaxRepresentativeParty/cac:PartyTaxScheme']] },
  { name: 'tax representative two names', example: EXT, ops: [['dup', '/cac:TaxRepresentativeParty/cac:PartyName']] },
  {
    name: 'tax representative with two nested party VAT ids',
    example: EXT,
    ops: [['in', '/cac:TaxRepresentativeParty', '<cac:Party><cac:PartyTaxScheme><cbc:CompanyID>1</cbc:CompanyID></cac:PartyTaxScheme><cac:PartyTaxScheme><cbc:CompanyID>2</cbc:CompanyID></cac:PartyTaxScheme></cac:Party>']],
  },
  { name: 'tax representative address without country', example: EXT, ops: [['del', '/cac:TaxRepresentativeParty/cac:PostalAddress/cac:Country']] },
  { name: 'tax representative address two lines', example: EXT, ops: [['dup', '/cac:TaxRepresentativeParty/cac:PostalAddress/cac:AddressLine']] },
  { name: 'tax representative emirate XYZ', example: EXT, ops: [['set', '/cac:TaxRepresentativeParty/cac:PostalAddress/cbc:CountrySubentity', 'XYZ']] },
  { name: 'seller emirate XYZ (no ibr-128-ae: earlier rule)', example: EXT, ops: [['set', `${SELLER}/cac:PostalAddress/cbc:CountrySubentity`, 'XYZ']] },
  { name: 'tax representative bad TRN', example: EXT, ops: [['set', '/cac:TaxRepresentativeParty/cac:PartyTaxScheme/cbc:CompanyID', '12334979270000']] },
  { name: 'delivery address without country', example: EXT, ops: [['del', '/cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country']] },
  { name: 'delivery address two lines', example: EXT, ops: [['dup', '/cac:Delivery/cac:DeliveryLocation/cac:Address/cac:AddressLine']] },
  { name: 'delivery party two names', example: EXT, ops: [['dup', '/cac:Delivery/cac:DeliveryParty/cac:PartyName']] },
  { name: 'delivery location bad scheme', example: EXT, ops: [['attr', '/cac:Delivery/cac:DeliveryLocation/cbc:ID', 'schemeID', 'XXXX']] },
  { name: 'delivery terms without id', example: EXT, ops: [['after', '/cac:Delivery', '<cac:DeliveryTerms><cbc:SpecialTerms>x</cbc:SpecialTerms></cac:DeliveryTerms>']] },
  { name: 'buyer PAS without country', example: 'Buyer-PAS-identifier', ops: [['attr', `${BUYER}/cac:PartyLegalEntity/cbc:CompanyID`, 'schemeAgencyName', null]] },
  { name: 'buyer PAS bad country', example: 'Buyer-PAS-identifier', ops: [['attr', `${BUYER}/cac:PartyLegalEntity/cbc:CompanyID`, 'schemeAgencyName', 'XI']] },
  { name: 'seller PAS bad country', example: 'Seller-PAS-identifier', ops: [['attr', `${SELLER}/cac:PartyLegalEntity/cbc:CompanyID`, 'schemeAgencyName', 'ZZ']] },
  { name: 'seller TL without authority', example: STD, ops: [['attr', `${SELLER}/cac:PartyLegalEntity/cbc:CompanyID`, 'schemeAgencyName', null]] },
  { name: 'buyer TL without authority', example: STD, ops: [['attr', `${BUYER}/cac:PartyLegalEntity/cbc:CompanyID`, 'schemeAgencyName', null]] },
  { name: 'buyer legal id without type', example: STD, ops: [['attr', `${BUYER}/cac:PartyLegalEntity/cbc:CompanyID`, 'schemeAgencyID', null]] },
  { name: 'buyer legal id type XX, endpoint 2...', example: STD, ops: [['attr', `${BUYER}/cac:PartyLegalEntity/cbc:CompanyID`, 'schemeAgencyID', 'XX'], ['set', `${BUYER}/cbc:EndpointID`, '2345678901']] },
  { name: 'buyer endpoint 2... without VAT id', example: STD, ops: [['set', `${BUYER}/cbc:EndpointID`, '2345678901'], ['del', `${BUYER}/cac:PartyTaxScheme`]] },
  { name: 'seller 0235 without legal id', example: STD, ops: [['del', `${SELLER}/cac:PartyLegalEntity/cbc:CompanyID`]] },
  { name: 'seller legal id type XX', example: STD, ops: [['attr', `${SELLER}/cac:PartyLegalEntity/cbc:CompanyID`, 'schemeAgencyID', 'XX']] },
  { name: 'seller legal id without type', example: STD, ops: [['attr', `${SELLER}/cac:PartyLegalEntity/cbc:CompanyID`, 'schemeAgencyID', null]] },
  { name: 'seller TIN and VAT both VAT scheme', example: 'Seller-TIN-identifier', ops: [['set', `${SELLER}/cac:PartyTaxScheme#2/cac:TaxScheme/cbc:ID`, 'VAT']] },
  { name: 'seller tax registration id not a TIN', example: 'Seller-TIN-identifier', ops: [['set', `${SELLER}/cac:PartyTaxScheme#2/cbc:CompanyID`, '2234567890']] },
  { name: 'tax scheme GST without seller TIN', example: STD, ops: [['set', '/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cac:TaxScheme/cbc:ID', 'GST']] },
  // lines
  { name: 'line without net amount', example: EXT, ops: [['del', `${LINE}/cbc:LineExtensionAmount`]] },
  { name: 'line two order line ids', example: EXT, ops: [['dup', `${LINE}/cac:OrderLineReference`]] },
  { name: 'line two periods', example: EXT, ops: [['dup', `${LINE}/cac:InvoicePeriod`]] },
  { name: 'line two notes', example: EXT, ops: [['dup', `${LINE}/cbc:Note`]] },
  { name: 'line two descriptions', example: EXT, ops: [['dup', `${LINE}/cac:Item/cbc:Description`]] },
  { name: 'line period ends after document period', example: EXT, ops: [['set', `${LINE}/cac:InvoicePeriod/cbc:EndDate`, '2025-02-28']] },
  { name: 'line period starts before document period', example: EXT, ops: [['set', `${LINE}/cac:InvoicePeriod/cbc:StartDate`, '2025-01-01']] },
  { name: 'line period without dates', example: EXT, ops: [['del', `${LINE}/cac:InvoicePeriod/cbc:StartDate`], ['del', `${LINE}/cac:InvoicePeriod/cbc:EndDate`]] },
  { name: 'document period end before start', example: EXT, ops: [['set', '/cac:InvoicePeriod/cbc:EndDate', '2025-01-01']] },
  { name: 'document period without dates or code', example: STD, ops: [['del', '/cac:InvoicePeriod/cbc:StartDate'], ['del', '/cac:InvoicePeriod/cbc:EndDate'], ['in', '/cac:InvoicePeriod', '<cbc:Note>x</cbc:Note>']] },
  { name: 'item property without value', example: EXT, ops: [['del', `${LINE}/cac:Item/cac:AdditionalItemProperty/cbc:Value`]] },
  { name: 'classification without list id', example: EXT, ops: [['attr', `${LINE}/cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode`, 'listID', null]] },
  { name: 'classification list id XX', example: EXT, ops: [['attr', `${LINE}/cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode`, 'listID', 'XX']] },
  { name: 'standard item id without scheme', example: EXT, ops: [['attr', `${LINE}/cac:Item/cac:StandardItemIdentification/cbc:ID`, 'schemeID', null]] },
  { name: 'standard item id scheme 9999', example: EXT, ops: [['attr', `${LINE}/cac:Item/cac:StandardItemIdentification/cbc:ID`, 'schemeID', '9999']] },
  { name: 'classified tax category without id', example: STD, ops: [['del', `${LINE}/cac:Item/cac:ClassifiedTaxCategory/cbc:ID`]] },
  { name: 'classified tax category two exemption reasons', example: 'Doc-level-allowance-E-category', ops: [['in', `${LINE}/cac:Item/cac:ClassifiedTaxCategory`, '<cbc:TaxExemptionReason>a</cbc:TaxExemptionReason><cbc:TaxExemptionReason>b</cbc:TaxExemptionReason>']] },
  { name: 'line N with rate 0', example: STD, ops: [['set', `${LINE}/cac:Item/cac:ClassifiedTaxCategory/cbc:ID`, 'N'], ['set', `${LINE}/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent`, '0']] },
  { name: 'line E with BTAE-08', example: 'Doc-level-allowance-E-category', ops: [['in', `${LINE}/cac:ItemPriceExtension`, '<cac:TaxTotal><cbc:TaxAmount currencyID="AED">0</cbc:TaxAmount></cac:TaxTotal>']] },
  { name: 'line two invoiced object references', example: STD, ops: [['after', `${LINE}/cac:OrderLineReference`, '<cac:DocumentReference><cbc:ID>a</cbc:ID><cbc:DocumentTypeCode>130</cbc:DocumentTypeCode></cac:DocumentReference><cac:DocumentReference><cbc:ID schemeID="ZZZ">b</cbc:ID><cbc:DocumentTypeCode>130</cbc:DocumentTypeCode></cac:DocumentReference>']] },
  { name: 'line despatch reference with document despatch reference', example: STD, ops: [['after', `${LINE}/cac:OrderLineReference`, '<cac:DespatchLineReference><cbc:LineID>1</cbc:LineID><cac:DocumentReference><cbc:ID>d</cbc:ID></cac:DocumentReference></cac:DespatchLineReference>']] },
  { name: 'line despatch reference twice', example: MAND, ops: [['in', LINE, '<cac:DespatchLineReference><cbc:LineID>1</cbc:LineID><cac:DocumentReference><cbc:ID>d</cbc:ID></cac:DocumentReference><cac:DocumentReference><cbc:ID>e</cbc:ID></cac:DocumentReference></cac:DespatchLineReference>']] },
  { name: 'commodity code S without item id', example: EXT, ops: [['set', `${LINE}/cac:Item/cac:CommodityClassification/cbc:CommodityCode`, 'S']] },
  { name: 'commodity code B without item id', example: EXT, ops: [['set', `${LINE}/cac:Item/cac:CommodityClassification/cbc:CommodityCode`, 'B']] },
  { name: 'commodity code G without classification', example: EXT, ops: [['del', `${LINE}/cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode`]] },
  { name: 'additional item id not SAC', example: EXT, ops: [['after', `${LINE}/cac:Item/cac:SellersItemIdentification`, '<cac:AdditionalItemIdentification><cbc:ID schemeID="XYZ">1</cbc:ID></cac:AdditionalItemIdentification>']] },
  { name: 'reverse charge without buyer VAT id', example: RC, ops: [['del', `${BUYER}/cac:PartyTaxScheme`]] },
  { name: 'reverse charge BTAE-08 not zero', example: RC, ops: [['set', `${LINE}/cac:ItemPriceExtension/cac:TaxTotal/cbc:TaxAmount`, '5']] },
  { name: 'reverse charge item id scheme 0088', example: RC, ops: [['attr', `${LINE}/cac:Item/cac:StandardItemIdentification/cbc:ID`, 'schemeID', '0088']] },
  // tax breakdown
  { name: 'breakdown without taxable amount (E)', example: 'Doc-level-allowance-E-category', ops: [['del', '/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxableAmount']] },
  { name: 'breakdown without tax amount (E)', example: 'Doc-level-allowance-E-category', ops: [['del', '/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount']] },
  { name: 'breakdown two exemption reasons', example: 'Doc-level-allowance-E-category', ops: [['in', '/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory', '<cbc:TaxExemptionReason>a</cbc:TaxExemptionReason><cbc:TaxExemptionReason>b</cbc:TaxExemptionReason>']] },
  { name: 'breakdown S with exemption reason', example: STD, ops: [['in', '/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory', '<cbc:TaxExemptionReasonCode>VATEX-AE-EDU</cbc:TaxExemptionReasonCode>']] },
  { name: 'breakdown E tax not zero', example: EXT, ops: [['set', '/cac:TaxTotal/cac:TaxSubtotal#2/cbc:TaxAmount', '1']] },
  { name: 'breakdown E with rate', example: EXT, ops: [['first', '/cac:TaxTotal/cac:TaxSubtotal#2/cac:TaxCategory', '<cbc:Percent>0</cbc:Percent>']] },
  { name: 'breakdown O tax not zero', example: EXT, ops: [['set', '/cac:TaxTotal/cac:TaxSubtotal#3/cbc:TaxAmount', '1']] },
  { name: 'breakdown Z tax not zero', example: EXT, ops: [['set', '/cac:TaxTotal/cac:TaxSubtotal#5/cbc:TaxAmount', '1']] },
  { name: 'breakdown N', example: STD, ops: [['set', '/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID', 'N'], ['set', `${LINE}/cac:Item/cac:ClassifiedTaxCategory/cbc:ID`, 'N']] },
  { name: 'breakdown N without line', example: STD, ops: [['set', '/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID', 'N']] },
  { name: 'category N without breakdown', example: STD, ops: [['set', '/cac:AllowanceCharge/cac:TaxCategory/cbc:ID', 'N']] },
  { name: 'tax total amount three decimals (credit note typo rule)', example: CN, ops: [['set', '/cac:TaxTotal/cbc:TaxAmount', '0.123']] },
  { name: 'tax total amount three decimals', example: STD, ops: [['set', '/cac:TaxTotal/cbc:TaxAmount', '532.160']] },
  { name: 'breakdown S TaxableAmount +0.02 (slack)', example: STD, ops: [['set', '/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxableAmount', '10643.31']] },
  { name: 'breakdown S TaxableAmount +0.03 (slack)', example: STD, ops: [['set', '/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxableAmount', '10643.32']] },
  { name: 'breakdown S TaxAmount +0.02 (slack)', example: STD, ops: [['set', '/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount', '532.1845']] },
  { name: 'breakdown S TaxAmount +0.0201 (slack)', example: STD, ops: [['set', '/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount', '532.1846']] },
  // totals
  { name: 'payable amount three decimals', example: STD, ops: [['set', '/cac:LegalMonetaryTotal/cbc:PayableAmount', '11175.500']] },
  { name: 'allowance total three decimals', example: STD, ops: [['set', '/cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount', '262.150']] },
  { name: 'charge total three decimals', example: STD, ops: [['set', '/cac:LegalMonetaryTotal/cbc:ChargeTotalAmount', '419.440']] },
  { name: 'tax exclusive three decimals', example: STD, ops: [['set', '/cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount', '10643.290']] },
  { name: 'tax inclusive three decimals', example: STD, ops: [['set', '/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount', '11175.450']] },
  { name: 'prepaid amount 0 counts as none', example: STD, ops: [['after', '/cac:LegalMonetaryTotal/cbc:ChargeTotalAmount', '<cbc:PrepaidAmount currencyID="AED">0.00</cbc:PrepaidAmount>']] },
  { name: 'prepaid payment without prepaid amount', example: STD, ops: [['after', '/cac:PaymentTerms', '<cac:PrepaidPayment><cbc:PaidAmount currencyID="AED">1</cbc:PaidAmount></cac:PrepaidPayment>']] },
  { name: 'tax included indicator true', example: STD, ops: [['set', '/cac:TaxTotal/cbc:TaxIncludedIndicator', 'true'], ['set', '/cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount', '1']] },
  // UAE transaction flags and document rules
  { name: 'flag 1 (free trade zone) without beneficiary id', example: STD, ops: [['set', '/cbc:ProfileExecutionID', flags(1)]] },
  { name: 'flag 2 (deemed supply) without due date', example: STD, ops: [['set', '/cbc:ProfileExecutionID', flags(2)], ['del', '/cbc:DueDate'], ['del', '/cac:PaymentMeans']] },
  { name: 'flag 3 (margin scheme) with standard lines', example: STD, ops: [['set', '/cbc:ProfileExecutionID', flags(3)]] },
  { name: 'flag 4 (summary) without period', example: STD, ops: [['set', '/cbc:ProfileExecutionID', flags(4)], ['del', '/cac:InvoicePeriod']] },
  { name: 'flag 6 (disclosed agent) without principal', example: STD, ops: [['set', '/cbc:ProfileExecutionID', flags(6)]] },
  { name: 'flag 6 principal id equals seller VAT', example: 'Disclosed.agent.billing', ops: [['set', '/cac:SellerSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID', '198765432102003']] },
  { name: 'flag 6 without seller VAT id', example: 'Disclosed.agent.billing', ops: [['del', `${SELLER}/cac:PartyTaxScheme`]] },
  { name: 'flag 7 (e-commerce) without delivery', example: STD, ops: [['set', '/cbc:ProfileExecutionID', flags(7)]] },
  { name: 'flag 8 (export) delivery abroad without address', example: EXPORT, ops: [['del', '/cac:Delivery/cac:DeliveryLocation/cac:Address/cbc:StreetName']] },
  { name: 'commercial invoice with flag 3', example: 'Commercial invoice', ops: [['set', '/cbc:ProfileExecutionID', flags(3)]] },
  { name: 'commercial invoice without buyer legal id', example: 'Commercial invoice', ops: [['del', `${BUYER}/cac:PartyLegalEntity/cbc:CompanyID`]] },
  { name: 'commercial invoice with standard line', example: 'Commercial invoice', ops: [['set', `${LINE}/cac:Item/cac:ClassifiedTaxCategory/cbc:ID`, 'S']] },
  { name: 'credit note with tax point date', example: CN, ops: [['after', '/cbc:IssueDate', '<cbc:TaxPointDate>2025-02-01</cbc:TaxPointDate>']] },
  { name: 'credit note VD with billing reference', example: CN, ops: [['set', '/cac:DiscrepancyResponse/cbc:ResponseCode', 'VD']] },
  { name: 'credit note without reason', example: CN, ops: [['del', '/cac:DiscrepancyResponse']] },
  { name: 'billing reference without id', example: CN, ops: [['del', '/cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID']] },
  { name: 'billing reference two references', example: CN, ops: [['dup', '/cac:BillingReference/cac:InvoiceDocumentReference']] },
  { name: 'invoice without due date', example: STD, ops: [['del', '/cbc:DueDate']] },
  { name: 'invoice without UUID', example: STD, ops: [['del', '/cbc:UUID']] },
  { name: 'OTH frequency without note', example: EXT, ops: [['del', '/cbc:Note']] },
  { name: 'USD without exchange rate', example: STD, ops: [['set', '/cbc:DocumentCurrencyCode', 'USD'], ['after', '/cbc:DocumentCurrencyCode', '<cbc:TaxCurrencyCode>AED</cbc:TaxCurrencyCode>']] },
  { name: 'payment means 30 without account', example: STD, ops: [['set', '/cac:PaymentMeans/cbc:PaymentMeansCode', '30']] },
  { name: 'payment means two codes', example: STD, ops: [['dup', '/cac:PaymentMeans/cbc:PaymentMeansCode']] },
  { name: 'payment means without code', example: STD, ops: [['del', '/cac:PaymentMeans/cbc:PaymentMeansCode']] },
  { name: 'payment means code invalid', example: STD, ops: [['set', '/cac:PaymentMeans/cbc:PaymentMeansCode', '71']] },
  { name: 'payment terms two notes', example: STD, ops: [['dup', '/cac:PaymentTerms/cbc:Note']] },
  { name: 'payment terms two payment means ids', example: STD, ops: [['in', '/cac:PaymentTerms', '<cbc:PaymentMeansID>1</cbc:PaymentMeansID><cbc:PaymentMeansID>2</cbc:PaymentMeansID>']] },
  { name: 'payment mandate two ids', example: EXT, ops: [['dup', '/cac:PaymentMeans/cac:PaymentMandate/cbc:ID']] },
  { name: 'payment means code with name twice', example: EXT, ops: [['dup', '/cac:PaymentMeans/cbc:PaymentMeansCode']] },
  { name: 'branch address two lines', example: EXT, ops: [['in', '/cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch', '<cac:Address><cac:AddressLine><cbc:Line>a</cbc:Line></cac:AddressLine><cac:AddressLine><cbc:Line>b</cbc:Line></cac:AddressLine></cac:Address>']] },
  { name: 'attachment without mime code', example: STD, ops: [['attr', '/cac:AdditionalDocumentReference#2/cac:Attachment/cbc:EmbeddedDocumentBinaryObject', 'mimeCode', null]] },
  { name: 'attachment without file name', example: STD, ops: [['attr', '/cac:AdditionalDocumentReference#2/cac:Attachment/cbc:EmbeddedDocumentBinaryObject', 'filename', null]] },
  { name: 'seller party identification SEPA', example: EXT, ops: [['first', SELLER, '<cac:PartyIdentification><cbc:ID schemeID="SEPA">x</cbc:ID></cac:PartyIdentification>']] },
  { name: 'buyer party identification SEPA', example: EXT, ops: [['first', BUYER, '<cac:PartyIdentification><cbc:ID schemeID="SEPA">x</cbc:ID></cac:PartyIdentification>']] },
  { name: 'allowance reason code not UNCL5189', example: STD, ops: [['set', '/cac:AllowanceCharge/cbc:AllowanceChargeReasonCode', 'AAC']] },
  { name: 'self billing with invoice type 380', example: 'selfbilling/inv', ops: [['set', '/cbc:InvoiceTypeCode', '380']] },
  { name: 'self billing credit note 381', example: 'selfbilling/cn', ops: [['set', '/cbc:CreditNoteTypeCode', '381']] },
  // the line facts (src/rules/line-facts.ts): an error in one line's category, rate or net
  // amount, met by the document-wide scans where the official lazy evaluation meets it; and
  // documents the facts do not cover (categories or lines outside the root lines, both kinds of line)
  { name: 'third line category with two IDs', example: EXT, ops: [['in', `${LINE}#3/cac:Item/cac:ClassifiedTaxCategory`, '<cbc:ID>S</cbc:ID>']] },
  { name: 'second line category ID given twice', example: SUMMARY, ops: [['dup', `${LINE}#2/cac:Item/cac:ClassifiedTaxCategory/cbc:ID`]] },
  { name: 'fourth line rate not a number', example: EXT, ops: [['set', `${LINE}#4/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent`, 'abc']] },
  { name: 'second line rate not a number', example: SUMMARY, ops: [['set', `${LINE}#2/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent`, 'five']] },
  { name: 'second line two rates', example: SUMMARY, ops: [['dup', `${LINE}#2/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent`]] },
  { name: 'third line two net amounts', example: SUMMARY, ops: [['dup', `${LINE}#3/cbc:LineExtensionAmount`]] },
  { name: 'second line category tax scheme ID given twice', example: EXT, ops: [['dup', `${LINE}#2/cac:Item/cac:ClassifiedTaxCategory/cac:TaxScheme/cbc:ID`]] },
  { name: 'third line category code with spaces', example: SUMMARY, ops: [['set', `${LINE}#3/cac:Item/cac:ClassifiedTaxCategory/cbc:ID`, ' S ']] },
  { name: 'second line category without ID', example: SUMMARY, ops: [['del', `${LINE}#2/cac:Item/cac:ClassifiedTaxCategory/cbc:ID`]] },
  { name: 'second line two categories', example: SUMMARY, ops: [['dup', `${LINE}#2/cac:Item/cac:ClassifiedTaxCategory`]] },
  { name: 'second line a second category Z', example: SUMMARY, ops: [['in', `${LINE}#2/cac:Item`, ZERO_RATED]] },
  { name: 'category outside the lines', example: SUMMARY, ops: [['in', `${SELLER}`, ZERO_RATED]] },
  { name: 'standard category outside the lines of a zero-rated invoice', example: 'Zero rated supplies', ops: [['in', `${SELLER}`, ZERO_RATED.replace('>Z<', '>S<')]] },
  { name: 'invoice line inside a line', example: SUMMARY, ops: [['in', `${LINE}#2/cac:Item`, `<cac:InvoiceLine><cbc:ID>9</cbc:ID><cbc:LineExtensionAmount currencyID="AED">10</cbc:LineExtensionAmount><cac:Item>${ZERO_RATED}</cac:Item></cac:InvoiceLine>`]] },
  { name: 'credit note line among invoice lines', example: SUMMARY, ops: [['after', `${LINE}#2`, `<cac:CreditNoteLine><cbc:ID>9</cbc:ID><cbc:LineExtensionAmount currencyID="AED">10</cbc:LineExtensionAmount><cac:Item>${ZERO_RATED}</cac:Item></cac:CreditNoteLine>`]] },
];

function pick(root: ReturnType<typeof spans>, path: string) {
  // "a#2/b": the 2nd match of "a", then "b" inside it
  const m = /^(.*?)#(\d+)(\/.*)?$/.exec(path);
  if (!m) return select(root, path)[0];
  const base = select(root, m[1])[Number(m[2]) - 1];
  if (!base || !m[3]) return base;
  const inner = select(root, m[1] + m[3]).filter((s) => {
    for (let p = s.parent; p; p = p.parent) if (p === base) return true;
    return false;
  });
  return inner[0];
}

function apply(xml: string, op: Op): string | null {
  const root = spans(xml);
  const s = pick(root, op[1]);
  if (!s) return null;
  switch (op[0]) {
    case 'set':
      return setText(xml, s, op[2]);
    case 'del':
      return remove(xml, s);
    case 'dup':
      return duplicate(xml, s);
    case 'attr':
      return setAttr(xml, s, op[2], op[3] ?? undefined);
    case 'in':
      return insertChild(xml, s, op[2]);
    case 'first':
      return insertChild(xml, s, op[2], true);
    case 'after':
      return insertAfter(xml, s, op[2]);
  }
}

/** The targeted mutants; a target whose path does not exist in its example is reported, not skipped. */
export function targetedMutants(examples: readonly Example[]): { mutants: Mutant[]; unusable: string[] } {
  const mutants: Mutant[] = [];
  const unusable: string[] = [];
  for (const t of TARGETS) {
    const ex = examples.find((e) => e.name.includes(t.example));
    let xml: string | null = ex?.xml ?? null;
    for (const op of t.ops) xml = xml === null ? null : apply(xml, op);
    if (!ex || xml === null || xml === ex.xml) unusable.push(`${t.name} (${t.example})`);
    else mutants.push({ name: `${ex.name} [targeted] ${t.name}`, xml });
  }
  return { mutants, unusable };
}

