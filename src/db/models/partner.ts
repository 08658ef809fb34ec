import { Schema, model, type InferSchemaType } from 'mongoose';

/** An ERP integrator. Credentials are stored only as SHA-256 hashes; the webhook secret signs HMACs, so it is kept. */
const partnerSchema = new Schema(
  {
    _id: { type: String, required: true }, // partnerId (uuid)
    erpName: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    status: { type: String, enum: ['test', 'live_pending', 'live_active', 'live_rejected', 'revoked', 'unknown'], required: true },
    apiKeyHash: { type: String, required: true, unique: true },
    apiKeyPrefix: { type: String, required: true }, // first characters, for support to recognise a key
    apiSecretHash: { type: String, required: true },
    webhookSecret: { type: String, required: true },
    // Rotation (services/credential-rotation.ts): the pair and the webhook secret before the last rotation, each
    // accepted until its validUntil. A rotation issues a new key too (only the key's hash is kept, so the old
    // key cannot be printed again), and the old key works only with the old secret.
    previousApiKeyHash: { type: String, default: null, index: true },
    previousApiSecretHash: { type: String, default: null },
    previousApiSecretValidUntil: { type: Date, default: null },
    previousWebhookSecret: { type: String, default: null },
    previousWebhookSecretValidUntil: { type: Date, default: null },
    webhookUrl: { type: String, default: null },
    rateLimitPerMinute: { type: Number, default: null }, // null: the service default
    lastTestAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);

export type PartnerDoc = InferSchemaType<typeof partnerSchema> & { _id: string };
export const Partner = model('Partner', partnerSchema, 'partners');
