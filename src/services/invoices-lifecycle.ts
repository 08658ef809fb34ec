// DELETE and retry (SPEC 3.1 last rows): state rules checked against the stored status, and the workflow
// stopped or resumed to match.
import { AspSubmission, Invoice, InvoiceDocument, type InvoiceStatus } from '../db/models';
import { canonicalJson, sha256Hex } from '../records/chain-hash';
import { chainDeletion } from '../records/evidence-chain';
import { retentionPolicies } from '../records/retention-policy';
import { invoiceQueued, type InvoiceQueued } from '../domain/invoice-views';
import { ServiceError, serviceErrors } from '../domain/errors';
import { logger } from '../logger';
import { advanceInvoiceStatus, isStatusChangeError } from './invoice-status-writer';
import { enterPipeline } from './enter-pipeline';
import { budgetHeaders, consumeBudget } from './rate-budget';
import { ownerFilter, ownerLabel, type Owner, type OwnerRef, type PartnerOwner } from '../domain/owner';
import { assertProviderConfigured } from './provider-configured';
import { findOwnedInvoice } from './invoices-query';
import { terminateInvoiceWorkflow, type WorkflowInvoice } from '../temporal/client';
import { BODY_DISPLAY_FIELDS, invoiceDisplay, partnerNames, type OwnerNames } from './invoice-workflow-display';

const DELETABLE: readonly InvoiceStatus[] = ['draft', 'queued', 'blocked_no_credit', 'rejected'];
export const RETRYABLE: readonly InvoiceStatus[] = ['rejected', 'blocked_no_credit', 'draft'];
/** SPEC 8: at most 3 retries per hour per invoice. */
const RETRY_LIMIT = { limit: 3, windowMs: 60 * 60 * 1000 };

const invalidTransition = (action: string, status: string, allowed: readonly string[], hint: string) =>
  serviceErrors.conflict('invalid_state_transition', `Cannot ${action} an invoice that is ${status}; allowed from ${allowed.join(', ')}. ${hint}`, { status });

/**
 * Removes an invoice that never reached the ASP (issue 34): one handed over in any run is a tax record, never
 * removed (409 handed_over: a credit note reverses it), nor is one under legal hold. The deletion record (the
 * archive in deleted_invoices and its evidence-chain entry) is written before the removal, so a crash between
 * loses nothing; the removal frees the number (a held invoice's, SPEC 3.1).
 */
export async function deleteInvoice(owner: Owner | OwnerRef, invoiceId: string, by = ownerLabel(owner)): Promise<void> {
  const inv = await findOwnedInvoice<DeletedInvoice>(owner, invoiceId, {});
  const refuse = (status: string) => invalidTransition('delete', status, DELETABLE, 'A delivered invoice is reversed with a credit note.');
  // Handed over first: a delivered or acknowledged invoice is refused for that reason (issue 34), not its status.
  const runs = await handedOverRuns(inv._id);
  if (runs.length) throw handedOver(inv, runs);
  if (!DELETABLE.includes(inv.status as InvoiceStatus)) throw refuse(inv.status);
  if ((await retentionPolicies()(inv)).hold) {
    throw serviceErrors.conflict('legal_hold', 'This invoice (or its seller) is under legal hold: nothing of it may be removed until an operator lifts the hold (einvoice records hold --off).', { status: inv.status });
  }
  const document = await InvoiceDocument.findById(inv._id, { xml: 1, documentUuid: 1, run: 1 }).lean();
  // The deletion record first. Written again by a repeated DELETE, the same record (the chain appends it once).
  const archive = { ...(inv as Record<string, unknown>), document: document ?? null, deletedAt: new Date(), deletedBy: by };
  await Invoice.db.collection('deleted_invoices').replaceOne({ _id: inv._id } as never, archive, { upsert: true });
  await chainDeletion({ trn: inv.sellerTrn, invoiceId: inv._id, number: inv.number, by, bodySha256: sha256Hex(canonicalJson(inv.body)), status: inv.status });
  // Conditional on the status, so a workflow that moves the invoice on meanwhile wins and the DELETE is refused.
  const removed = await Invoice.findOneAndDelete({ _id: inv._id, ...ownerFilter(owner), status: { $in: DELETABLE } }).lean();
  if (!removed) {
    const now = await Invoice.findById(inv._id, { status: 1 }).lean();
    if (!now) return; // a concurrent DELETE removed it
    await markDeletionAborted(inv._id);
    throw refuse(now.status);
  }
  // blocked_no_credit may be delivered after a top-up without leaving that status first: a hand-over that began
  // while this DELETE ran puts the invoice back, and the DELETE is refused after all.
  const late = await handedOverRuns(inv._id);
  if (late.length) {
    await Invoice.create(removed);
    await markDeletionAborted(inv._id);
    throw handedOver(inv, late);
  }
  await InvoiceDocument.deleteOne({ _id: inv._id }).catch((err: unknown) => logger.warn({ err, invoiceId: inv._id }, 'document of a deleted invoice not removed (its copy is in deleted_invoices)'));
  // If Temporal is away the workflow ends by itself: its next activity finds the invoice gone.
  await terminateInvoiceWorkflow(inv._id, 'invoice deleted through the Partner API').catch((err: unknown) =>
    logger.warn({ err, invoiceId: inv._id }, 'workflow of a deleted invoice not terminated'),
  );
}

