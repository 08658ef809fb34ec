import { Schema, model, type InferSchemaType } from 'mongoose';

const customerAddressSchema = new Schema(
  {
    line1: String,
    line2: String,
    city: String,
    emirate: String,
    country: String,
    postalCode: String,
  },
  { _id: false },
);

/** A partner's customer record for one SME, upserted by externalRef (SPEC 4.1 POST /v1/partner/customers). */
const customerSchema = new Schema(
  {
    _id: { type: String, required: true }, // customerId (uuid)
    partnerId: { type: String, required: true },
    smeId: { type: String, required: true },
    externalRef: { type: String, required: true },
    name: { type: String, required: true },
    kind: { type: String, enum: ['buyer', 'seller', 'both'], required: true },
    country: { type: String, required: true },
    trn: { type: String, default: null },
    email: { type: String, default: null },
    phone: { type: String, default: null },
    address: { type: customerAddressSchema, default: undefined },
  },
  { timestamps: true, versionKey: false },
);
// The upsert key: one customer per externalRef per partner and SME, enforced by the database under concurrency.
customerSchema.index({ partnerId: 1, smeId: 1, externalRef: 1 }, { unique: true });

export type CustomerDoc = InferSchemaType<typeof customerSchema> & { _id: string; createdAt: Date; updatedAt: Date };
export const Customer = model('Customer', customerSchema, 'customers');
