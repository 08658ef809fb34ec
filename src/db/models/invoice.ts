import { Schema, model, type InferSchemaType } from 'mongoose';
import { INVOICE_STATUSES, type InvoiceStatus } from '../../domain/invoice-status';
import { LISTABLE_STATUSES, listStatusOf } from '../../domain/invoice-list-query';

export { INVOICE_STATUSES, type InvoiceStatus };

const historyEntrySchema = new Schema(
  {
    status: { type: String, enum: INVOICE_STATUSES, required: true },
    at: { type: Date, required: true },
    reason: { type: String, default: null },
    run: { type: Number, required: true }, // pipeline run (1 + number of retries)
  },
  { _id: false },
);

/** The system of record for an invoice: what the API answers with, never Temporal. */
const invoiceSchema = new Schema(
  {
    _id: { type: String, required: true }, // invoiceId (uuid)
    // Whose invoice (src/domain/owner.ts): Partner API, the partner and its connected SME (tenantId null); Tenant
    // API, the tenant and mode (partnerId and smeId null).
    partnerId: { type: String, default: null },
    smeId: { type: String, default: null },
    tenantId: { type: String, default: null },
    mode: { type: String, enum: ['test', 'sandbox', 'live'], required: true },
    number: { type: String, required: true },
    // The number is unique per scope and period (owner.ts numberKey): an SME's per issue year (SPEC 2.1), a tenant's
    // per mode with one period, 0 (SPEC 2.2). The scope is also the owner's partition every list index starts with.
    numberScope: { type: String, required: true },
    numberPeriod: { type: Number, required: true },
    issueDate: { type: String, required: true },
    sellerTrn: { type: String, required: true },
    status: { type: String, enum: INVOICE_STATUSES, required: true },
    reason: { type: String, default: null },
    run: { type: Number, default: 1 },
    history: { type: [historyEntrySchema], default: [] },
    body: { type: Schema.Types.Mixed, required: true },
    externalRef: { type: String, default: null },
    /** The idempotent request that created it (services/idempotency originKey): a resend after a crash adopts it. */
    originKey: { type: String, default: null },
    documentUuid: { type: String, default: null },
    // Held by the pre-submit check (SPEC 3.1): kept as a draft so its number stays reserved until the
    // partner DELETEs it and POSTs a corrected body; never enters the pipeline.
    heldReason: { type: String, default: null },
    heldErrors: { type: [{ _id: false, code: String, path: String, message: String }], default: undefined },
    // What the lists filter on (invoice-list-query.ts listStatusOf): `held` for a held draft, else the status. Derived
    // at create from the two; the status writer sets it with the status (a held draft never moves).
    listStatus: {
      type: String,
      enum: [...LISTABLE_STATUSES],
      required: true,
      default: function (this: { status: InvoiceStatus; heldReason?: string | null }) {
        return listStatusOf(this);
      },
    },
    /** The ASP's id for the current run's hand-over: its acknowledgement must name it. */
    aspSubmissionId: { type: String, default: null },
    /** The authority's acknowledgement reference, once the ASP reports the invoice (also in its evidence). */
    ackRef: { type: String, default: null },
    /** Tenant API: the X-Service-Source header of the create call (which connector sent it). */
    source: { type: String, default: null },
    /** Tenant API: the invoice type as the tenant sent it (sale, purchase, credit_note, debit_note). */
    tenantInvoiceType: { type: String, default: null },
    /** Tenant API: the JSON body as the tenant sent it (either payload shape), kept beside the mapped `body`; null for CSV rows. */
    tenantInput: { type: Schema.Types.Mixed, default: null },
    /** Pipeline run whose delivery credit is charged (live mode), so a retried activity charges once. */
    creditChargedRun: { type: Number, default: null },
    /** Legal hold on this invoice alone (src/records/retention.ts): never removed while set. */
    legalHold: { type: Boolean, default: false },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
// Number uniqueness (SPEC 2.1, 2.2) is enforced by the database, so concurrent creates cannot both win.
invoiceSchema.index({ numberScope: 1, numberPeriod: 1, number: 1 }, { unique: true });
// Lists: one owner's invoices newest first (owner.ts ownerFilter: the owner's number scope).
invoiceSchema.index({ numberScope: 1, createdAt: -1, _id: -1 });
// `einvoice ops stuck` and reconcile: non-terminal invoices by age (invoice-ops.ts nonTerminalFilter), held drafts
// apart, so a walk reads only the invoices it lists.
invoiceSchema.index({ listStatus: 1, updatedAt: 1 });
// List filters the keyset order cannot narrow (`number=`, `from`/`to`): the matching invoices are found from these,
// instead of walking the owner's invoices newest first until enough match. A from/to window also names each of its
// days (listFilter), so the store walks this index newest first once per day and merges (MongoDB's SORT_MERGE,
// our FerretDB patch's split): the cost stays that of one page, not of the invoices inside the window.
invoiceSchema.index({ numberScope: 1, number: 1 });
invoiceSchema.index({ numberScope: 1, issueDate: 1, createdAt: -1, _id: -1 });
// `status=` filters, one or several (walked once per listed status and merged), held and other drafts apart: a rare
// status costs a page, not a walk of the owner's newest invoices (or of its drafts of the other kind) until enough
// match. Also an owner's blocked invoices, oldest first (credit-release.ts).
invoiceSchema.index({ numberScope: 1, listStatus: 1, createdAt: -1, _id: -1 });

export type InvoiceDoc = InferSchemaType<typeof invoiceSchema> & { _id: string };
export const Invoice = model('Invoice', invoiceSchema, 'invoices');
