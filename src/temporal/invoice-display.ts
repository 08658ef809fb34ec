// What the Temporal Web UI shows of an invoice's workflow: the static summary and details set at start, the memo,
// and the current details the running workflow keeps up to date (status, reason, what it waits for), which are
// also the summary of the timer it waits on.
// Pure (the workflows import it too): no I/O, no Node APIs.
import type { InvoiceStatus } from '../domain/invoice-status';
import type { HeldInvoiceInput, InvoiceMode } from './contract';

/** 'partner': the Partner API (/v1/partner); 'tenant': the Tenant API (/v1/invoices). */
export type InvoiceSurface = 'partner' | 'tenant';

/** What a starter knows beyond the search attributes: read where the start happens (services), never in client.ts. */
export interface InvoiceDisplay {
  buyerName?: string | null;
  /** The amount payable, two decimals ("1050.00"). */
  total?: string | null;
  currency?: string | null;
  issueDate?: string | null;
  /** Partner API: the partner (its ERP name) and the SME (legal name). */
  partnerName?: string | null;
  smeName?: string | null;
  /** Tenant API: the tenant's legal name. */
  tenantName?: string | null;
}

/** The facts the summary is built from: the search attributes' and the display's. */
export interface InvoiceDisplayFacts extends InvoiceDisplay {
  invoiceId: string;
  number: string;
  sellerTrn: string;
  mode: InvoiceMode;
  surface: InvoiceSurface;
  partnerId?: string | null;
  tenantId?: string | null;
}

/** The memo of an invoice's workflow (the Web UI's Memo section; carried over when a retry continues as new). */
export interface InvoiceWorkflowMemo {
  invoiceId: string;
  surface: InvoiceSurface;
  /** The static summary's text again: a run continued by a retry has no static summary of its own. */
  summary: string;
  partnerName?: string;
  smeName?: string;
  tenantName?: string;
}

const SURFACE_LABEL: Record<InvoiceSurface, string> = { partner: 'Partner API', tenant: 'Tenant API' };

/** One line: "INV-001 · seller 100000000000003 · buyer Acme LLC · 1050.00 AED · test · Partner API". */
export function invoiceSummary(f: InvoiceDisplayFacts): string {
  const total = f.total ? `${f.total} ${f.currency ?? 'AED'}` : null;
  return [f.number, `seller ${f.sellerTrn}`, f.buyerName ? `buyer ${f.buyerName}` : null, total, f.mode, SURFACE_LABEL[f.surface]]
    .filter((part): part is string => !!part)
    .join(' · ');
}

/** The static details (markdown): who, what, and where support looks and acts. */
export function invoiceDetails(f: InvoiceDisplayFacts): string {
  const who =
    f.surface === 'tenant'
      ? [`- Tenant: ${f.tenantName ?? '?'} (${f.tenantId ?? '?'})`]
      : [`- Partner: ${f.partnerName ?? '?'} (${f.partnerId ?? '?'})`, `- SME: ${f.smeName ?? '?'} (TRN ${f.sellerTrn})`];
  return [
    `**Invoice ${f.number}** (${SURFACE_LABEL[f.surface]}, ${f.mode} mode)`,
    '',
    `- Invoice id: ${f.invoiceId}`,
    ...who,
    `- Seller TRN: ${f.sellerTrn}`,
    ...(f.buyerName ? [`- Buyer: ${f.buyerName}`] : []),
    ...(f.total ? [`- Total: ${f.total} ${f.currency ?? 'AED'}`] : []),
    ...(f.issueDate ? [`- Issue date: ${f.issueDate}`] : []),
    '',
    `- Status and history: ${statusPath(f.surface, f.invoiceId)}`,
    `- The document (XML; bilingual HTML or PDF with ?format=html|pdf): ${statusPath(f.surface, f.invoiceId)}/document`,
    `- Retry a rejected or blocked invoice: ${retryHint(f.surface, f.invoiceId)}`,
    '- Why it is where it is: Current Details (beside this panel)',
  ].join('\n');
}

export function invoiceMemo(f: InvoiceDisplayFacts): InvoiceWorkflowMemo {
  return {
    invoiceId: f.invoiceId,
    surface: f.surface,
    summary: invoiceSummary(f),
    ...(f.surface === 'tenant'
      ? { ...(f.tenantName ? { tenantName: f.tenantName } : {}) }
      : { ...(f.partnerName ? { partnerName: f.partnerName } : {}), ...(f.smeName ? { smeName: f.smeName } : {}) }),
  };
}

