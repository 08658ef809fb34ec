import Joi from 'joi';

// SPEC 2.1 CustomerUpsertBody and Address. Pure: no I/O.

const country = Joi.string().length(2).pattern(/^[A-Za-z]*$/, 'letters').uppercase(); // ISO 3166-1 alpha-2

/** Address of a customer: every field optional; lengths as SPEC 8 sets them for addresses. */
export const customerAddressSchema = Joi.object({
  line1: Joi.string().allow('').max(200),
  line2: Joi.string().allow('').max(200),
  city: Joi.string().allow('').max(100),
  emirate: Joi.string().allow('').max(50),
  country: country.default('AE'),
  postalCode: Joi.string().allow('').max(20),
});

const CUSTOMER_KINDS = ['buyer', 'seller', 'both'] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];

export interface CustomerAddress {
  line1?: string;
  line2?: string;
  city?: string;
  emirate?: string;
  country: string;
  postalCode?: string;
}

export interface CustomerUpsertBody {
  externalRef: string;
  name: string;
  kind: CustomerKind;
  country: string;
  trn: string | null;
  email: string | null;
  phone: string | null;
  address?: CustomerAddress;
}

export const customerUpsertSchema = Joi.object<CustomerUpsertBody>({
  externalRef: Joi.string().max(128).required(),
  name: Joi.string().max(300).required(),
  kind: Joi.string().valid(...CUSTOMER_KINDS).default('buyer'),
  country: country.default('AE'),
  trn: Joi.string().pattern(/^[0-9]{15}$/, '15 decimal digits').allow(null).default(null),
  email: Joi.string().email({ tlds: { allow: false } }).max(254).allow(null).default(null),
  // SPEC sets no rule; 30 as for invoice party phones, so a customer can be copied into an invoice unchanged.
  phone: Joi.string().max(30).allow(null).default(null),
  address: customerAddressSchema,
});
