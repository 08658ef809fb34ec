/**
 * Parties: seller, buyer, payee, tax representative, their addresses, identifiers, TRN/TIN
 * (both official files).
 */
import * as codelistsModule from '../../codelists';
import * as dslModule from '../dsl';
import type { Ctx, Rule } from '../engine';
import * as sharedModule from '../shared';
import type { El } from '../xml';
import * as xpathModule from '../xpath';

// Bound once at load, not read through the module objects on every call (see "Imports" in index.ts).
const { EMIRATE_CODES, PASSPORT_COUNTRY } = codelistsModule;
const { CAC, CBC, attrAt, cac, cbc, count, has, contextIs, matchesContext, ns1, p, str1 } = dslModule;
const { isVat } = sharedModule;
const { matches, normalizeSpace, optValue, someEq, someEqNodes, someNe, stringLength, translate, cardinalityError } = xpathModule;

const LEGAL_ID = 'cac:PartyLegalEntity/cbc:CompanyID';

/** @schemeAgencyID values of the party's legal registration identifiers. */
const agencyIds = (party: El) => attrAt(party, LEGAL_ID, 'schemeAgencyID');
const agencyNames = (party: El) => attrAt(party, LEGAL_ID, 'schemeAgencyName');
const endpointSchemes = (party: El) => attrAt(party, 'cbc:EndpointID', 'schemeID');
/** `cbc:EndpointID[@schemeID = "0235"]` */
const hasTinEndpoint = (party: El) => party.children(CBC, 'EndpointID').some((e) => e.attr('schemeID') === '0235');

/** ibr-010-ae / ibr-012-ae: a passport (PAS) identifier needs a valid issuing country in @schemeAgencyName. */
function passportCountryGiven(party: El): boolean {
  const ids = agencyIds(party);
  if (ids.length === 0 || !ids.includes('PAS')) return true;
  const names = agencyNames(party);
  if (names.length === 0) return false;
  if (names.length > 1) throw cardinalityError('@schemeAgencyName', names.length);
  return PASSPORT_COUNTRY.has(names[0]); // matches(., '^(AF|AX|...)$')
}

/** ibr-101-ae / ibr-172-ae: a trade licence (TL) identifier needs the issuing authority. */
function tradeLicenceAuthorityGiven(party: El): boolean {
  const ids = agencyIds(party);
  return (ids.includes('TL') && agencyNames(party).length > 0) || !ids.includes('TL');
}

const addressComplete = (a: El) => has(a, 'cbc:StreetName') && has(a, 'cbc:CityName') && has(a, 'cbc:CountrySubentity');

/** Is there a seller tax registration identifier (TIN, 10 digits starting with 1) in the document? */
function sellerTinPresent(ctx: Ctx): boolean {
  return ctx.memo('sellerTin', () => {
    for (const asp of ctx.all(CAC, 'AccountingSupplierParty')) {
      for (const id of p(asp, 'cac:Party/cac:PartyTaxScheme/cbc:CompanyID')) {
        const v = normalizeSpace(id.value);
        if (stringLength(v) === 10 && v.startsWith('1') && translate(v, '0123456789', '') === '') return true;
      }
    }
    return false;
  });
}

