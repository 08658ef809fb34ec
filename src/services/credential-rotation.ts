import { Partner, SmeConnection, Tenant, type PartnerDoc, type SmeConnectionDoc, type TenantDoc } from '../db/models';
import { randomToken, sha256Hex } from '../credentials/secrets';
import { previousValidUntil } from '../credentials/overlap';
import { adminError } from './admin';
import { recordCredentialChange, type AuditActor } from './credential-audit';

// Rotation of every secret the service issues, for the CLI (einvoice admin *:rotate-*) and the admin API alike.
// The new secret works at once and is shown once; the current one becomes the previous one, accepted until
// previousSecretValidUntil (overlap 0: not kept at all). Only one previous secret is kept: rotating again during
// an overlap drops the older one at once. Secrets are stored as SHA-256 hashes, except webhook secrets, which
// sign HMACs and so are kept as issued.

export interface RotationOptions {
  /** How long the current secret keeps working (credentials/overlap.ts parses the operator's `24h`). */
  overlapMs: number;
  actor: AuditActor;
  now?: Date;
}

export interface RotatedPartnerSecret {
  partnerId: string;
  apiKey: string;
  apiSecret: string;
  previousSecretValidUntil: string | null;
}

export interface RotatedSmeSecret {
  smeId: string;
  connectionSecret: string;
  previousSecretValidUntil: string | null;
}

export interface RotatedTenantSecret {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  previousSecretValidUntil: string | null;
}

export interface RotatedWebhookSecret {
  webhookSecret: string;
  previousSecretValidUntil: string | null;
}

/**
 * A new API key and secret pair. Only the key's hash is stored, so the old key cannot be printed again: the
 * partner gets a new pair, and the old pair (that key with that secret only) works until the overlap ends.
 */
export async function rotatePartnerSecret(partnerId: string, opts: RotationOptions): Promise<RotatedPartnerSecret> {
  const now = opts.now ?? new Date();
  const partner = await Partner.findById(partnerId, { mode: 1, apiKeyHash: 1, apiSecretHash: 1 }).lean<PartnerDoc>();
  if (!partner) throw adminError('partner_not_found', `no partner ${partnerId}`);
  const apiKey = randomToken(partner.mode === 'test' ? 'erp_test_' : 'erp_live_');
  const apiSecret = randomToken('sk_', 32);
  const until = previousValidUntil(now, opts.overlapMs);
  await recordCredentialChange(opts.actor, { action: 'rotate_secret', subjectType: 'partner', subjectId: partnerId, previousSecretValidUntil: until }, now);
  const keep = until !== null;
  await changeOnce(Partner, { _id: partnerId, apiKeyHash: partner.apiKeyHash }, {
    apiKeyHash: sha256Hex(apiKey),
    apiKeyPrefix: apiKey.slice(0, 13),
    apiSecretHash: sha256Hex(apiSecret),
    previousApiKeyHash: keep ? partner.apiKeyHash : null,
    previousApiSecretHash: keep ? partner.apiSecretHash : null,
    previousApiSecretValidUntil: until,
  }, `partner ${partnerId}`);
  return { partnerId, apiKey, apiSecret, previousSecretValidUntil: iso(until) };
}

/** A new connection secret for the same SME record. A revoked connection is reissued by sme:connect instead. */
export async function rotateSmeSecret(smeId: string, opts: RotationOptions): Promise<RotatedSmeSecret> {
  const now = opts.now ?? new Date();
  const sme = await SmeConnection.findById(smeId, { partnerId: 1, status: 1, connectionSecretHash: 1 }).lean<SmeConnectionDoc>();
  if (!sme) throw adminError('sme_not_found', `no SME connection ${smeId}`);
  if (sme.status !== 'active') throw adminError('sme_revoked', `SME connection ${smeId} is revoked: reissue it with sme:connect (same partner and TRN)`);
  const connectionSecret = randomToken('cs_', 32);
  const until = previousValidUntil(now, opts.overlapMs);
  await recordCredentialChange(opts.actor, { action: 'rotate_secret', subjectType: 'sme', subjectId: smeId, partnerId: sme.partnerId, previousSecretValidUntil: until }, now);
  await changeOnce(SmeConnection, { _id: smeId, status: 'active', connectionSecretHash: sme.connectionSecretHash }, {
    connectionSecretHash: sha256Hex(connectionSecret),
    previousConnectionSecretHash: until ? sme.connectionSecretHash : null,
    previousConnectionSecretValidUntil: until,
  }, `SME connection ${smeId}`);
  return { smeId, connectionSecret, previousSecretValidUntil: iso(until) };
}

