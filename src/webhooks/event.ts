// The invoice.status_changed event (SPEC 6.1): pure, no I/O (the import below is a type, erased).
import type { StatusChangedEvent } from '../../lib';

export const STATUS_CHANGED_EVENT = 'invoice.status_changed';
export type EventStatus = 'delivered' | 'rejected';

/** The payload type is declared once, in the package entry's types (lib/index.d.ts), for integrators and us. */
export type { StatusChangedEvent };

/** Unix seconds of a send, and the matching ISO timestamp (no milliseconds: SPEC says seconds precision). */
export function stampOf(nowMs: number): { t: number; timestamp: string } {
  const t = Math.floor(nowMs / 1000);
  return { t, timestamp: new Date(t * 1000).toISOString().replace('.000Z', 'Z') };
}

/** The body of one attempt; field order is fixed so bodies are easy to eyeball in logs. */
export function statusChangedBody(input: { partnerId: string; invoiceId: string; status: EventStatus; reason: string | null }, timestamp: string): string {
  const event: StatusChangedEvent = {
    event: STATUS_CHANGED_EVENT,
    erpPartnerId: input.partnerId,
    invoiceId: input.invoiceId,
    status: input.status,
    reason: input.status === 'rejected' ? input.reason : null,
    timestamp,
  };
  return JSON.stringify(event);
}

/**
 * The event an invoice has reached, if any: acknowledged collapses into delivered, and after a retry the
 * last delivered/rejected of the history still stands (a replay re-sends what the partner last missed).
 */
export function lastEventOf(invoice: { status: string; reason?: string | null; history?: { status: string; reason?: string | null }[] }): { status: EventStatus; reason: string | null } | null {
  const fromStatus = eventStatusOf(invoice.status);
  if (fromStatus) return { status: fromStatus, reason: fromStatus === 'rejected' ? (invoice.reason ?? null) : null };
  const history = invoice.history ?? [];
  for (let i = history.length - 1; i >= 0; i--) {
    const status = eventStatusOf(history[i].status);
    if (status) return { status, reason: status === 'rejected' ? (history[i].reason ?? null) : null };
  }
  return null;
}

function eventStatusOf(invoiceStatus: string): EventStatus | null {
  if (invoiceStatus === 'delivered' || invoiceStatus === 'acknowledged') return 'delivered';
  if (invoiceStatus === 'rejected') return 'rejected';
  return null;
}
