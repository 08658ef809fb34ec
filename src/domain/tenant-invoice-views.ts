// Response shapes of the Tenant API invoice endpoints (SPEC 2.2 draft response; the GET bodies SPEC leaves open).
// Pure.
import { type FieldError, computeTotals, type InvoiceCreateBody } from '@einvoice/pint-ae';
import type { InvoiceStatus } from './invoice-status';
import type { TenantTotals } from './tenant-invoice-types';

/** What the views read from a stored tenant invoice. */
export interface TenantInvoiceRecord {
  _id: string;
  number: string;
  status: InvoiceStatus | string;
  mode: string;
  reason?: string | null;
  run?: number | null;
  source?: string | null;
  tenantInvoiceType?: string | null;
  issueDate?: string;
  body?: InvoiceCreateBody;
  ackRef?: string | null;
  createdAt?: Date | string | null;
  updatedAt?: Date | string | null;
  history?: { status: string; at: Date | string; reason?: string | null; run: number }[] | null;
}

export const PIPELINE_STEPS = ['transform', 'validate', 'deliver', 'acknowledge'] as const;
export type PipelineStepName = (typeof PIPELINE_STEPS)[number];
export type PipelineStepState = 'pending' | 'done' | 'failed' | 'blocked';

/** One planned step of the pipeline and where it stands (SPEC 2.2 "pipeline"; its entries are our decision). */
export interface PipelineStep {
  step: PipelineStepName;
  state: PipelineStepState;
}

/** An entry of the draft's `errors`: why it was rejected, with the machine code (e.g. buyer_trn_invalid). */
export interface TenantInvoiceError {
  code: string;
  message: string;
}

/** Steps completed by each status (the status a step moves the invoice into). */
const DONE_AT: Record<string, number> = { draft: 0, queued: 0, transformed: 1, validated: 2, blocked_no_credit: 2, delivered: 3, acknowledged: 4 };
/** The step that was running when an invoice left this status for rejected. */
const FAILED_FROM: Record<string, PipelineStepName> = { queued: 'transform', transformed: 'validate', validated: 'deliver', blocked_no_credit: 'deliver', delivered: 'acknowledge' };

export function pipelineOf(inv: Pick<TenantInvoiceRecord, 'status' | 'history' | 'run'>): PipelineStep[] {
  if (inv.status === 'rejected') {
    const failed = FAILED_FROM[statusBeforeRejection(inv)] ?? 'transform';
    const failedAt = PIPELINE_STEPS.indexOf(failed);
    return PIPELINE_STEPS.map((step, i) => ({ step, state: i < failedAt ? 'done' : i === failedAt ? 'failed' : 'pending' }));
  }
  const done = DONE_AT[inv.status] ?? 0;
  return PIPELINE_STEPS.map((step, i) => ({ step, state: i < done ? 'done' : inv.status === 'blocked_no_credit' && step === 'deliver' ? 'blocked' : 'pending' }));
}

/** The status the current run was in before it was rejected. */
function statusBeforeRejection(inv: Pick<TenantInvoiceRecord, 'history' | 'run'>): string {
  const run = inv.run ?? 1;
  const history = (inv.history ?? []).filter((h) => h.run === run);
  for (let i = history.length - 1; i > 0; i--) if (history[i].status === 'rejected') return history[i - 1].status;
  return 'queued';
}

/**
 * The machine code of a rejection reason: an ASP's reasons start with one (`buyer_trn_invalid: ...`,
 * `business_rule:ibr-1: ...`); the pipeline's own are named here.
 */
export function reasonCodeOf(reason: string): string {
  if (/^PINT-AE validation failed/i.test(reason)) return 'pint_ae_validation_failed';
  if (/^PINT-AE transformation failed/i.test(reason)) return 'transform_failed';
  if (/^delivery failed/i.test(reason)) return 'delivery_failed';
  if (/^no delivery credit/i.test(reason)) return 'no_credit';
  const m = /^([a-z][a-z0-9_]*)(?=[:\s]|$)/.exec(reason);
  return m ? m[1] : 'rejected';
}

export function errorsOf(inv: Pick<TenantInvoiceRecord, 'status' | 'reason'>): TenantInvoiceError[] {
  if ((inv.status === 'rejected' || inv.status === 'blocked_no_credit') && inv.reason) return [{ code: reasonCodeOf(inv.reason), message: inv.reason }];
  return [];
}

export function totalsOf(body: Pick<InvoiceCreateBody, 'lines'> | undefined): TenantTotals {
  const t = body ? computeTotals(body) : null;
  const n = (v: unknown) => (v === undefined || v === null ? 0 : Number(v));
  return { subtotal: n(t?.taxExclusive), tax: n(t?.tax), total: n(t?.payable), currency: 'AED' };
}

/** The draft response (SPEC 2.2), also the head of every tenant invoice view. */
export interface TenantDraftView {
  id: string;
  number: string;
  status: string;
  invoiceType: string;
  totals: TenantTotals;
  pipeline: PipelineStep[];
  errors: TenantInvoiceError[];
  submissionMode: string;
  source: string | null;
}

export function tenantDraftView(inv: TenantInvoiceRecord): TenantDraftView {
  return {
    id: inv._id,
    number: inv.number,
    status: inv.status,
    invoiceType: inv.tenantInvoiceType ?? 'sale',
    totals: totalsOf(inv.body),
    pipeline: pipelineOf(inv),
    errors: errorsOf(inv),
    submissionMode: inv.mode,
    source: inv.source ?? null,
  };
}

/** GET /v1/invoices/{id}: the draft view plus what a connector polls for. */
export interface TenantInvoiceView extends TenantDraftView {
  issueDate: string | null;
  documentType: string | null;
  reason: string | null;
  ackRef: string | null;
  run: number;
  history: { status: string; at: string; reason: string | null; run: number }[];
  createdAt: string;
  updatedAt: string;
}

export function tenantInvoiceView(inv: TenantInvoiceRecord): TenantInvoiceView {
  return {
    ...tenantDraftView(inv),
    issueDate: inv.issueDate ?? null,
    documentType: inv.body?.documentType ?? null,
    reason: inv.reason ?? null,
    ackRef: inv.ackRef ?? null,
    run: inv.run ?? 1,
    history: (inv.history ?? []).map((h) => ({ status: h.status, at: iso(h.at), reason: h.reason ?? null, run: h.run })),
    createdAt: iso(inv.createdAt),
    updatedAt: iso(inv.updatedAt),
  };
}

export type { FieldError };

function iso(d: Date | string | null | undefined): string {
  return d ? new Date(d).toISOString() : new Date(0).toISOString();
}
