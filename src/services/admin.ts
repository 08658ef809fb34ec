import { randomUUID } from 'node:crypto';
import { Partner, SmeConnection, type PartnerDoc, type SmeConnectionDoc } from '../db/models';
import { randomToken, sha256Hex } from '../credentials/secrets';
import { EMIRATE_HINT, emirateCode, type PartyAddress } from '@einvoice/pint-ae';
import { ServiceError, serviceErrors } from '../domain/errors';
import { webhookUrlProblem } from '../webhooks/url-policy';
import { cliActor, recordCredentialChange, type AuditActor } from './credential-audit';

// Partners and SME connections, for the CLI (einvoice admin) and the admin API alike: the rules live here once.
// Issuing credentials (DESIGN "Decisions"): secrets are returned once and stored as SHA-256 hashes.

/** Admin refusals about a field of the request; the admin API lists each as a finding at this path (400). */
export const ADMIN_FIELD_REFUSALS: Readonly<Record<string, string>> = {
  invalid_webhook_url: 'webhookUrl',
  invalid_status_url: 'statusUrl',
  invalid_address: 'address.emirate',
};

/** Admin refusals naming a subject that does not exist; the admin API answers 404 not_found. */
export const ADMIN_NOT_FOUND: readonly string[] = ['partner_not_found', 'sme_not_found', 'tenant_not_found'];

/**
 * A refused admin action (CLI and admin API alike). The code is the kind the CLI prints and logs keep; a missing
 * subject is 404, a bad field 400, anything else a 409 conflict (the admin API's wording: api/admin adminCall).
 */
export function adminError(code: string, message: string): ServiceError {
  if (ADMIN_NOT_FOUND.includes(code)) return new ServiceError(404, code, 'Not found', message);
  if (ADMIN_FIELD_REFUSALS[code]) return new ServiceError(400, code, 'Invalid request', message);
  return serviceErrors.conflict(code, message);
}

export interface CreatedPartner {
  partnerId: string;
  erpName: string;
  mode: 'test' | 'live';
  apiKey: string;
  apiSecret: string;
  webhookSecret: string;
}

/** The one webhook URL policy of every mode (https, public addresses: url-policy.ts); adminError invalid_webhook_url. */
function assertWebhookUrl(url: string | null | undefined): void {
  const problem = url ? webhookUrlProblem(url) : null;
  if (problem) throw adminError('invalid_webhook_url', problem);
}

export async function createPartner(input: { name: string; mode: 'test' | 'live'; webhookUrl?: string | null }): Promise<CreatedPartner> {
  assertWebhookUrl(input.webhookUrl);
  const partnerId = randomUUID();
  const apiKey = randomToken(input.mode === 'test' ? 'erp_test_' : 'erp_live_');
  const apiSecret = randomToken('sk_', 32);
  const webhookSecret = randomToken('whsec_', 32);
  await Partner.create({
    _id: partnerId,
    erpName: input.name,
    mode: input.mode,
    status: input.mode === 'test' ? 'test' : 'live_pending',
    apiKeyHash: sha256Hex(apiKey),
    apiKeyPrefix: apiKey.slice(0, 13),
    apiSecretHash: sha256Hex(apiSecret),
    webhookSecret,
    webhookUrl: input.webhookUrl ?? null,
  });
  return { partnerId, erpName: input.name, mode: input.mode, apiKey, apiSecret, webhookSecret };
}

/** The partner as operators may see it: no secrets, not even their hashes. */
export interface PartnerView {
  partnerId: string;
  erpName: string;
  mode: string;
  status: string;
  webhookUrl: string | null;
  rateLimitPerMinute: number | null;
  createdAt: string;
  updatedAt: string;
}

export async function updatePartner(partnerId: string, changes: { webhookUrl?: string | null; rateLimitPerMinute?: number | null; status?: PartnerDoc['status'] }, actor: AuditActor = cliActor()): Promise<PartnerView> {
  const $set: Record<string, unknown> = {};
  if (changes.webhookUrl) {
    const partner = await Partner.findById(partnerId, { mode: 1 }).lean<PartnerDoc>();
    if (!partner) throw adminError('partner_not_found', `no partner ${partnerId}`);
    assertWebhookUrl(changes.webhookUrl);
  }
  if (changes.webhookUrl !== undefined) $set.webhookUrl = changes.webhookUrl;
  if (changes.rateLimitPerMinute !== undefined) $set.rateLimitPerMinute = changes.rateLimitPerMinute;
  if (changes.status !== undefined) $set.status = changes.status;
  // Revoking through an update is a revocation like partner:revoke: it goes to the credential audit log.
  if (changes.status === 'revoked' && (await Partner.exists({ _id: partnerId, status: { $ne: 'revoked' } }))) {
    await recordCredentialChange(actor, { action: 'revoke', subjectType: 'partner', subjectId: partnerId }, new Date());
  }
  const updated = await Partner.findOneAndUpdate({ _id: partnerId }, { $set }, { returnDocument: 'after' }).lean<PartnerDoc>();
  if (!updated) throw adminError('partner_not_found', `no partner ${partnerId}`);
  return partnerView(updated);
}

