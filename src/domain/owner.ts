// Whose invoice: a partner and one of its connected SMEs (Partner API), or a tenant in one mode (Tenant API).
// The one place that tells the two apart: every service, query, model and the Temporal contract asks this module
// for what depends on it (the number scope and period, the query filter, the label, the webhook target, the
// credit owner, the surface). Pure (the documents are imported as types only).
import type { PartnerDoc, SmeConnectionDoc, TenantDoc } from '../db/models';
import type { CreditOwner } from './credits';
import type { TenantMode } from './tenant-invoice-types';

/** The Partner API's owner: the partner and the SME its connection secret resolved. */
export interface PartnerOwner {
  kind: 'partner';
  partner: PartnerDoc;
  sme: SmeConnectionDoc;
}

/** The Tenant API's owner: the tenant and the mode its invoices live in (SPEC 1: one partition per mode). */
export interface TenantOwner {
  kind: 'tenant';
  tenant: TenantDoc;
  mode: TenantMode;
  /** The connector that calls (X-Service-Source), stored on the drafts it creates. */
  source?: string | null;
}

/** The caller's owner, with the stored documents the services read (names, TRN, registration). */
export type Owner = PartnerOwner | TenantOwner;

/** An owner by its ids alone: what a stored invoice, a delivery row, the CLI or an export names. */
export type OwnerRef = { kind: 'partner'; partnerId: string; smeId: string } | { kind: 'tenant'; tenantId: string; mode: string };

/** The owner fields of a stored invoice or webhook delivery row (a tenant's have tenantId set, and smeId null). */
export interface StoredOwner {
  partnerId?: string | null;
  smeId?: string | null;
  tenantId?: string | null;
  mode?: string | null;
}

export type Surface = 'partner' | 'tenant';

export function partnerOwner(partner: PartnerDoc, sme: SmeConnectionDoc): PartnerOwner {
  return { kind: 'partner', partner, sme };
}

export function tenantOwner(tenant: TenantDoc, mode: TenantMode, source: string | null = null): TenantOwner {
  return { kind: 'tenant', tenant, mode, source };
}

/** The ids of an owner (an OwnerRef is returned as it is). */
export function refOf(owner: Owner | OwnerRef): OwnerRef {
  if ('partnerId' in owner || 'tenantId' in owner) return owner;
  return owner.kind === 'partner' ? { kind: 'partner', partnerId: owner.partner._id, smeId: owner.sme._id } : { kind: 'tenant', tenantId: owner.tenant._id, mode: owner.mode };
}

/** The owner a stored invoice or delivery row names. */
export function storedOwnerOf(r: StoredOwner): OwnerRef {
  return r.tenantId ? { kind: 'tenant', tenantId: r.tenantId, mode: r.mode ?? '' } : { kind: 'partner', partnerId: r.partnerId ?? '', smeId: r.smeId ?? '' };
}

export const surfaceOf = (owner: Owner | OwnerRef): Surface => refOf(owner).kind;

/**
 * The owner's partition of invoices: numbers are unique within it per period, and its lists walk it. A Partner
 * SME's numbers are unique per year (SPEC 2.1), a tenant's per mode whatever the year (SPEC 2.2).
 */
export function numberScope(owner: Owner | OwnerRef): string {
  const ref = refOf(owner);
  return ref.kind === 'partner' ? smeScope(ref.smeId) : tenantScope(ref.tenantId, ref.mode);
}

const smeScope = (smeId: string) => `sme:${smeId}`;
const tenantScope = (tenantId: string, mode: string) => `tenant:${tenantId}:${mode}`;

/** A tenant's one number period: its numbers are unique per mode, whatever the year. */
const TENANT_PERIOD = 0;

/** The period an invoice number is unique in: the issue year (Partner API), or the one period (Tenant API). */
export function numberPeriod(owner: Owner | OwnerRef, issueDate: string): number {
  // (the year as submission-rules issueYearOf reads it; not imported: the workflow bundle loads this module)
  return refOf(owner).kind === 'partner' ? Number(issueDate.slice(0, 4)) : TENANT_PERIOD;
}