type DeletedInvoice = { _id: string; status: string; number: string; sellerTrn: string; body: unknown; smeId?: string | null; partnerId?: string | null; tenantId?: string | null; legalHold?: boolean | null };

/** The runs whose document went to the ASP (an evidence record is opened before the document leaves). */
async function handedOverRuns(invoiceId: string): Promise<number[]> {
  const rows = await AspSubmission.find({ invoiceId }, { run: 1 }).lean<{ run: number }[]>();
  return rows.map((r) => r.run).sort((a, b) => a - b);
}

function handedOver(inv: { status: string; number: string }, runs: number[]): ServiceError {
  return serviceErrors.conflict(
    'handed_over',
    `Invoice ${inv.number} was handed over to the ASP (run ${runs.join(', ')}): it is a tax record and is kept, with its number. To reverse it, issue a credit note (documentType credit_note, precedingInvoiceNumber ${inv.number}).`,
    { status: inv.status, runs },
  );
}

/** The deletion record of a DELETE that lost to the workflow: kept (the chain entry stays), marked so. */
async function markDeletionAborted(invoiceId: string): Promise<void> {
  await Invoice.db.collection('deleted_invoices').updateOne({ _id: invoiceId } as never, { $set: { deletionAborted: true } })
    .catch((err: unknown) => logger.warn({ err, invoiceId }, 'aborted deletion not marked'));
}

/**
 * rejected / blocked_no_credit / draft -> queued, then the workflow is told (or started). At most 3 per hour
 * per invoice: refused attempts (wrong state) do not count, since nothing was retried.
 */
export async function retryInvoice(owner: PartnerOwner, invoiceId: string): Promise<InvoiceQueued> {
  return retryOwnedInvoice(owner, invoiceId, {
    statuses: RETRYABLE,
    assertConfigured: () => assertProviderConfigured(owner.partner.mode),
    againHint: 'POST /v1/partner/invoices/{id}/retry again',
    names: partnerNames(owner.partner, owner.sme),
  });
}

/** What a surface allows a retry from, and how it tells the caller to try again. */
export interface RetryRules {
  statuses: readonly InvoiceStatus[];
  /** Throws when the invoice's mode has no provider configured (checked after the state, before the budget). */
  assertConfigured?: () => void;
  againHint: string;
  /** The owner's names for the Web UI (memo, details) should a new workflow start. */
  names?: OwnerNames;
}

/** The retry of the caller's invoice (Partner and Tenant API): state rules, the hourly budget, then a new run. */
export async function retryOwnedInvoice(owner: Owner | OwnerRef, invoiceId: string, rules: RetryRules): Promise<InvoiceQueued> {
  const inv = await findOwnedInvoice<WorkflowInvoice & { heldReason?: string | null; body?: unknown }>(owner, invoiceId, { number: 1, status: 1, sellerTrn: 1, mode: 1, partnerId: 1, tenantId: 1, heldReason: 1, ...BODY_DISPLAY_FIELDS });
  if (inv.heldReason) {
    throw serviceErrors.conflict('invoice_held', 'A held invoice cannot be retried: DELETE it and POST a corrected body (see heldErrors).', { status: 'held', heldReason: inv.heldReason });
  }
  if (!rules.statuses.includes(inv.status as InvoiceStatus)) throw invalidTransition('retry', inv.status, rules.statuses, 'Retry is for failed invoices.');
  rules.assertConfigured?.();
  const budget = await consumeBudget({ bucket: `retry:${inv._id}`, ...RETRY_LIMIT });
  if (!budget.allowed) {
    throw new ServiceError(
      429,
      'retry_rate_limited',
      'Too many retries',
      `An invoice may be retried ${RETRY_LIMIT.limit} times an hour; retry after ${budget.retryAfterSeconds} seconds.`,
      { limit: RETRY_LIMIT.limit, retryAfterSeconds: budget.retryAfterSeconds },
      { ...budgetHeaders(RETRY_LIMIT, budget, 'invoice-retry'), 'Retry-After': String(budget.retryAfterSeconds) },
    );
  }
  const run = await requeue(inv._id);
  const { body, ...facts } = inv;
  const display = invoiceDisplay(body, rules.names ?? {});
  const entry = await enterPipeline({ ...facts, display }, { retryRun: run, ifNotStarted: `retry could not start the pipeline; ${rules.againHint}` });
  return invoiceQueued({ _id: inv._id, number: inv.number, status: entry.status });
}

/** The forward-only move to queued (a new run when leaving a failure). Exactly one of two racing retries wins it. */
export async function requeue(invoiceId: string): Promise<number> {
  const conflict = (status: string) => invalidTransition('retry', status, RETRYABLE, status === 'queued' ? 'It is already queued.' : 'Retry is for failed invoices.');
  let moved;
  try {
    moved = await advanceInvoiceStatus({ invoiceId, to: 'queued', reason: null });
  } catch (err) {
    if (!isStatusChangeError(err)) throw err;
    if (err.kind === 'invoice_not_found') throw serviceErrors.notFound();
    const now = await Invoice.findById(invoiceId, { status: 1 }).lean();
    if (!now) throw serviceErrors.notFound();
    throw conflict(now.status);
  }
  if (!moved.changed) throw conflict('queued');
  return moved.run;
}