function partnerView(p: PartnerDoc): PartnerView {
  return {
    partnerId: p._id,
    erpName: p.erpName,
    mode: p.mode,
    status: p.status,
    webhookUrl: p.webhookUrl ?? null,
    rateLimitPerMinute: p.rateLimitPerMinute ?? null,
    createdAt: new Date(p.createdAt as Date).toISOString(),
    updatedAt: new Date(p.updatedAt as Date).toISOString(),
  };
}

export interface ConnectedSme {
  smeId: string;
  partnerId: string;
  trn: string;
  connectionSecret: string;
  /** The registration the Partner API fills the SME's party from (null: the bodies must carry it). */
  tradeLicenseNumber: string | null;
  address: PartyAddress | null;
}

export interface SmeConnectInput {
  partnerId: string;
  trn: string;
  name: string;
  /** The SME's trade licence (its legal registration, PINT-AE ibr-150-ae), as tenant:create takes it. */
  tradeLicenseNumber?: string | null;
  /** The SME's registered address in the UAE: line1, city and emirate (PINT-AE ibr-143-ae). */
  address?: PartyAddress | null;
}

/** adminError invalid_address for an address PINT-AE could not render (the CLI checks the same before). */
function assertSmeAddress(address: PartyAddress | null | undefined): void {
  if (!address) return;
  if (!address.line1?.trim() || !address.city?.trim() || !address.emirate?.trim()) throw adminError('invalid_address', 'address needs line1, city and emirate');
  if (!emirateCode(address.emirate)) throw adminError('invalid_address', `address.emirate "${address.emirate}" is not an emirate: ${EMIRATE_HINT}`);
}

/** The registration fields to store: only those given (a reissue keeps what it is not told). */
function registrationOf(input: SmeConnectInput): { tradeLicenseNumber?: string; address?: PartyAddress } {
  return {
    ...(input.tradeLicenseNumber ? { tradeLicenseNumber: input.tradeLicenseNumber } : {}),
    ...(input.address ? { address: { ...input.address, country: 'AE' } } : {}),
  };
}

/**
 * Connects a TRN to a partner, with the SME's trade licence and address when given. On a revoked connection of the
 * same partner and TRN it reissues: a new secret for the same SME record (same smeId, so its invoices, numbers and
 * credits stay with it), active again; the legal name stays as first registered, a given licence or address
 * replaces the stored one. An active connection is refused (sme_already_connected).
 */
export async function connectSme(input: SmeConnectInput, actor: AuditActor = cliActor()): Promise<ConnectedSme> {
  assertSmeAddress(input.address);
  if (!(await Partner.exists({ _id: input.partnerId }))) throw adminError('partner_not_found', `no partner ${input.partnerId}`);
  const existing = await SmeConnection.findOne({ partnerId: input.partnerId, trn: input.trn }, { status: 1 }).lean<SmeConnectionDoc>();
  if (existing?.status === 'revoked') return reissueSme(existing._id, input, actor);
  if (existing) {
    throw adminError('sme_already_connected', `TRN ${input.trn} is already connected to partner ${input.partnerId} (sme:rotate-secret issues a new secret; sme:revoke then sme:connect reissues)`);
  }
  const smeId = randomUUID();
  const connectionSecret = randomToken('cs_', 32);
  const registration = registrationOf(input);
  await SmeConnection.create({ _id: smeId, partnerId: input.partnerId, trn: input.trn, legalName: input.name, ...registration, connectionSecretHash: sha256Hex(connectionSecret) });
  return { smeId, partnerId: input.partnerId, trn: input.trn, connectionSecret, tradeLicenseNumber: registration.tradeLicenseNumber ?? null, address: registration.address ?? null };
}

async function reissueSme(smeId: string, input: SmeConnectInput, actor: AuditActor): Promise<ConnectedSme> {
  const now = new Date();
  const connectionSecret = randomToken('cs_', 32);
  await recordCredentialChange(actor, { action: 'reissue', subjectType: 'sme', subjectId: smeId, partnerId: input.partnerId }, now);
  const { matchedCount } = await SmeConnection.updateOne(
    { _id: smeId, status: 'revoked' },
    { $set: { status: 'active', revokedAt: null, connectionSecretHash: sha256Hex(connectionSecret), previousConnectionSecretHash: null, previousConnectionSecretValidUntil: null, ...registrationOf(input) } },
  ).exec();
  if (matchedCount !== 1) throw adminError('sme_already_connected', `TRN ${input.trn} was reconnected to partner ${input.partnerId} meanwhile`);
  const stored = await SmeConnection.findById(smeId, { tradeLicenseNumber: 1, address: 1 }).lean<SmeConnectionDoc>();
  return { smeId, partnerId: input.partnerId, trn: input.trn, connectionSecret, tradeLicenseNumber: stored?.tradeLicenseNumber ?? null, address: (stored?.address as PartyAddress | null) ?? null };
}
