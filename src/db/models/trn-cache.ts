import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * A cached TRN validation answer (SPEC 4.1: 24 hours, not scoped to an SME, shared by all partners of a mode).
 * Expiry is an expiresAt field plus the periodic purge (FerretDB 1.x has no TTL indexes); reads ignore expired rows.
 */
const trnCacheSchema = new Schema(
  {
    _id: { type: String, required: true }, // `${source}:${trn}`
    trn: { type: String, required: true },
    source: { type: String, required: true },
    status: { type: String, enum: ['verified', 'rejected', 'pending'], required: true },
    legalName: { type: String, default: null },
    reason: { type: String, default: null },
    cachedAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
trnCacheSchema.index({ expiresAt: 1 });

export type TrnCacheDoc = InferSchemaType<typeof trnCacheSchema> & { _id: string };
export const TrnCache = model('TrnCache', trnCacheSchema, 'trn_cache');
