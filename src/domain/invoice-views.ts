// Response shapes of the Partner API invoice endpoints (SPEC 2.1). Pure.
import type { InvoiceStatus } from './invoice-status';
import type { FieldError } from './invoice-types';

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

/** InvoiceQueued: status queued, held (response-only), draft (automatic start failed), or delivered (reserved test TRN). */
export interface InvoiceQueued {
  invoiceId: string;
  number: string;
  status: string;
  heldReason?: string;
  heldErrors?: FieldError[];
}

export function invoiceQueued(inv: InvoiceRecord): InvoiceQueued {
  if (inv.heldReason) {
    return { invoiceId: inv._id, number: inv.number, status: 'held', heldReason: inv.heldReason, heldErrors: inv.heldErrors ?? [] };
  }
  return { invoiceId: inv._id, number: inv.number, status: inv.status };
}

export interface InvoiceStatusView {
  invoiceId: string;
  number: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  reason: string | null;
}

/** InvoiceStatus as listed. A held invoice is a draft whose reason is its heldReason. */
export function invoiceStatusView(inv: InvoiceRecord): InvoiceStatusView {
  return {
    invoiceId: inv._id,
    number: inv.number,
    status: inv.status,
    createdAt: iso(inv.createdAt),
    updatedAt: iso(inv.updatedAt),
    reason: inv.reason ?? inv.heldReason ?? null,
  };
}

export interface InvoiceDetailView extends InvoiceStatusView {
  /** Pipeline run: 1, plus one per retry. */
  run: number;
  /** Every persisted transition, oldest first: what support and integrators read to see how it got here. */
  history: { status: string; at: string; reason: string | null; run: number }[];
  heldReason?: string;
  heldErrors?: FieldError[];
  /** The authority's acknowledgement reference, once the ASP reported the invoice (evidence has the rest). */
  ackRef?: string;
}

/** GET /invoices/{id}: InvoiceStatus plus the additive run, history, ackRef and (when held) heldReason and heldErrors. */
export function invoiceDetailView(inv: InvoiceRecord): InvoiceDetailView {
  return {
    ...invoiceStatusView(inv),
    run: inv.run ?? 1,
    history: (inv.history ?? []).map((h) => ({ status: h.status, at: iso(h.at), reason: h.reason ?? null, run: h.run })),
    ...(inv.heldReason ? { heldReason: inv.heldReason, heldErrors: inv.heldErrors ?? [] } : {}),
    ...(inv.ackRef ? { ackRef: inv.ackRef } : {}),
  };
}

function iso(d: Date | string | null | undefined): string {
  return d ? new Date(d).toISOString() : new Date(0).toISOString();
}
