// Response shapes of the Partner API invoice endpoints (SPEC 2.1). Pure.
import type { InvoiceStatus } from './invoice-status';
import type { FieldError } from '@einvoice/pint-ae';
import type { SubmissionWarning } from './submission-rules';

/** The stored fields the views read (a lean invoice document has them all). */
export interface InvoiceRecord {
  _id: string;
  number: string;
  status: InvoiceStatus | string;
  reason?: string | null;
  run?: number | null;
  heldReason?: string | null;
  heldErrors?: FieldError[] | null;
  createdAt?: Date | string | null;
  updatedAt?: Date | string | null;
  history?: { status: string; at: Date | string; reason?: string | null; run: number }[] | null;
  ackRef?: string | null;
}

/**
 * The status the Partner API shows (docs/decisions/0035-status-model-held.md): the stored status, except that an invoice the
 * pre-submit checks held (stored as a draft with a heldReason) is `held`, in every answer: POST, bulk, GET, list.
 * A draft without a heldReason is one whose automatic start failed (retry it).
 */
export type PartnerStatus = InvoiceStatus | 'held';

export function partnerStatus(inv: Pick<InvoiceRecord, 'status' | 'heldReason'>): PartnerStatus | string {
  return inv.heldReason && inv.status === 'draft' ? 'held' : inv.status;
}

/** InvoiceQueued: status queued, held, draft (automatic start failed), or delivered (reserved test TRN). */
export interface InvoiceQueued {
  invoiceId: string;
  number: string;
  status: string;
  heldReason?: string;
  heldErrors?: FieldError[];
  /** Accepted, but worth knowing: late_issuance (issue date more than 14 days back). Only when there is one. */
  warnings?: SubmissionWarning[];
}

export function invoiceQueued(inv: InvoiceRecord): InvoiceQueued {
  const status = partnerStatus(inv);
  if (status === 'held') {
    return { invoiceId: inv._id, number: inv.number, status, heldReason: inv.heldReason!, heldErrors: inv.heldErrors ?? [] };
  }
  return { invoiceId: inv._id, number: inv.number, status };
}

export interface InvoiceStatusView {
  invoiceId: string;
  number: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  reason: string | null;
  /** The authority's acknowledgement reference once acknowledged (TEST-… in test mode); absent before. */
  ackRef?: string;
}

/** InvoiceStatus as listed. A held invoice is `held`, and its reason is its heldReason. */
export function invoiceStatusView(inv: InvoiceRecord): InvoiceStatusView {
  return {
    invoiceId: inv._id,
    number: inv.number,
    status: partnerStatus(inv),
    createdAt: iso(inv.createdAt),
    updatedAt: iso(inv.updatedAt),
    reason: inv.reason ?? inv.heldReason ?? null,
    ...(inv.ackRef ? { ackRef: inv.ackRef } : {}),
  };
}

export interface InvoiceDetailView extends InvoiceStatusView {
  /** Pipeline run: 1, plus one per retry. */
  run: number;
  /** Every persisted transition, oldest first: what support and integrators read to see how it got here. */
  history: { status: string; at: string; reason: string | null; run: number }[];
  heldReason?: string;
  heldErrors?: FieldError[];
}

/**
 * GET /invoices/{id}: InvoiceStatus plus the additive run, history, ackRef and (when held) heldReason and heldErrors.
 * A held invoice never moves, so its one stored `draft` entry is the hold and reads `held` too.
 */
export function invoiceDetailView(inv: InvoiceRecord): InvoiceDetailView {
  const held = partnerStatus(inv) === 'held';
  return {
    ...invoiceStatusView(inv),
    run: inv.run ?? 1,
    history: (inv.history ?? []).map((h) => ({ status: held && h.status === 'draft' ? 'held' : h.status, at: iso(h.at), reason: h.reason ?? null, run: h.run })),
    ...(inv.heldReason ? { heldReason: inv.heldReason, heldErrors: inv.heldErrors ?? [] } : {}),
  };
}

function iso(d: Date | string | null | undefined): string {
  return d ? new Date(d).toISOString() : new Date(0).toISOString();
}
