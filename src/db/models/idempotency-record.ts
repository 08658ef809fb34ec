import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * One Idempotency-Key use (SPEC 5.3). Created in_flight by a unique (scope, key) insert before the handler runs,
 * so concurrent requests with one key cannot both execute; completed with the exact response bytes.
 * Expiry is an expiresAt field plus a periodic purge: FerretDB 1.x has no TTL indexes.
 */
const storedResponseSchema = new Schema(
  {
    status: { type: Number, required: true },
    body: { type: String, default: '' },
    contentType: { type: String, default: '' },
  },
  { _id: false },
);

const idempotencyRecordSchema = new Schema(
  {
    scope: { type: String, required: true }, // whose key space: partner (and SME)
    key: { type: String, required: true },
    requestHash: { type: String, required: true },
    state: { type: String, enum: ['in_flight', 'completed'], required: true },
    /** Random token of the request that holds the in-flight record; only it may complete or release it. */
    owner: { type: String, required: true },
    /** An in-flight record older than this is abandoned (its process died) and may be taken over. */
    lockedUntil: { type: Date, default: null },
    response: { type: storedResponseSchema, default: null },
    expiresAt: { type: Date, required: true },
  },
  { timestamps: true, versionKey: false },
);
idempotencyRecordSchema.index({ scope: 1, key: 1 }, { unique: true });
idempotencyRecordSchema.index({ expiresAt: 1 });

export type IdempotencyRecordDoc = InferSchemaType<typeof idempotencyRecordSchema> & { _id: unknown };
export const IdempotencyRecord = model('IdempotencyRecord', idempotencyRecordSchema, 'idempotency_records');
