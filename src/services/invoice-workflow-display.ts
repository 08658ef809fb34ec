// What the Web UI shows of an invoice's workflow beyond its search attributes (buyer, total, the owner's names):
// built here, the one place for both surfaces, by the services that start workflows and passed to
// src/temporal/client.ts, which reads nothing itself.
import { Partner, SmeConnection, Tenant } from '../db/models';
import { type InvoiceCreateBody, computeTotals } from '@einvoice/pint-ae';
import { storedOwnerOf, type OwnerRef, type StoredOwner, type Surface } from '../domain/owner';
import type { InvoiceDisplay } from '../temporal/invoice-display';

/** The stored body's part of the display: buyer, the amount payable with its currency, issue date. */
export function bodyDisplay(body: Partial<Pick<InvoiceCreateBody, 'buyer' | 'lines' | 'currency' | 'issueDate'>> | null | undefined): InvoiceDisplay {
  if (!body) return {};
  let total: string | null = null;
  try {
    if (Array.isArray(body.lines)) total = computeTotals({ lines: body.lines }).payable;
  } catch {
    total = null; // a body the pre-submit checks held may not total: the summary goes without
  }
  return { buyerName: body.buyer?.name ?? null, total, currency: body.currency ?? 'AED', issueDate: body.issueDate ?? null };
}

/** The owner's names the Web UI shows: the partner's and SME's (Partner API) or the tenant's (Tenant API). */
export type OwnerNames = Pick<InvoiceDisplay, 'partnerName' | 'smeName' | 'tenantName'>;

export function partnerNames(partner: { erpName?: string | null } | null | undefined, sme: { legalName?: string | null } | null | undefined): OwnerNames {
  return { partnerName: partner?.erpName ?? null, smeName: sme?.legalName ?? null };
}

export function tenantNames(tenant: { legalName?: string | null } | null | undefined): OwnerNames {
  return { tenantName: tenant?.legalName ?? null };
}

/** The whole display of an invoice: its body's part and its owner's names. */
export function invoiceDisplay(body: unknown, names: OwnerNames): InvoiceDisplay {
  return { ...bodyDisplay(body as Parameters<typeof bodyDisplay>[0]), ...names };
}

/** The projection that bodyDisplay needs from a stored invoice. */
export const BODY_DISPLAY_FIELDS = { 'body.buyer.name': 1, 'body.lines': 1, 'body.currency': 1, 'body.issueDate': 1 } as const;

/**
 * The whole display of a stored invoice, for starters that have neither the caller nor the body at hand (ops):
 * the partner's and SME's names (Partner API) or the tenant's (Tenant API). Missing pieces are left out.
 */
export async function loadInvoiceDisplay(inv: StoredOwner & { body?: unknown }): Promise<InvoiceDisplay> {
  const owner = storedOwnerOf(inv);
  return invoiceDisplay(inv.body, await OWNER_NAMES[owner.kind](owner as never));
}

type RefOf<K extends Surface> = Extract<OwnerRef, { kind: K }>;

/** The owner's names, read: the partner's and SME's, or the tenant's. */
const OWNER_NAMES: { [K in Surface]: (owner: RefOf<K>) => Promise<OwnerNames> } = {
  partner: async ({ partnerId, smeId }) => {
    const [partner, sme] = await Promise.all([
      partnerId ? Partner.findById(partnerId, { erpName: 1 }).lean() : null,
      smeId ? SmeConnection.findById(smeId, { legalName: 1 }).lean() : null,
    ]);
    return partnerNames(partner, sme);
  },
  tenant: async ({ tenantId }) => tenantNames(await Tenant.findById(tenantId, { legalName: 1 }).lean()),
};
