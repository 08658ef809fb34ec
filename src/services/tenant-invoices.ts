// The Tenant API's invoices (SPEC 4.2): drafts that a separate submit moves into the same pipeline as the Partner
// API's, partitioned per tenant and mode (SPEC 1): every read and write is scoped to the tenant's active mode.
import { randomUUID } from 'node:crypto';
import { Invoice, type TenantDoc } from '../db/models';
import { numberKey, ownerFields, ownerFilter, tenantNumbers, type TenantOwner } from '../domain/owner';
import { isDuplicateKeyError } from '../db/duplicate-key';
import { ServiceError, serviceErrors } from '../domain/errors';
import type { InvoiceListQuery } from '../domain/invoice-list-query';
import { preSubmitCheck } from '@einvoice/pint-ae';
import { checkIssueDate, warningsField } from '../domain/submission-rules';
import { readTenantInvoice, tenantPathOf } from '../domain/tenant-invoice-input';
import type { ReferencedOriginal, TenantDraft, TenantMode } from '../domain/tenant-invoice-types';
import { creditCapFinding, reverseChargeFindings } from '../domain/tenant-rule-checks';
import { tenantDraftView, tenantInvoiceView, type TenantDraftView, type TenantInvoiceRecord, type TenantInvoiceView } from '../domain/tenant-invoice-views';
import { advanceInvoiceStatus, isStatusChangeError } from './invoice-status-writer';
import { enterPipeline } from './enter-pipeline';
import { assertProviderConfigured } from './provider-configured';
import { numberTaken, type NumberUniqueness } from './duplicate-number';
import { findOwnedInvoice, listPage } from './invoices-query';
import { retryOwnedInvoice } from './invoices-lifecycle';
import { mapLimited } from './map-limited';
import { BODY_DISPLAY_FIELDS, invoiceDisplay, tenantNames, type OwnerNames } from './invoice-workflow-display';
import { referencedOriginals } from './tenant-referenced-originals';
import { tenantRegistration } from './tenants';

/** SPEC 8: ids per submit call. */
export const MAX_SUBMIT_IDS = 200;
/** Workflow starts in flight at once for one submit call. */
const START_CONCURRENCY = 16;

/**
 * The mode a POST writes to: the tenant's active mode. `?mode=` may only name it (SPEC 4.2): live data while the
 * tenant is in a sandbox mode, or the other way round, is 409 invoice_mode_mismatch, so nothing lands where the
 * tenant cannot see it.
 */
export function requestedMode(tenant: TenantDoc, asked: string | undefined): TenantMode {
  const active = tenant.mode as TenantMode;
  if (asked !== undefined && asked !== active) {
    throw serviceErrors.conflict('invoice_mode_mismatch', `This tenant is in ${active} mode; ${asked} invoices are refused. Send ?mode=${active} (or none), or ask us to switch the tenant to ${asked}.`, { mode: active, requested: asked });
  }
  return active;
}

/** Pre-submit findings the Tenant reverse-charge check reports in the tenant's words (lines[i].hsCode, goodsType). */
const COVERED_BY_TENANT_CHECKS = new Set(['classification_code_required', 'goods_type_unknown']);

/**
 * Reads a body (either payload shape), or throws the SPEC 7.2 refusal: 400 with its code and every finding,
 * 403 when the invoice's TRN is not the tenant's, 422 when PINT-AE's rules would refuse it (errors[]), when a
 * note references an invoice the service does not hold and sends no date for it, or credits more than is left.
 * `originals`: the invoices notes reference (referencedOriginals).
 */
