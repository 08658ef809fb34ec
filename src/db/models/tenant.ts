import { Schema, model, type InferSchemaType } from 'mongoose';
import { TENANT_MODES } from '../../domain/tenant-invoice-types';

const addressSchema = new Schema(
  { line1: String, line2: String, city: String, emirate: String, postalCode: String, country: String },
  { _id: false },
);

/**
 * A Tenant API account: one seller, one TRN (SPEC 1), one active mode. The client secret is stored as a SHA-256
 * hash; the webhook secret signs status updates (HMAC), so it is kept.
 */
const tenantSchema = new Schema(
  {
    _id: { type: String, required: true }, // tenantId (uuid)
    trn: { type: String, required: true, unique: true },
    legalName: { type: String, required: true },
    legalNameArabic: { type: String, required: true },
    /** The seller address rendered on every invoice (PINT-AE needs street, city and emirate). */
    address: { type: addressSchema, default: null },
    /** The seller's legal registration (PINT-AE ibr-150-ae needs one on every invoice). */
    tradeLicenseNumber: { type: String, default: null },
    mode: { type: String, enum: TENANT_MODES, required: true },
    /** Compliance (know your business): only approved tenants may call the API (403 kyb_required). */
    kyb: { type: String, enum: ['approved', 'pending'], required: true },
    statusUrl: { type: String, default: null },
    clientId: { type: String, required: true, unique: true },
    clientSecretHash: { type: String, required: true },
    // Rotation (services/credential-rotation.ts): the client secret before the last rotation, accepted until its
    // validUntil. Each rotation or revocation bumps the generation; a bearer token carries the generation of the
    // secret that got it, so it dies with that secret (or at once on a revocation).
    previousClientSecretHash: { type: String, default: null },
    previousClientSecretValidUntil: { type: Date, default: null },
    credentialGeneration: { type: Number, default: 0 },
    /** Set by tenant:revoke-secret: the client secret and every token are refused until tenant:rotate-secret. */
    clientSecretRevokedAt: { type: Date, default: null },
    webhookSecret: { type: String, required: true },
    previousWebhookSecret: { type: String, default: null },
    previousWebhookSecretValidUntil: { type: Date, default: null },
    /** Records retention (src/records/retention.ts): years beyond the default (e.g. 15 for real estate); null: the default. */
    retentionYears: { type: Number, default: null },
    /** Legal hold: none of the tenant's records expires or is removed while set (an audit or dispute is open). */
    legalHold: { type: Boolean, default: false },
    /** Delivery credits of live mode (services/credits.ts). */
    credits: { type: Number, default: 0 },
  },
  { timestamps: true, versionKey: false },
);

export type TenantDoc = InferSchemaType<typeof tenantSchema> & { _id: string };
export const Tenant = model('Tenant', tenantSchema, 'tenants');
