// Creating Partner API invoices (SPEC 3.1 first rows): checks that need the caller, the insert that enforces
// number uniqueness, and the automatic start of the pipeline.
import { randomUUID } from 'node:crypto';
import { Invoice, InvoiceDocument, Partner, type PartnerDoc } from '../db/models';
import { isDuplicateKeyError } from '../db/duplicate-key';
import { insertEach } from '../db/insert-each';
import { type InvoiceCreateBody, preSubmitCheck, type HeldResult, renderInvoice } from '@einvoice/pint-ae';
import { invoiceQueued, type InvoiceQueued } from '../domain/invoice-views';
import { checkIssueDate, issueYearOf, reservedTrnOutcome, trnMismatch, trnMismatchError, warningsField, withSmeRegistration, type SmeRegistration, type SubmissionWarning } from '../domain/submission-rules';
import { TEST_TRN_ACCEPT, TEST_TRN_REJECT } from '../domain/trn';
import { ServiceError, serviceErrors } from '../domain/errors';
import { numberKey, numberPeriod, numberScope, ownerFields, type PartnerOwner } from '../domain/owner';
import { logger } from '../logger';
import { recordHeldInvoice, startInvoiceWorkflow } from '../temporal/client';
import { enterPipeline } from './enter-pipeline';
import { duplicateNumber, findNumberHolder, type NumberUniqueness } from './duplicate-number';
import { invoiceDisplay, partnerNames } from './invoice-workflow-display';

/** whoami's lastTestAt: when this partner last submitted in test mode (to the minute: one write a minute at most). */
export async function noteTestSubmission(partner: PartnerDoc, now = new Date()): Promise<void> {
  if (partner.mode !== 'test') return;
  if (partner.lastTestAt && now.getTime() - new Date(partner.lastTestAt).getTime() < 60_000) return;
  await Partner.updateOne({ _id: partner._id }, { $set: { lastTestAt: now } });
}

/** An invoice ready to insert: its document and what to do once it is stored. */
export interface PreparedInvoice {
  doc: Record<string, unknown> & { _id: string };
  created: { _id: string; number: string; sellerTrn: string; mode: 'test' | 'live'; partnerId: string };
  outcome: 'queued' | 'held' | 'delivered';
  held: HeldResult | null;
  rendered: { xml: string; documentUuid: string } | null;
  body: InvoiceCreateBody;
  owner: PartnerOwner;
  /** Set when the insert met this request's own invoice from an earlier, crashed attempt (same origin key). */
  adopted?: { status: string };
  /** What the answer tells besides its status (late_issuance). */
  warnings: SubmissionWarning[];
}

export interface CreateOptions {
  externalRef?: string | null;
  /** The idempotent request's origin key (services/idempotency originKey); null when none. */
  origin?: string | null;
  /** The clock the issue-date limits count from (tests); default now. */
  now?: Date;
}

/**
 * Creates one invoice from a shape-valid body. Throws 403 trn_mismatch / test_trn_reject and 409
 * invoice_number_duplicate; returns InvoiceQueued with status queued, held, draft (the automatic start failed)
 * or delivered (the reserved test TRN).
 */
export async function createInvoice(owner: PartnerOwner, body: InvoiceCreateBody, opts: CreateOptions = {}): Promise<InvoiceQueued> {
  const prepared = prepareInvoice(owner, body, opts);
  try {
    await Invoice.create(prepared.doc);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    const refusal = await duplicateOrOwn(prepared);
    if (refusal) throw refusal;
  }
  return launchInvoice(prepared);
}

/**
 * Inserts many prepared invoices in one write (a bulk request). Per invoice, in order: null when stored, else
 * the 409 invoice_number_duplicate problem (the first of two with one number wins, as with one insert each).
 */
export async function insertInvoices(prepared: PreparedInvoice[]): Promise<(ServiceError | null)[]> {
  const refused = await insertEach(
    Invoice,
    prepared.map((p) => p.doc),
  );
  return Promise.all(
    prepared.map(async (p, i) => {
      if (refused[i] === null) return null;
      if (isDuplicateKeyError(refused[i])) return duplicateOrOwn(p);
      throw refused[i];
    }),
  );
}

/**
 * The number is taken: by this very request's invoice from an attempt that crashed before answering (same origin
 * key: adopt it, null), or by another invoice (the 409 problem).
 */
async function duplicateOrOwn(p: PreparedInvoice): Promise<ServiceError | null> {
  const origin = p.doc.originKey as string | null;
  const unique = smeNumbers(p.owner, p.body.issueDate);
  const existing = await findNumberHolder(unique, p.body.number);
  if (!origin || !existing || existing.originKey !== origin) return duplicateNumber(unique, p.body.number, existing);
  p.doc._id = p.created._id = existing._id;
  p.adopted = { status: existing.status };
  logger.warn({ invoiceId: existing._id }, 'a resent request met its own invoice from a crashed attempt: adopted');
  return null;
}

/**
 * The checks that need the caller and the document to insert; no I/O. Throws 403 trn_mismatch and
 * test_trn_reject, and 400 issue_date_out_of_range (submission-rules checkIssueDate).
 */
