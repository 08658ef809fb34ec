import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * One link of a seller TRN's evidence chain (src/records/chain-hash.ts: the hashed fields; chain-append.ts: the
 * append). Written once, never updated: `key` names the fact (invoice, run, kind, status) so a retried activity
 * or a repeated ASP callback appends it once. Kept after a retention purge (hashes and numbers only, no document),
 * since removing a link would break every later one.
 */
const evidenceChainEntrySchema = new Schema(
  {
    trn: { type: String, required: true },
    seq: { type: Number, required: true },
    kind: { type: String, enum: ['handover', 'asp_answer', 'deletion'], required: true },
    invoiceId: { type: String, required: true },
    number: { type: String, required: true },
    at: { type: String, required: true }, // ISO, kept as the exact string that was hashed
    data: { type: Schema.Types.Mixed, required: true },
    prevHash: { type: String, required: true },
    hash: { type: String, required: true },
    /** <invoiceId>:<run>:<kind>:<status>: the fact's identity, unique, so appends are idempotent. Not hashed. */
    key: { type: String, required: true },
  },
  { versionKey: false, minimize: false },
);
// The next seq is taken by inserting it: two appends racing for one seq cannot both win.
evidenceChainEntrySchema.index({ trn: 1, seq: 1 }, { unique: true });
evidenceChainEntrySchema.index({ key: 1 }, { unique: true });
evidenceChainEntrySchema.index({ invoiceId: 1 });

export type EvidenceChainEntryDoc = InferSchemaType<typeof evidenceChainEntrySchema>;
export const EvidenceChainEntry = model('EvidenceChainEntry', evidenceChainEntrySchema, 'evidence_chain');

/**
 * The maintenance schedule's check of each TRN's chain (src/records/scheduled-verify.ts): its verified head, so it
 * re-checks only new links between full passes; when the last full pass started; and a full pass still in progress
 * (where it stopped: a pass over a long chain takes several runs). Written by updates only; the head is absent
 * until the TRN's first full pass ends.
 */
const evidenceChainCheckSchema = new Schema(
  {
    _id: { type: String, required: true }, // trn
    seq: { type: Number },
    hash: { type: String },
    fullAt: { type: Date },
    pass: { type: new Schema({ seq: Number, hash: String, startedAt: Date }, { _id: false }), default: undefined },
  },
  { versionKey: false },
);
export const EvidenceChainCheck = model('EvidenceChainCheck', evidenceChainCheckSchema, 'evidence_chain_checks');
