// The Tenant API's status update (SPEC 6.2): pure, no I/O. Signed and delivered like invoice.status_changed
// (same t=,v1= scheme, the tenant's own secret, the same durable workflow and retry schedule).

export const TENANT_STATUS_UPDATE_EVENT = 'tenant.status_update';
export type TenantEventStatus = 'delivered' | 'acknowledged' | 'rejected';

export interface TenantStatusUpdate {
  invoiceNumber: string;
  /** Capitalised as SPEC 6.2 shows it: Delivered, Acknowledged, Rejected. */
  status: 'Delivered' | 'Acknowledged' | 'Rejected';
  /** The authority's acknowledgement reference; null until acknowledged. */
  ackRef: string | null;
  /** The invoice id (uuid) POST /v1/invoices returned. */
  uuid: string;
  reason: string | null;
  /** ISO-8601 at seconds precision; equals the signature's t (additive to SPEC 6.2, as on the Partner event). */
  timestamp: string;
}

const LABELS: Record<TenantEventStatus, TenantStatusUpdate['status']> = { delivered: 'Delivered', acknowledged: 'Acknowledged', rejected: 'Rejected' };

export function tenantStatusUpdateBody(input: { invoiceNumber: string; invoiceId: string; status: TenantEventStatus; reason: string | null; ackRef: string | null }, timestamp: string): string {
  const update: TenantStatusUpdate = {
    invoiceNumber: input.invoiceNumber,
    status: LABELS[input.status],
    ackRef: input.status === 'acknowledged' ? input.ackRef : null,
    uuid: input.invoiceId,
    reason: input.status === 'rejected' ? input.reason : null,
    timestamp,
  };
  return JSON.stringify(update);
}