export function readDraft(caller: TenantOwner, input: unknown, originals: ReadonlyMap<string, ReferencedOriginal> = new Map()): TenantDraft {
  const read = readTenantInvoice(input, tenantRegistration(caller.tenant), originals);
  if ('refusal' in read) {
    const { code, errors } = read.refusal;
    throw new ServiceError(400, code, 'Invalid request', `${errors[0]?.message ?? 'The body was refused'}${errors.length > 1 ? ` (and ${errors.length - 1} more; see errors)` : ''}`, { errors });
  }
  const { draft } = read;
  if (draft.body.trn !== caller.tenant.trn) {
    const path = draft.body.invoiceType === 'purchase' ? 'buyer.trn' : 'seller.trn';
    throw new ServiceError(403, 'trn_mismatch', 'Forbidden', `${path} ${draft.body.trn} is not the TRN this tenant is registered with (${caller.tenant.trn}); one tenant is one TRN.`, { path });
  }
  checkIssueDate(draft.body.issueDate); // 400 issue_date_out_of_range (same path in both shapes and the CSV column)
  const preceding = draft.body.precedingInvoiceNumber;
  if (preceding && !draft.body.precedingInvoiceIssueDate) {
    const message = `referencedInvoiceNumber ${preceding}: no invoice with this number in ${caller.mode} mode; send the number of one of this tenant's ${caller.mode} invoices, or, for an invoice issued outside this service, add referencedInvoiceIssueDate (YYYY-MM-DD) (a ${draft.invoiceType === 'debit_note' ? 'debit' : 'credit'} note names the invoice it adjusts and its date: PINT-AE ibr-055-ae, IBT-025/IBT-026)`;
    throw new ServiceError(422, 'original_invoice_not_found', 'Unprocessable', message, { errors: [{ code: 'original_invoice_not_found', path: 'referencedInvoiceNumber', message }] });
  }
  const cap = creditCapFinding(draft, preceding ? originals.get(preceding) : undefined);
  if (cap) throw new ServiceError(422, 'credit_exceeds_original', 'Unprocessable', cap.message, { errors: [cap] });
  const own = reverseChargeFindings(draft.body, draft.shape);
  const held = preSubmitCheck(draft.body);
  if (held || own.length) {
    const fromRules = (held?.heldErrors ?? []).filter((e) => !COVERED_BY_TENANT_CHECKS.has(e.code)).map((e) => ({ ...e, path: tenantPathOf(e.path, draft.shape) }));
    const errors = [...own, ...fromRules];
    throw new ServiceError(422, 'pint_ae_validation_failed', 'Unprocessable', `PINT-AE would refuse this invoice: ${errors[0]?.message ?? held?.heldReason}${errors.length > 1 ? ` (and ${errors.length - 1} more; see errors)` : ''}`, { errors });
  }
  return draft;
}

/** The invoice document of a new draft. */
export function draftDocument(caller: TenantOwner, draft: TenantDraft, input: unknown, now = new Date()): Record<string, unknown> & { _id: string } {
  return {
    _id: randomUUID(),
    ...ownerFields(caller),
    mode: caller.mode,
    ...numberKey(caller, draft.number, draft.body.issueDate), // unique per tenant and mode, whatever the year (SPEC 2.2)
    issueDate: draft.body.issueDate,
    sellerTrn: draft.body.seller?.trn ?? caller.tenant.trn,
    status: 'draft',
    history: [{ status: 'draft', at: now, reason: null, run: 1 }],
    body: draft.body,
    tenantInput: input,
    tenantInvoiceType: draft.invoiceType,
    source: caller.source ?? null,
  };
}

/** Tenant numbers are unique per tenant and mode, whatever the year (SPEC 2.2). */
export function tenantNumberRule(caller: TenantOwner): NumberUniqueness {
  return { where: tenantNumbers(caller), usedBy: `this tenant in ${caller.mode} mode`, rule: 'per tenant and mode.' };
}

/** POST /v1/invoices: stores a draft; nothing is sent to the authority until it is submitted. */
export async function createDraft(caller: TenantOwner, input: unknown): Promise<TenantDraftView> {
  const draft = readDraft(caller, input, await referencedOriginals(caller, [input]));
  const doc = draftDocument(caller, draft, input);
  try {
    await Invoice.create(doc);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    throw await numberTaken(tenantNumberRule(caller), draft.number);
  }
  return { ...tenantDraftView(doc as unknown as TenantInvoiceRecord), ...warningsField(checkIssueDate(draft.body.issueDate)) };
}