function statusPath(surface: InvoiceSurface, invoiceId: string): string {
  return surface === 'tenant' ? `GET /v1/invoices/${invoiceId}` : `GET /v1/partner/invoices/${invoiceId}`;
}

/** How support (or the caller) starts a new pipeline run of a failed invoice. */
export function retryHint(surface: InvoiceSurface, invoiceId: string): string {
  const api = surface === 'tenant' ? `POST /v1/invoices/${invoiceId}/retry` : `POST /v1/partner/invoices/${invoiceId}/retry`;
  return `${api} or \`einvoice ops retry ${invoiceId}\``;
}

/** A duration for people: "45s", "2m", "1h 30m". */
export function humanDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
}

/** The held invoice's current details (markdown): the hold, each finding, and what happens next. */
export function heldDetails(input: Pick<HeldInvoiceInput, 'heldReason' | 'heldErrors'>): string {
  const errors = input.heldErrors.map((e) => `- ${e.code ?? 'error'}${e.path ? ` at ${e.path}` : ''}: ${e.message ?? ''}`);
  return [
    `**held**: ${input.heldReason}`,
    ...errors,
    '',
    'Never submitted to the ASP. Waiting for nothing: the partner DELETEs this invoice and POSTs a corrected body (a new invoice and workflow).',
  ].join('\n');
}

/** The held invoice's static summary: the summary with the hold in front, so the list row says it. */
export function heldSummary(f: InvoiceDisplayFacts, heldReason: string): string {
  return `HELD (${heldReason}) · ${invoiceSummary(f)}`;
}

// ---- What the running invoice workflow shows (its current details, and the summary of the timer it waits on) ----

/** The hand-over a delivered invoice waits on, and when the workflow asks the ASP next. */
export interface AspWait {
  submissionId: string;
  pollAt: number;
  waitMs: number;
}

/** What the workflow knows when it explains itself. */
export interface RunView {
  invoiceId: string;
  surface: InvoiceSurface;
  status: InvoiceStatus | 'unknown';
  /** The reason of the status shown (rejected, blocked_no_credit). */
  reason: string | null;
  waitingAsp: AspWait | null;
  /** The run's last word, when it ends (deleted, reserved TRN). */
  ending?: string;
}

/**
 * The Web UI's current details (markdown): the status, its reason, and what the workflow waits for, e.g.
 * "rejected: buyer_trn_invalid: ...; waiting for a retry (POST .../retry or `einvoice ops retry <id>`)".
 */
export function currentDetails(v: RunView): string {
  const line = v.ending ?? statusLine(v);
  return `**${line.replace(/^([a-z_]+)/, '$1**')}`;
}

function statusLine({ invoiceId, surface, status, reason, waitingAsp }: RunView): string {
  const retry = retryHint(surface, invoiceId);
  switch (status) {
    case 'unknown':
      return 'starting: reading the invoice';
    case 'draft':
      return 'draft; queueing it for a new pipeline run';
    case 'queued':
      return 'queued; rendering the PINT-AE XML';
    case 'transformed':
      return 'transformed; validating against the PINT-AE rules';
    case 'validated':
      return 'validated; reserving a delivery credit and handing over to the ASP';
    case 'delivered': {
      if (!waitingAsp) return 'delivered to the ASP; waiting for its acknowledgement';
      const at = new Date(waitingAsp.pollAt).toISOString().slice(11, 19);
      return `delivered (ASP submission ${waitingAsp.submissionId}); waiting for the ASP's acknowledgement (next poll in ${humanDuration(waitingAsp.waitMs)}, at ${at} UTC; a retry polls at once)`;
    }
    case 'acknowledged':
      return 'acknowledged by the authority; done';
    case 'rejected':
      return `rejected: ${reason ?? `(the reason is in the invoice's history)`}; waiting for a retry (${retry})`;
    case 'blocked_no_credit':
      return `blocked_no_credit: ${reason ?? 'no delivery credit left'}; waiting for a credit top-up (delivery resumes by itself) or a retry (${retry})`;
    default:
      return `${status}`;
  }
}

/** A timer summary is one line in the UI: long reasons (many rule ids) are cut here; the full text is in the details. */
const SUMMARY_MAX = 600;

/** The current details as one plain line: the summary of the timer the run waits on (the workflow page's first screen). */
export function waitSummary(v: RunView): string {
  const line = currentDetails(v).replace(/\*\*/g, '');
  return line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line;
}