export function prepareInvoice(owner: PartnerOwner, sent: InvoiceCreateBody, opts: CreateOptions = {}): PreparedInvoice {
  const { partner, sme } = owner;
  // What the body leaves out of the SME's own party comes from its registration (sme:connect); stored as filled.
  const body = withSmeRegistration(sent, sme as SmeRegistration);
  const mode = partner.mode as 'test' | 'live';
  const reserved = reservedTrnOutcome(body, mode);
  if (reserved === 'reject') {
    throw serviceErrors.forbidden('test_trn_reject', `TRN ${TEST_TRN_REJECT} is reserved in test mode to simulate a refusal: nothing was stored and no pipeline started.`);
  }
  if (!reserved) {
    const mismatch = trnMismatch(body, sme.trn);
    if (mismatch) throw trnMismatchError(mismatch);
  }
  const warnings = checkIssueDate(body.issueDate, { now: opts.now });
  const held = reserved ? null : preSubmitCheck(body);
  const now = new Date();
  const invoiceId = randomUUID();
  const base = {
    _id: invoiceId,
    ...ownerFields(owner),
    mode,
    ...numberKey(owner, body.number, body.issueDate),
    issueDate: body.issueDate,
    sellerTrn: body.seller?.trn ?? body.trn,
    body,
    externalRef: opts.externalRef ?? null,
    originKey: opts.origin ?? null,
  };
  const rendered = reserved === 'deliver' ? renderedBestEffort(body) : null;
  const doc = held
    ? { ...base, status: 'draft' as const, heldReason: held.heldReason, heldErrors: held.heldErrors, history: [{ status: 'draft' as const, at: now, reason: `held: ${held.heldReason}`, run: 1 }] }
    : reserved === 'deliver'
      ? { ...base, documentUuid: rendered?.documentUuid ?? null, status: 'delivered' as const, history: [{ status: 'draft' as const, at: now, reason: null, run: 1 }, { status: 'delivered' as const, at: now, reason: `reserved test TRN ${TEST_TRN_ACCEPT}: validation and delivery skipped`, run: 1 }] }
      : { ...base, status: 'queued' as const, history: [{ status: 'queued' as const, at: now, reason: null, run: 1 }] };
  const created = { _id: invoiceId, number: body.number, sellerTrn: base.sellerTrn, mode, partnerId: partner._id };
  const outcome = held ? 'held' : reserved === 'deliver' ? 'delivered' : 'queued';
  return { doc, created, outcome, held, rendered, body, owner, warnings };
}

/** After the insert: the document of a reserved-TRN invoice, and the automatic start of the pipeline. */
export async function launchInvoice(p: PreparedInvoice): Promise<InvoiceQueued> {
  return { ...(await launched(p)), ...warningsField(p.warnings) };
}

async function launched(p: PreparedInvoice): Promise<InvoiceQueued> {
  const { created, held, rendered } = p;
  const display = invoiceDisplay(p.body, partnerNames(p.owner.partner, p.owner.sme));
  // An adopted invoice that left queued (its start did happen, or it was demoted to draft) answers as it stands.
  if (p.adopted && p.outcome === 'queued' && p.adopted.status !== 'queued') {
    return invoiceQueued({ ...created, status: p.adopted.status === 'draft' ? 'draft' : 'queued' });
  }
  if (held) {
    // Only for the Web UI (support finds held invoices there too); the invoice is held whatever happens here.
    await recordHeldInvoice({ ...created, display, status: 'held' }, held).catch((err) =>
      logger.warn({ err, invoiceId: created._id }, 'held invoice stored but its held workflow (Web UI record) did not start'),
    );
    return invoiceQueued({ ...created, status: 'draft', heldReason: held.heldReason, heldErrors: held.heldErrors });
  }
  if (p.outcome === 'delivered') {
    if (rendered) await InvoiceDocument.updateOne({ _id: created._id }, { $setOnInsert: { ...rendered, run: 1 } }, { upsert: true });
    // Only announces the delivery (webhook, Web UI); the invoice is already delivered whatever happens here.
    await startInvoiceWorkflow({ ...created, display, status: 'delivered' }, { reservedDelivered: true }).catch((err) =>
      logger.error({ err, invoiceId: created._id }, 'reserved-TRN invoice delivered but its workflow (webhook) did not start'),
    );
    return invoiceQueued({ ...created, status: 'delivered' });
  }
  const entry = await enterPipeline({ ...created, display }, { ifNotStarted: 'automatic submission failed; POST /v1/partner/invoices/{id}/retry to submit it' });
  return invoiceQueued({ ...created, status: entry.status });
}

/** Partner API numbers are unique per SME and issue year. */
function smeNumbers(owner: PartnerOwner, issueDate: string): NumberUniqueness {
  const year = issueYearOf(issueDate);
  return { where: { numberScope: numberScope(owner), numberPeriod: numberPeriod(owner, issueDate) }, usedBy: `this SME in ${year}`, rule: 'per SME per year. A held invoice can be DELETEd and its number reused.', meta: { issueYear: year } };
}

/** The reserved test TRN skips the pipeline; the document is still rendered when the body allows, for the document endpoint. */
function renderedBestEffort(body: InvoiceCreateBody): { xml: string; documentUuid: string } | null {
  const documentUuid = randomUUID();
  try {
    return { xml: renderInvoice(body, { documentUuid }), documentUuid };
  } catch {
    return null;
  }
}