/**
 * POST /v1/invoices/submit: each of the caller's drafts moves to queued and its workflow starts. Ids that are not
 * a draft of the caller (already submitted, unknown, another tenant's or mode's) are skipped silently (SPEC 3.1).
 * A start that fails leaves that invoice a draft, to be submitted again; it is not counted.
 */
export async function submitDrafts(caller: TenantOwner, ids: string[]): Promise<{ submitted: number; ids: string[] }> {
  assertProviderConfigured(caller.mode);
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const drafts = await Invoice.find({ _id: { $in: unique }, ...ownerFilter(caller), status: 'draft' }, { _id: 1, number: 1, sellerTrn: 1, mode: 1, tenantId: 1, ...BODY_DISPLAY_FIELDS }).lean();
  const names = tenantNames(caller.tenant);
  const started = await mapLimited(drafts, START_CONCURRENCY, async (inv) => ((await submitDraft({ ...inv, names })) ? inv._id : null));
  const submitted = started.filter((id): id is string => id !== null);
  return { submitted: submitted.length, ids: submitted };
}

/** The facts of a stored draft that its submission needs (body and tenant's names: the Web UI's summary and memo). */
export interface DraftToSubmit {
  _id: string;
  number: string;
  sellerTrn: string;
  mode: string;
  tenantId?: string | null;
  body?: unknown;
  names: OwnerNames;
}

/**
 * draft -> queued, then the workflow starts. False when another call moved it first (or it was deleted), or when
 * the start failed: the invoice is then a draft again, to be submitted again.
 */
export async function submitDraft(inv: DraftToSubmit): Promise<boolean> {
  try {
    const moved = await advanceInvoiceStatus({ invoiceId: inv._id, to: 'queued', reason: null, expected: { status: 'draft', run: 1 } });
    if (!moved.changed) return false;
  } catch (err) {
    if (isStatusChangeError(err)) return false; // submitted or deleted concurrently: skipped
    throw err;
  }
  const facts = { _id: inv._id, number: inv.number, sellerTrn: inv.sellerTrn, tenantId: inv.tenantId, mode: inv.mode, display: invoiceDisplay(inv.body, inv.names) };
  return (await enterPipeline(facts, { ifNotStarted: 'submit could not start the pipeline; submit it again' })).started;
}

export async function getTenantInvoice(caller: TenantOwner, invoiceId: string): Promise<TenantInvoiceView> {
  return tenantInvoiceView(await findOwnedInvoice<TenantInvoiceRecord>(caller, invoiceId, { tenantInput: 0 }));
}

export async function listTenantInvoices(caller: TenantOwner, q: InvoiceListQuery): Promise<{ data: TenantDraftView[]; nextCursor: string | null }> {
  const { page, nextCursor } = await listPage<TenantInvoiceRecord>(caller, q, { tenantInput: 0, history: 0 });
  // ackRef once acknowledged (TEST-… in test mode), as GET shows it.
  return { data: page.map((inv) => ({ ...tenantDraftView(inv), ...(inv.ackRef ? { ackRef: inv.ackRef } : {}) })), nextCursor };
}

/** POST /v1/invoices/{id}/retry: a rejected or blocked invoice starts a new pipeline run (3 an hour, SPEC 8). */
export async function retryTenantInvoice(caller: TenantOwner, invoiceId: string): Promise<TenantInvoiceView> {
  await retryOwnedInvoice(caller, invoiceId, {
    statuses: ['rejected', 'blocked_no_credit'],
    assertConfigured: () => assertProviderConfigured(caller.mode),
    againHint: 'POST /v1/invoices/submit with its id',
    names: tenantNames(caller.tenant),
  });
  return getTenantInvoice(caller, invoiceId);
}