/** Every number of a tenant in one mode (one period): the unique index's prefix, to look numbers up by. */
export function tenantNumbers(owner: TenantOwner | Extract<OwnerRef, { kind: 'tenant' }>): { numberScope: string; numberPeriod: number } {
  return { numberScope: numberScope(owner), numberPeriod: TENANT_PERIOD };
}

/** The filter of the unique number index: the invoice holding `number` in the owner's scope and period. */
export function numberKey(owner: Owner | OwnerRef, number: string, issueDate: string): { numberScope: string; numberPeriod: number; number: string } {
  return { numberScope: numberScope(owner), numberPeriod: numberPeriod(owner, issueDate), number };
}

/**
 * The query filter of the owner's invoices (every read and write scoped to the caller): its partition, which leads
 * every list index and names the owner alone: an SME connection (a UUID we issue, held by one partner, resolved from
 * that partner's own connection secret) or a tenant and mode. No second equality on the party: PostgreSQL keeps no
 * statistics on a field no index has, guessed such a filter matched a handful of rows, and sorted a whole partition
 * instead of walking its index (docs/performance.md, bench:reads).
 */
export function ownerFilter(owner: Owner | OwnerRef): { numberScope: string } {
  return { numberScope: numberScope(owner) };
}

/** The owner fields a new invoice is stored with (smeId only ever an SME; partnerId and tenantId null when not one). */
export function ownerFields(owner: Owner | OwnerRef): { partnerId: string | null; smeId: string | null; tenantId: string | null; numberScope: string } {
  const ref = refOf(owner);
  const ids = ref.kind === 'partner' ? { partnerId: ref.partnerId, smeId: ref.smeId, tenantId: null } : { partnerId: null, smeId: null, tenantId: ref.tenantId };
  return { ...ids, numberScope: numberScope(ref) };
}

/** The owner in logs and records (who deleted an invoice): `partner:<id> sme:<id>` or `tenant:<id>:<mode>`. */
export function ownerLabel(owner: Owner | OwnerRef): string {
  const ref = refOf(owner);
  return ref.kind === 'partner' ? `partner:${ref.partnerId} sme:${ref.smeId}` : numberScope(ref);
}

/**
 * The owner's party: the partner (its webhook receives the status events; the PartnerId search attribute) or the
 * tenant (its status URL, SPEC 6.2; TenantId).
 */
export function partyOf(owner: Owner | OwnerRef): { kind: Surface; id: string } {
  const ref = refOf(owner);
  return ref.kind === 'partner' ? { kind: 'partner', id: ref.partnerId } : { kind: 'tenant', id: ref.tenantId };
}

/**
 * The document that holds the owner's delivery credits (src/domain/credits.ts CreditOwner), retention years and
 * legal hold: the SME connection, or the tenant (all its modes).
 */
export function ownerAccount(owner: Owner | OwnerRef): CreditOwner {
  const ref = refOf(owner);
  return ref.kind === 'partner' ? { kind: 'sme', id: ref.smeId } : { kind: 'tenant', id: ref.tenantId };
}

/** The number scope whose invoices spend an account's credits: the SME's, or its tenant's live mode (the only one that spends). */
export function spendingScope(account: CreditOwner): string {
  return account.kind === 'sme' ? smeScope(account.id) : tenantScope(account.id, 'live');
}

/** The owner's ids as a stored row and the Web UI show them: partnerId, smeId and tenantId (null when not one). */
export function ownerIds(owner: Owner | OwnerRef): { surface: Surface; partnerId: string | null; smeId: string | null; tenantId: string | null } {
  const { partnerId, smeId, tenantId } = ownerFields(owner);
  return { surface: surfaceOf(owner), partnerId, smeId, tenantId };
}