export const partyRules: Rule[] = [
  // ---- PINT-UBL-validation, UBL-model
  {
    pattern: 'UBL-model',
    seq: 16,
    context: 'cac:AccountingCustomerParty/cac:Party',
    names: [cac('Party')],
    match: contextIs('cac:AccountingCustomerParty/cac:Party'),
    asserts: [{ id: 'ibr-080', test: (el) => has(el, 'cbc:EndpointID') }],
  },
  {
    pattern: 'UBL-model',
    seq: 17,
    context: 'cac:AccountingCustomerParty/cac:Party/cbc:EndpointID',
    names: [cbc('EndpointID')],
    match: contextIs('cac:AccountingCustomerParty/cac:Party/cbc:EndpointID'),
    asserts: [{ id: 'ibr-063', test: (el) => el.attr('schemeID') !== undefined }],
  },
  {
    pattern: 'UBL-model',
    seq: 18,
    context: 'cac:AccountingCustomerParty/cac:Party/cac:PostalAddress',
    names: [cac('PostalAddress')],
    match: contextIs('cac:AccountingCustomerParty/cac:Party/cac:PostalAddress'),
    asserts: [
      { id: 'ibr-011', test: (el) => ns1(el, 'cac:Country/cbc:IdentificationCode') !== '' },
      { id: 'ibr-sr-54', test: (el) => count(el, 'cac:AddressLine/cbc:Line') <= 1 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 19,
    context: 'cac:Delivery/cac:DeliveryLocation/cac:Address',
    names: [cac('Address')],
    match: contextIs('cac:Delivery/cac:DeliveryLocation/cac:Address'),
    asserts: [
      { id: 'ibr-057', test: (el) => has(el, 'cac:Country/cbc:IdentificationCode') },
      { id: 'ibr-sr-56', test: (el) => count(el, 'cac:AddressLine/cbc:Line') <= 1 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 29,
    context: 'cac:PayeeParty',
    names: [cac('PayeeParty')],
    asserts: [
      {
        id: 'ibr-017',
        test: (el) =>
          has(el, 'cac:PartyName/cbc:Name') &&
          !someEqNodes(p(el, 'cac:PartyName/cbc:Name'), p(el, '../cac:AccountingSupplierParty/cac:Party/cac:PartyName/cbc:Name')) &&
          !someEqNodes(p(el, 'cac:PartyIdentification/cbc:ID'), p(el, '../cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID')),
      },
      {
        id: 'ibr-105',
        test: (el) =>
          p(el, 'cac:PartyIdentification/cbc:ID').filter((id) => (id.attr('schemeID') ?? '').toUpperCase() !== 'SEPA').length <= 1 ||
          payeeNamedAsSeller(el),
      },
      { id: 'ibr-106', test: (el) => count(el, 'cac:PartyLegalEntity/cbc:CompanyID') <= 1 || payeeNamedAsSeller(el) },
      { id: 'ibr-sr-19', test: (el) => count(el, 'cac:PartyName/cbc:Name') <= 1 || payeeNamedAsSeller(el) },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 35,
    context: 'cac:AccountingSupplierParty/cac:Party',
    names: [cac('Party')],
    match: contextIs('cac:AccountingSupplierParty/cac:Party'),
    asserts: [
      {
        id: 'ibr-co-26',
        test: (el) => has(el, 'cac:PartyTaxScheme/cbc:CompanyID') || has(el, 'cac:PartyIdentification/cbc:ID') || has(el, LEGAL_ID),
      },
      { id: 'ibr-081', test: (el) => has(el, 'cbc:EndpointID') },
      { id: 'ibr-sr-42', test: (el) => count(el, 'cac:PartyTaxScheme') <= 2 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 36,
    context: 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID',
    names: [cbc('EndpointID')],
    match: contextIs('cac:AccountingSupplierParty/cac:Party/cbc:EndpointID'),
    asserts: [{ id: 'ibr-062', test: (el) => el.attr('schemeID') !== undefined }],
  },
  {
    pattern: 'UBL-model',
    seq: 37,
    context: 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress',
    names: [cac('PostalAddress')],
    match: contextIs('cac:AccountingSupplierParty/cac:Party/cac:PostalAddress'),
    asserts: [
      { id: 'ibr-009', test: (el) => ns1(el, 'cac:Country/cbc:IdentificationCode') !== '' },
      { id: 'ibr-sr-53', test: (el) => count(el, 'cac:AddressLine/cbc:Line') <= 1 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 38,
    context: 'cac:TaxRepresentativeParty',
    names: [cac('TaxRepresentativeParty')],
    asserts: [
      { id: 'ibr-018', test: (el) => ns1(el, 'cac:PartyName/cbc:Name') !== '' },
      { id: 'ibr-019', test: (el) => has(el, 'cac:PostalAddress') },
      { id: 'ibr-056', test: (el) => has(el, 'cac:PartyTaxScheme/cbc:CompanyID') },
      { id: 'ibr-sr-22', test: (el) => count(el, 'cac:PartyName/cbc:Name') <= 1 },
      { id: 'ibr-sr-23', test: (el) => count(el, 'cac:Party/cac:PartyTaxScheme/cbc:CompanyID') <= 1 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 39,
    context: 'cac:TaxRepresentativeParty/cac:PostalAddress',
    names: [cac('PostalAddress')],
    match: contextIs('cac:TaxRepresentativeParty/cac:PostalAddress'),
    asserts: [
      { id: 'ibr-020', test: (el) => ns1(el, 'cac:Country/cbc:IdentificationCode') !== '' },
      { id: 'ibr-sr-55', test: (el) => count(el, 'cac:AddressLine/cbc:Line') <= 1 },
    ],
  },
  {
    pattern: 'UBL-model',
    seq: 42,
    context: '//cac:PartyTaxScheme',
    names: [cac('PartyTaxScheme')],
    asserts: [{ id: 'ibr-sr-57', test: (el) => has(el, 'cbc:CompanyID') }],
  },

  // ---- PINT-jurisdiction-aligned-rules, UBL-modelaligned
  {
    pattern: 'UBL-modelaligned',
    seq: 1,
    context: 'cac:AccountingCustomerParty/cac:Party',
    names: [cac('Party')],
    match: contextIs('cac:AccountingCustomerParty/cac:Party'),
    asserts: [
      { id: 'ibr-010-ae', test: passportCountryGiven },
      { id: 'ibr-101-ae', test: tradeLicenceAuthorityGiven },
      {
        id: 'ibr-149-ae',
        test: (el) =>
          someNe(endpointSchemes(el), '0235') || matches(ns1(el, 'cbc:EndpointID'), '^[19]') || has(el, 'cac:PartyTaxScheme/cbc:CompanyID'),
      },
      { id: 'ibr-179-ae', test: (el) => count(el, 'cac:PartyTaxScheme/cbc:CompanyID') <= 1 },
      {
        id: 'ibr-135-ae',
        test: (el) => {
          // C: not an export, TIN endpoint (0235), and the endpoint is not the buyer's own TIN 1XXXXXXXXX
          const c =
            !matches(str1(el, '../../cbc:ProfileExecutionID'), '^[01]{7}1$') &&
            someEq(endpointSchemes(el), '0235') &&
            !matches(str1(el, 'cbc:EndpointID'), '^1\\d{9}$');
          const identified = has(el, 'cac:PartyIdentification/cbc:ID') || has(el, 'cac:PartyTaxScheme/cbc:CompanyID');
          return (identified && c) || !c;
        },
      },
      {
        id: 'ibr-180-ae',
        test: (el) => !(hasTinEndpoint(el) && has(el, LEGAL_ID)) || agencyIds(el).length > 0,
      },
      {
        id: 'ibr-183-ae',
        test: (el) =>
          !has(el, LEGAL_ID) ||
          !hasTinEndpoint(el) ||
          matches(ns1(el, 'cbc:EndpointID'), '^[19]') ||
          someEq(agencyIds(el), 'TL', 'CL', 'EID', 'PAS', 'CD'),
      },
    ],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 3,
    context: 'cac:AccountingCustomerParty/cac:Party/cac:PostalAddress',
    names: [cac('PostalAddress')],
    match: contextIs('cac:AccountingCustomerParty/cac:Party/cac:PostalAddress'),
    asserts: [{ id: 'ibr-144-ae', test: addressComplete }],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 4,
    context: 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress',
    names: [cac('PostalAddress')],
    match: contextIs('cac:AccountingSupplierParty/cac:Party/cac:PostalAddress'),
    asserts: [{ id: 'ibr-143-ae', test: addressComplete }],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 5,
    context: 'cac:AccountingSupplierParty/cac:Party',
    names: [cac('Party')],
    match: contextIs('cac:AccountingSupplierParty/cac:Party'),
    asserts: [
      { id: 'ibr-012-ae', test: passportCountryGiven },
      { id: 'ibr-172-ae', test: tradeLicenceAuthorityGiven },
      {
        id: 'ibr-177-ae',
        test: (el) => {
          // (ancestor::*[local-name()='Invoice' or local-name()='CreditNote'][1]/cbc:ProfileExecutionID)[1]
          let doc: El | null = el.parent;
          while (doc && doc.local !== 'Invoice' && doc.local !== 'CreditNote') doc = doc.parent;
          const pei = doc ? doc.child(CBC, 'ProfileExecutionID') : undefined;
          return !matches(pei ? pei.value : '', '^[01]{5}1[01]{2}$') || has(el, 'cac:PartyTaxScheme/cbc:CompanyID');
        },
      },
      {
        id: 'ibr-178-ae',
        test: (el) => {
          const schemes = el.children(CAC, 'PartyTaxScheme');
          const vat = schemes.filter((s) => someEq(p(s, 'cac:TaxScheme/cbc:ID'), 'VAT'));
          return (schemes.length === 2 && vat.length === 1) || schemes.length < 2;
        },
      },
      { id: 'ibr-150-ae', test: (el) => !(someEq(endpointSchemes(el), '0235') && !has(el, LEGAL_ID)) },
      {
        id: 'ibr-173-ae',
        test: (el) =>
          !(
            has(el, LEGAL_ID) &&
            someEq(endpointSchemes(el), '0235') &&
            someEq(p(el, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode'), 'AE') &&
            !someEq(agencyIds(el), 'TL', 'EID', 'PAS', 'CD')
          ),
      },
      { id: 'ibr-181-ae', test: (el) => !hasTinEndpoint(el) || !has(el, LEGAL_ID) || agencyIds(el).length > 0 },
    ],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 9,
    context: 'cac:PostalAddress',
    names: [cac('PostalAddress')],
    asserts: [
      {
        id: 'ibr-128-ae',
        test: (el) => {
          const uae = someEq(p(el, 'cac:Country/cbc:IdentificationCode'), 'AE');
          return (uae && someEq(el.children(CBC, 'CountrySubentity'), ...EMIRATE_CODES)) || !uae;
        },
      },
    ],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 38,
    context:
      "cac:Party[cac:PostalAddress/cac:Country/cbc:IdentificationCode = 'AE']/cac:PartyTaxScheme[cac:TaxScheme/normalize-space(upper-case(cbc:ID)) = 'VAT']/cbc:CompanyID",
    names: [cbc('CompanyID')],
    match: (el, ctx) => {
      const scheme = el.parent;
      const party = scheme?.parent;
      if (!scheme || !party || !scheme.is(CAC, 'PartyTaxScheme') || !party.is(CAC, 'Party')) return false;
      return someEq(p(party, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode'), 'AE') && isVat(ctx, scheme);
    },
    asserts: [
      {
        id: 'ibr-132-ae',
        test: (el) => {
          const v = el.value;
          return stringLength(v) === 15 && v.startsWith('1') && v.endsWith('03') && matches(v, '^[0-9]+$');
        },
      },
    ],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 39,
    context: "cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme[cac:TaxScheme/normalize-space(upper-case(cbc:ID)) != 'VAT']/cbc:CompanyID",
    names: [cbc('CompanyID')],
    match: (el) => {
      if (!matchesContext(el, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')) return false;
      // general comparison !=: some tax scheme whose (normalised, upper-cased) ID is not VAT
      for (const ts of el.parent!.children(CAC, 'TaxScheme')) {
        if (normalizeSpace(optValue(ts.children(CBC, 'ID'), 'cac:TaxScheme/cbc:ID').toUpperCase()) !== 'VAT') return true;
      }
      return false;
    },
    asserts: [{ id: 'ibr-148-ae', test: (el) => matches(el.value, '^1[0-9]{9}$') }],
  },
  {
    pattern: 'UBL-modelaligned',
    seq: 40,
    context: 'cac:TaxScheme/cbc:ID',
    names: [cbc('ID')],
    match: contextIs('cac:TaxScheme/cbc:ID'),
    asserts: [{ id: 'ibr-133-ae', test: (el, ctx) => el.value === 'VAT' || sellerTinPresent(ctx) }],
  },
];

/** `(cac:PartyName/cbc:Name) = (../cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName)` */
function payeeNamedAsSeller(payee: El): boolean {
  return someEqNodes(p(payee, 'cac:PartyName/cbc:Name'), p(payee, '../cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName'));
}
