// POST /v1/credit-notes (SPEC 2.2 Credit-note body, 4.2): a credit note against one of the caller's delivered
// invoices, built from the original's stored body (domain/credit-note-input.ts), stored like a tenant draft and
// submitted at once, so it goes through the same pipeline (rendered as a PINT-AE CreditNote).
//
// Decisions (docs/decisions/0031-tenant-credit-notes.md):
// - The original is looked up by number in the caller's scope (tenant and active mode): 404
//   original_invoice_not_found otherwise, also when it exists in another mode (SPEC 1: modes are partitioned).
// - It must be a sale (tax or simplified tax invoice), not a purchase or a note: 409 original_not_creditable;
//   and delivered or acknowledged (the only invoices the authority has): 409 original_not_delivered.
// - What is left to credit: the original's total less the totals of every credit note against it in the same
//   scope (tenantInvoiceType credit_note and precedingInvoiceNumber = its number, so notes posted with lines
//   through POST /v1/invoices count too) that is not rejected. Drafts count: a draft note is one whose start
//   failed or one not yet submitted, and either may still be sent. Numbers are unique per tenant and mode, so
//   the number names the original exactly; no new field on Invoice is needed. Two concurrent notes against one
//   invoice may each see the same amount left (no lock); the authority accepts a note either way.
// - Idempotency-Key is required (SPEC 1: every mutation; the route uses idempotent(), 422
//   idempotency_required without one), even though SPEC 4.2 lists no header for this endpoint.
// - Answer: 202 with the draft view plus originalInvoiceId, originalInvoiceNumber, reason and grossAmount (as
//   sent, negative); status queued, or draft when the pipeline could not start (then POST /v1/invoices/submit).
import { Invoice } from '../db/models';
import { tenantNumbers, type TenantOwner } from '../domain/owner';
import { isDuplicateKeyError } from '../db/duplicate-key';
import { buildCreditNoteBody, grossFils, type CreditNoteInput } from '../domain/credit-note-input';
import { ServiceError, serviceErrors } from '../domain/errors';
import { type InvoiceCreateBody, preSubmitCheck } from '@einvoice/pint-ae';
import { checkIssueDate, warningsField } from '../domain/submission-rules';
import { assertProviderConfigured } from './provider-configured';
import { numberTaken } from './duplicate-number';
import { tenantNames } from './invoice-workflow-display';
import { totalsOf, tenantDraftView, type TenantDraftView, type TenantInvoiceRecord } from '../domain/tenant-invoice-views';
import { draftDocument, submitDraft, tenantNumberRule } from './tenant-invoices';

/** The 202 answer: the draft view of the note and what it credits. */
export interface TenantCreditNoteView extends TenantDraftView {
  originalInvoiceId: string;
  originalInvoiceNumber: string;
  reason: string;
  /** As sent: negative. */
  grossAmount: number;
}

/** Statuses in which the authority has the original (SPEC 3.1 success terminals). */
const CREDITABLE_STATUSES = ['delivered', 'acknowledged'];
/** Document types a credit note may credit: the seller's invoices. */
const CREDITABLE_DOCUMENTS = ['tax_invoice', 'simplified_tax_invoice'];

interface OriginalRecord {
  _id: string;
  number: string;
  status: string;
  tenantInvoiceType?: string | null;
  body: InvoiceCreateBody;
}

export async function createCreditNote(caller: TenantOwner, input: CreditNoteInput): Promise<TenantCreditNoteView> {
  const numbers = tenantNumbers(caller);
  const original = await Invoice.findOne({ ...numbers, number: input.originalInvoiceNumber }, { _id: 1, number: 1, status: 1, tenantInvoiceType: 1, body: 1 }).lean<OriginalRecord>();
  if (!original) {
    throw new ServiceError(404, 'original_invoice_not_found', 'Not found', `No invoice numbered ${input.originalInvoiceNumber} in ${caller.mode} mode; a credit note credits an invoice of the same mode.`, {
      originalInvoiceNumber: input.originalInvoiceNumber,
      mode: caller.mode,
    });
  }
  const type = original.tenantInvoiceType ?? 'sale';
  if (type !== 'sale' || !CREDITABLE_DOCUMENTS.includes(original.body.documentType ?? '')) {
    throw serviceErrors.conflict('original_not_creditable', `Invoice ${original.number} is a ${type} (${original.body.documentType ?? 'unknown document type'}); only sales (tax or simplified tax invoices) can be credited.`, {
      originalInvoiceId: original._id,
      invoiceType: type,
      documentType: original.body.documentType ?? null,
    });
  }
  if (!CREDITABLE_STATUSES.includes(original.status)) {
    throw serviceErrors.conflict('original_not_delivered', `Invoice ${original.number} is ${original.status}; only a delivered or acknowledged invoice can be credited${original.status === 'draft' ? ' (a draft can be corrected and submitted instead)' : ''}.`, {
      originalInvoiceId: original._id,
      status: original.status,
    });
  }
  assertProviderConfigured(caller.mode);

  const built = buildCreditNoteBody({ body: original.body, alreadyCreditedFils: await creditedSoFar(numbers, original.number) }, input);
  if ('refusal' in built) {
    const { code, message, errors, meta } = built.refusal;
    throw new ServiceError(400, code, 'Invalid request', message, { ...meta, errors });
  }
  const warnings = checkIssueDate(built.body.issueDate); // 400 issue_date_out_of_range, or late_issuance
  const held = preSubmitCheck(built.body);
  if (held) {
    throw new ServiceError(422, 'pint_ae_validation_failed', 'Unprocessable', `PINT-AE would refuse this credit note: ${held.heldErrors[0]?.message ?? held.heldReason}${held.heldErrors.length > 1 ? ` (and ${held.heldErrors.length - 1} more; see errors)` : ''}`, { errors: held.heldErrors });
  }

  const totals = totalsOf(built.body);
  const draft = { number: input.creditNoteNumber, invoiceType: 'credit_note' as const, body: built.body, totals, profile: 'standard' as const, shape: 'standard' as const };
  const doc = draftDocument(caller, draft, input);
  try {
    await Invoice.create(doc);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    throw await numberTaken(tenantNumberRule(caller), input.creditNoteNumber);
  }
  const started = await submitDraft({ _id: doc._id, number: input.creditNoteNumber, sellerTrn: doc.sellerTrn as string, mode: caller.mode, tenantId: caller.tenant._id, body: built.body, names: tenantNames(caller.tenant) });
  return {
    ...tenantDraftView({ ...(doc as unknown as TenantInvoiceRecord), status: started ? 'queued' : 'draft' }),
    originalInvoiceId: original._id,
    originalInvoiceNumber: original.number,
    reason: input.reason,
    grossAmount: input.totals.grossAmount,
    ...warningsField(warnings),
  };
}

/** VAT-inclusive totals (fils) of the credit notes against `number` in this scope that are not rejected. */
async function creditedSoFar(numbers: ReturnType<typeof tenantNumbers>, number: string): Promise<bigint> {
  const notes = await Invoice.find({ ...numbers, tenantInvoiceType: 'credit_note', 'body.precedingInvoiceNumber': number, status: { $ne: 'rejected' } }, { 'body.lines': 1 }).lean<{ body: Pick<InvoiceCreateBody, 'lines'> }[]>();
  let sum = 0n;
  for (const n of notes) sum += grossFils(n.body);
  return sum;
}
