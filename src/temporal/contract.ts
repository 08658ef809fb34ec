// The contract between the API, the worker and the workflows: workflow types and ids, search attributes,
// signals, queries and inputs. Pure (workflow code imports it too): no I/O, no Node APIs.
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { InvoiceStatus } from '../domain/invoice-status';
import { partyOf, storedOwnerOf, type StoredOwner, type Surface } from '../domain/owner';

export const INVOICE_WORKFLOW = 'invoiceWorkflow';
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';
export const MAINTENANCE_WORKFLOW = 'maintenanceWorkflow';
/** A held invoice (pre-submit checks failed): a workflow that only records the hold for the Web UI, and ends. */
export const HELD_INVOICE_WORKFLOW = 'heldInvoiceWorkflow';

// Workflow ids are part of the support contract: find an invoice's history in the Web UI by its id.
export const invoiceWorkflowId = (invoiceId: string): string => `invoice-${invoiceId}`;
export const webhookWorkflowId = (deliveryId: string): string => `webhook-${deliveryId}`;

// Keyword search attributes support staff filter on in the Web UI (registered by scripts/infra).
export const InvoiceStatusKey = defineSearchAttributeKey('InvoiceStatus', SearchAttributeType.KEYWORD);
export const InvoiceNumberKey = defineSearchAttributeKey('InvoiceNumber', SearchAttributeType.KEYWORD);
export const SellerTrnKey = defineSearchAttributeKey('SellerTrn', SearchAttributeType.KEYWORD);
export const ModeKey = defineSearchAttributeKey('Mode', SearchAttributeType.KEYWORD);
export const PartnerIdKey = defineSearchAttributeKey('PartnerId', SearchAttributeType.KEYWORD);
export const TenantIdKey = defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD);
export const SEARCH_ATTRIBUTE_NAMES = [InvoiceStatusKey, InvoiceNumberKey, SellerTrnKey, ModeKey, PartnerIdKey, TenantIdKey].map((k) => k.name);

/** test and live (Partner API and Tenant API), sandbox (Tenant API: the ASP's sandbox). */
export type InvoiceMode = 'test' | 'sandbox' | 'live';

// ---- The invoice workflow ----

/** What an invoice's workflow starts with (support staff read it on the Web UI's first screen). */
export interface InvoiceWorkflowInput {
  invoiceId: string;
  /** live deliveries spend a credit; test and sandbox are free. */
  mode: InvoiceMode;
  /** How long to wait for the ASP's verdict signal before polling the ASP (then on the ASPs' schedule). */
  ackFallbackMs: number;
  /** Reserved test TRN: the API already stored the invoice as delivered; this run only announces it. */
  reservedDelivered?: boolean;
  /** 'tenant': a Tenant API invoice, whose status updates (SPEC 6.2) also announce acknowledged. */
  surface?: 'tenant';
}

/** How a run ended; failure terminals never end a run (they wait for `retry`, then continue as new). */
export type InvoiceWorkflowResult = 'acknowledged' | 'delivered' | 'deleted';

/** What the search attributes of an invoice's workflow say at its start; its owner as stored (src/domain/owner.ts). */
export interface InvoiceFacts extends StoredOwner {
  _id: string;
  number: string;
  sellerTrn: string;
  status: InvoiceStatus | string;
}

/** The search attribute naming the owner's party, which support filters on. */
const PARTY_KEY = { partner: PartnerIdKey, tenant: TenantIdKey } as const;

function partyAttribute(owner: StoredOwner): SearchAttributePair {
  const party = partyOf(storedOwnerOf(owner));
  return { key: PARTY_KEY[party.kind as Surface], value: party.id } as SearchAttributePair;
}

export function invoiceSearchAttributes(inv: InvoiceFacts, mode: InvoiceMode): SearchAttributePair[] {
  return [
    { key: InvoiceStatusKey, value: inv.status },
    { key: InvoiceNumberKey, value: inv.number },
    { key: SellerTrnKey, value: inv.sellerTrn },
    { key: ModeKey, value: mode },
    partyAttribute(inv),
  ];
}

/** The ASP's answer about a delivered document (SPEC 3.1: delivered -> acknowledged, or rejected by the authority). */
export interface AspVerdict {
  /** Which hand-over this answers: an answer to an earlier run's delivery is ignored. */
  submissionId: string;
  status: 'acknowledged' | 'rejected';
  reason?: string | null;
  /** The authority's acknowledgement reference (acknowledged). */
  ackRef?: string | null;
}

/** A failure terminal (rejected, blocked_no_credit) starts a new pipeline run; while waiting for the ASP, poll it now. */
export const retrySignal = defineSignal('retry');
/** The ASP's verdict (acknowledged or rejected) about a delivered invoice: what every sender sends. */
export const aspVerdictSignal = defineSignal<[AspVerdict]>('aspVerdict');
/** @deprecated the verdict's first name, still accepted from senders that use it; send `aspVerdictSignal`. */
export const acknowledgedSignal = defineSignal<[AspVerdict]>('acknowledged');
/** The SME's credit was topped up: a blocked_no_credit invoice tries its delivery again within the same run. */
export const creditsAvailableSignal = defineSignal('creditsAvailable');
/** The status the running workflow last persisted (for the CLI and the Web UI's query tab). */
export const invoiceStatusQuery = defineQuery<string>('status');

// ---- The held invoice workflow (id invoice-<invoiceId>) ----

export interface HeldInvoiceInput {
  invoiceId: string;
  heldReason: string;
  heldErrors: { code?: string | null; path?: string | null; message?: string | null }[];
}

/** The held workflow's result: what the Web UI shows as the completed workflow's result. */
export interface HeldInvoiceResult {
  status: 'held';
  heldReason: string;
  heldErrors: HeldInvoiceInput['heldErrors'];
}

// ---- The webhook delivery workflow ----

export interface WebhookDeliveryInput {
  deliveryId: string;
  /** Waits before each retry, fixed at start (config is read outside the workflow). */
  retryScheduleMs: number[];
}

export interface WebhookDeliveryResult {
  deliveryId: string;
  status: string;
  attempts: number;
}

/** A delivery row just created, as both starters (the invoice workflow and the client) know it. */
export interface DeliveryToStart {
  deliveryId: string;
  retryScheduleMs: number[];
  partnerId: string | null;
  /** Tenant status updates: the tenant (partnerId is null). */
  tenantId?: string | null;
  mode: string;
  invoiceId: string;
  /** The event's status, shown in the Web UI's memo column. */
  eventStatus: string;
}

/** The one shape of a webhook delivery workflow start, from a workflow (startChild) or from the API and CLI. */
export function webhookDeliveryStart(d: DeliveryToStart) {
  return {
    workflowId: webhookWorkflowId(d.deliveryId),
    args: [{ deliveryId: d.deliveryId, retryScheduleMs: d.retryScheduleMs }] as [WebhookDeliveryInput],
    memo: { invoiceId: d.invoiceId, eventStatus: d.eventStatus },
    // Support filters deliveries in the Web UI: WorkflowType = 'webhookDeliveryWorkflow' AND PartnerId = '...'
    typedSearchAttributes: [
      partyAttribute(d),
      { key: ModeKey, value: d.mode },
    ] as SearchAttributePair[],
  };
}
