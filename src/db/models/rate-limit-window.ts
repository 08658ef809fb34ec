import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * One fixed window of one budget (e.g. a partner's requests in one minute). Shared by every API process through
 * MongoDB and counted with an atomic $inc upsert. Old windows are removed by the periodic purge (no TTL indexes).
 */
const rateLimitWindowSchema = new Schema(
  {
    _id: { type: String, required: true }, // `${bucket}@${windowStart ms}`
    bucket: { type: String, required: true },
    windowStart: { type: Date, required: true },
    count: { type: Number, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
rateLimitWindowSchema.index({ expiresAt: 1 });

export type RateLimitWindowDoc = InferSchemaType<typeof rateLimitWindowSchema> & { _id: string };
export const RateLimitWindow = model('RateLimitWindow', rateLimitWindowSchema, 'rate_limit_windows');