/**
 * A new client secret (the client id stays: it is not a secret). Bearer tokens got with the previous secret die
 * with it (the generation in each token). On a revoked credential this is the reissue: no previous secret is kept.
 */
export async function rotateTenantSecret(tenantId: string, opts: RotationOptions): Promise<RotatedTenantSecret> {
  const now = opts.now ?? new Date();
  const tenant = await Tenant.findById(tenantId, { clientId: 1, clientSecretHash: 1, credentialGeneration: 1, clientSecretRevokedAt: 1 }).lean<TenantDoc>();
  if (!tenant) throw adminError('tenant_not_found', `no tenant ${tenantId}`);
  const clientSecret = randomToken('ts_', 32);
  const revoked = !!tenant.clientSecretRevokedAt;
  const until = revoked ? null : previousValidUntil(now, opts.overlapMs);
  await recordCredentialChange(opts.actor, { action: revoked ? 'reissue' : 'rotate_secret', subjectType: 'tenant', subjectId: tenantId, previousSecretValidUntil: until }, now);
  const generation = tenant.credentialGeneration ?? 0;
  await changeOnce(Tenant, { _id: tenantId, clientSecretHash: tenant.clientSecretHash, credentialGeneration: generationFilter(tenant) }, {
    clientSecretHash: sha256Hex(clientSecret),
    previousClientSecretHash: until ? tenant.clientSecretHash : null,
    previousClientSecretValidUntil: until,
    credentialGeneration: generation + 1,
    clientSecretRevokedAt: null,
  }, `tenant ${tenantId}`);
  return { tenantId, clientId: tenant.clientId, clientSecret, previousSecretValidUntil: iso(until) };
}

/** A new secret for the partner's webhooks; during the overlap each webhook carries both signatures. */
export function rotatePartnerWebhookSecret(partnerId: string, opts: RotationOptions): Promise<RotatedWebhookSecret> {
  return rotateWebhookSecret('partner', partnerId, opts);
}

/** The same for a tenant's status updates. */
export function rotateTenantWebhookSecret(tenantId: string, opts: RotationOptions): Promise<RotatedWebhookSecret> {
  return rotateWebhookSecret('tenant', tenantId, opts);
}

/** What a webhook secret's owner (a partner or a tenant) keeps of it. */
interface WebhookSecretHolder {
  _id: string;
  webhookSecret: string;
}

async function rotateWebhookSecret(subjectType: 'partner' | 'tenant', id: string, opts: RotationOptions): Promise<RotatedWebhookSecret> {
  const model = subjectType === 'partner' ? Partner : Tenant;
  const now = opts.now ?? new Date();
  const holder = await (model as typeof Partner).findById(id, { webhookSecret: 1 }).lean<WebhookSecretHolder>();
  if (!holder) throw adminError(`${subjectType}_not_found`, `no ${subjectType} ${id}`);
  const webhookSecret = randomToken('whsec_', 32);
  const until = previousValidUntil(now, opts.overlapMs);
  await recordCredentialChange(opts.actor, { action: 'rotate_webhook_secret', subjectType, subjectId: id, previousSecretValidUntil: until }, now);
  await changeOnce(model, { _id: id, webhookSecret: holder.webhookSecret }, {
    webhookSecret,
    previousWebhookSecret: until ? holder.webhookSecret : null,
    previousWebhookSecretValidUntil: until,
  }, `${subjectType} ${id}`);
  return { webhookSecret, previousSecretValidUntil: iso(until) };
}

/**
 * Applies a rotation only if the secret is still the one read: two rotations at the same moment would otherwise
 * both print a "new" secret of which one never works. The loser is told to run it again.
 */
async function changeOnce(model: { updateOne(filter: object, update: object): { exec(): Promise<{ matchedCount: number }> } }, filter: object, $set: Record<string, unknown>, what: string): Promise<void> {
  const { matchedCount } = await model.updateOne(filter, { $set }).exec();
  if (matchedCount !== 1) throw adminError('rotation_conflict', `${what} changed while this rotation ran (another rotation or revocation): run it again`);
}

/** The generation read, as a filter (tenants stored before rotation existed have none: generation 0). */
export function generationFilter(tenant: Pick<TenantDoc, 'credentialGeneration'>): number | { $in: (number | null)[] } {
  return tenant.credentialGeneration ? tenant.credentialGeneration : { $in: [0, null] };
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
