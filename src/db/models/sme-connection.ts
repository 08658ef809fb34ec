import { Schema, model, type InferSchemaType } from 'mongoose';

const addressSchema = new Schema({ line1: String, line2: String, city: String, emirate: String, postalCode: String, country: String }, { _id: false });

/** An SME connected to a partner; the connection secret (hashed) resolves it on every SME-scoped call. */
const smeConnectionSchema = new Schema(
  {
    _id: { type: String, required: true }, // smeId (uuid)
    partnerId: { type: String, required: true, index: true },
    trn: { type: String, required: true },
    legalName: { type: String, required: true },
    /** The SME's legal registration and address (sme:connect): what a Partner API body may leave out of its own party. */
    tradeLicenseNumber: { type: String, default: null },
    address: { type: addressSchema, default: null },
    connectionSecretHash: { type: String, required: true, unique: true },
    /** The secret before the last rotation, accepted until its validUntil (services/credential-rotation.ts). */
    previousConnectionSecretHash: { type: String, default: null, index: true },
    previousConnectionSecretValidUntil: { type: Date, default: null },
    /** revoked: every call with its secret is refused (401 connection_revoked) until sme:connect reissues one. */
    status: { type: String, enum: ['active', 'revoked'], default: 'active' },
    revokedAt: { type: Date, default: null },
    credits: { type: Number, default: 0 },
    /** Records retention (src/records/retention.ts): years beyond the default (e.g. 15 for real estate); null: the default. */
    retentionYears: { type: Number, default: null },
    /** Legal hold: none of the SME's records expires or is removed while set (an audit or dispute is open). */
    legalHold: { type: Boolean, default: false },
  },
  { timestamps: true, versionKey: false },
);
smeConnectionSchema.index({ partnerId: 1, trn: 1 }, { unique: true });

export type SmeConnectionDoc = InferSchemaType<typeof smeConnectionSchema> & { _id: string };
export const SmeConnection = model('SmeConnection', smeConnectionSchema, 'sme_connections');
