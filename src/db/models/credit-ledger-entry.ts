import { Schema, model, type InferSchemaType } from 'mongoose';
import { CREDIT_ENTRY_KINDS, CREDIT_OWNER_KINDS } from '../../domain/credits';

/**
 * The audit trail of delivery credits: one document per top-up and per spend. The balance itself is the
 * counter on the owner's document (SmeConnection.credits), changed by single-document conditional updates that
 * the store contract (test/store/) proves atomic; this collection says why it moved.
 *
 * _id: `topup:<uuid>`, or `spend:<invoiceId>:<run>` (src/domain/credits.ts spendEntryId): the unique _id is
 * the claim that makes a run's spend happen once. A spend without balanceAfter is a claim in flight, or one
 * whose attempt died before it could record the balance (see services/credits.ts).
 */
const creditLedgerEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    ownerKind: { type: String, enum: CREDIT_OWNER_KINDS, required: true },
    ownerId: { type: String, required: true },
    kind: { type: String, enum: CREDIT_ENTRY_KINDS, required: true },
    amount: { type: Number, required: true },
    balanceAfter: { type: Number },
    invoiceId: { type: String },
    run: { type: Number },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
// recentEntries(owner, limit): one owner's entries, newest first.
creditLedgerEntrySchema.index({ ownerKind: 1, ownerId: 1, at: -1 });

export type CreditLedgerEntryDoc = InferSchemaType<typeof creditLedgerEntrySchema> & { _id: string };
export const CreditLedgerEntry = model('CreditLedgerEntry', creditLedgerEntrySchema, 'credit_ledger');
