import { randomUUID } from 'node:crypto';
import { Customer, type CustomerDoc } from '../db/models';
import { isDuplicateKeyError } from '../db/duplicate-key';
import type { CustomerAddress, CustomerUpsertBody } from '../domain/customer-schema';

export interface CustomerOwner {
  partnerId: string;
  smeId: string;
}

/** SPEC 2.1 Customer. */
export interface CustomerView {
  customerId: string;
  externalRef: string;
  name: string;
  kind: string;
  country: string;
  trn: string | null;
  email: string | null;
  phone: string | null;
  address?: CustomerAddress;
  createdAt: string;
  updatedAt: string;
}

/**
 * Creates or replaces the customer with this externalRef for this partner and SME; the customerId stays the same.
 * The body is the full representation: optional fields left out go back to their defaults (PUT semantics).
 */
export async function upsertCustomer(owner: CustomerOwner, body: CustomerUpsertBody): Promise<CustomerView> {
  const filter = { partnerId: owner.partnerId, smeId: owner.smeId, externalRef: body.externalRef };
  const $set = { name: body.name, kind: body.kind, country: body.country, trn: body.trn, email: body.email, phone: body.phone, ...(body.address ? { address: body.address } : {}) };
  const update = { $set, $setOnInsert: { _id: randomUUID() }, ...(body.address ? {} : { $unset: { address: 1 } }) };
  for (let attempt = 0; ; attempt++) {
    try {
      const doc = await Customer.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' }).lean<CustomerDoc>();
      return customerView(doc!);
    } catch (err) {
      // Two first upserts of one externalRef: the loser hits the unique index and then updates the winner's row.
      if (!isDuplicateKeyError(err) || attempt >= 3) throw err;
    }
  }
}

export async function findCustomer(owner: CustomerOwner, externalRef: string): Promise<CustomerView | null> {
  const doc = await Customer.findOne({ partnerId: owner.partnerId, smeId: owner.smeId, externalRef }).lean<CustomerDoc>();
  return doc ? customerView(doc) : null;
}

function customerView(doc: CustomerDoc): CustomerView {
  return {
    customerId: doc._id,
    externalRef: doc.externalRef,
    name: doc.name,
    kind: doc.kind,
    country: doc.country,
    trn: doc.trn ?? null,
    email: doc.email ?? null,
    phone: doc.phone ?? null,
    ...(doc.address ? { address: compactAddress(doc.address as CustomerAddress) } : {}),
    createdAt: new Date(doc.createdAt).toISOString(),
    updatedAt: new Date(doc.updatedAt).toISOString(),
  };
}

function compactAddress(a: CustomerAddress): CustomerAddress {
  const out: Record<string, string> = {};
  for (const k of ['line1', 'line2', 'city', 'emirate', 'country', 'postalCode'] as const) {
    const v = a[k];
    if (v !== undefined && v !== null) out[k] = v;
  }
  return out as unknown as CustomerAddress;
}
