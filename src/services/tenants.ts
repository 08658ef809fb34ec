import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { Tenant, type TenantDoc } from '../db/models';
import { randomToken, sha256Hex } from '../credentials/secrets';
import { matchRotating, tokenGenerationLive } from '../credentials/rotation';
import { signJwt, verifyJwt } from '../credentials/jwt';
import type { PartyAddress } from '@einvoice/pint-ae';
import type { TenantMode, TenantRegistration } from '../domain/tenant-invoice-types';
import { ServiceError } from '../domain/errors';
import { webhookUrlProblem } from '../webhooks/url-policy';
import { adminError } from './admin';

// Tenant accounts (the Tenant API): issued by `einvoice admin tenant:create`, authenticated by a JWT that
// POST /v1/auth/token exchanges for the client id and secret (DESIGN "Decisions": HS256, 1 h).

export const TOKEN_LIFETIME_SECONDS = 3600;

export interface CreatedTenant {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  mode: TenantMode;
  webhookSecret: string;
}

export interface TenantInput {
  trn: string;
  name: string;
  nameArabic: string;
  mode: TenantMode;
  kyb?: 'approved' | 'pending';
  statusUrl?: string | null;
  address?: PartyAddress | null;
  tradeLicenseNumber?: string | null;
}

/** Status updates go to public https URLs only, in every mode, as partners' webhooks do (url-policy.ts). */
function assertStatusUrl(url: string | null | undefined): void {
  const problem = url ? webhookUrlProblem(url) : null;
  if (problem) throw adminError('invalid_status_url', problem);
}

export async function createTenant(input: TenantInput): Promise<CreatedTenant> {
  assertStatusUrl(input.statusUrl);
  if (await Tenant.exists({ trn: input.trn })) throw adminError('tenant_exists', `TRN ${input.trn} already has a tenant account: one tenant per TRN (use tenant:update)`);
  const tenantId = randomUUID();
  const clientId = randomToken('tc_', 12);
  const clientSecret = randomToken('ts_', 32);
  const webhookSecret = randomToken('whsec_', 32);
  await Tenant.create({
    _id: tenantId,
    trn: input.trn,
    legalName: input.name,
    legalNameArabic: input.nameArabic,
    address: input.address ?? null,
    tradeLicenseNumber: input.tradeLicenseNumber ?? null,
    mode: input.mode,
    kyb: input.kyb ?? 'pending',
    statusUrl: input.statusUrl ?? null,
    clientId,
    clientSecretHash: sha256Hex(clientSecret),
    webhookSecret,
  });
  return { tenantId, clientId, clientSecret, mode: input.mode, webhookSecret };
}

/** The tenant as operators see it: no secrets. */
export interface TenantView {
  tenantId: string;
  trn: string;
  legalName: string;
  legalNameArabic: string;
  mode: string;
  kyb: string;
  statusUrl: string | null;
  address: PartyAddress | null;
  tradeLicenseNumber: string | null;
}

export interface TenantChanges {
  mode?: TenantMode;
  kyb?: 'approved' | 'pending';
  statusUrl?: string | null;
  address?: PartyAddress;
  tradeLicenseNumber?: string;
}

export async function updateTenant(tenantId: string, changes: TenantChanges): Promise<TenantView> {
  const current = await Tenant.findById(tenantId, { mode: 1 }).lean<TenantDoc>();
  if (!current) throw adminError('tenant_not_found', `no tenant ${tenantId}`);
  assertStatusUrl(changes.statusUrl);
  const $set: Record<string, unknown> = {};
  for (const key of ['mode', 'kyb', 'statusUrl', 'address', 'tradeLicenseNumber'] as const) if (changes[key] !== undefined) $set[key] = changes[key];
  const updated = await Tenant.findOneAndUpdate({ _id: tenantId }, { $set }, { returnDocument: 'after' }).lean<TenantDoc>();
  if (!updated) throw adminError('tenant_not_found', `no tenant ${tenantId}`);
  return tenantView(updated);
}

export function tenantView(t: TenantDoc): TenantView {
  return { tenantId: t._id, trn: t.trn, legalName: t.legalName, legalNameArabic: t.legalNameArabic, mode: t.mode, kyb: t.kyb, statusUrl: t.statusUrl ?? null, address: (t.address as PartyAddress | null) ?? null, tradeLicenseNumber: t.tradeLicenseNumber ?? null };
}

/** What a tenant's invoices default to (the seller details a body may leave out). */
export function tenantRegistration(t: TenantDoc): TenantRegistration {
  return {
    trn: t.trn,
    legalName: t.legalName,
    legalNameArabic: t.legalNameArabic,
    address: (t.address as PartyAddress | null) ?? null,
    tradeLicenseNumber: t.tradeLicenseNumber ?? null,
  };
}

const unauthorized = (detail: string) => new ServiceError(401, 'missing_authorization_header', 'Unauthorized', detail);

/** POST /v1/auth/token: a bearer token for a client id and secret (401 when they do not match a tenant). */
export async function issueToken(clientId: string, clientSecret: string, now = Date.now()): Promise<{ accessToken: string; tokenType: 'Bearer'; expiresIn: number }> {
  const tenant = await Tenant.findOne({ clientId }, { clientSecretHash: 1, previousClientSecretHash: 1, previousClientSecretValidUntil: 1, credentialGeneration: 1, clientSecretRevokedAt: 1 }).lean<TenantDoc>();
  // The current secret, or the previous one during its overlap; an expired previous secret is simply wrong.
  const matched = tenant && matchRotating(clientSecret, { hash: tenant.clientSecretHash, previousHash: tenant.previousClientSecretHash, previousValidUntil: tenant.previousClientSecretValidUntil }, new Date(now));
  if (!tenant || !matched) {
    throw unauthorized('clientId and clientSecret do not match a tenant: send the pair `einvoice admin tenant:create` (or tenant:rotate-secret) printed.');
  }
  if (tenant.clientSecretRevokedAt) throw unauthorized('This client secret has been revoked: ask the operator for a new one (einvoice admin tenant:rotate-secret).');
  const generation = (tenant.credentialGeneration ?? 0) - (matched === 'previous' ? 1 : 0);
  const iat = Math.floor(now / 1000);
  const accessToken = signJwt({ sub: tenant._id, iat, exp: iat + TOKEN_LIFETIME_SECONDS, aud: 'einvoice-tenant', gen: generation }, config().jwtSecret);
  return { accessToken, tokenType: 'Bearer', expiresIn: TOKEN_LIFETIME_SECONDS };
}

/**
 * The tenant behind an `Authorization: Bearer` header: 401 missing_authorization_header when absent, malformed,
 * forged or expired (SPEC 7.2); 403 kyb_required while compliance has not approved the tenant.
 */
export async function authenticateTenant(header: string): Promise<TenantDoc> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('Send Authorization: Bearer <accessToken>; get a token from POST /v1/auth/token with your clientId and clientSecret.');
  const claims = verifyJwt(m[1], [config().jwtSecret, config().jwtPreviousSecret]); // new tokens: current secret only
  if (!claims) throw unauthorized('The access token is invalid or expired (tokens live 1 hour): get a new one from POST /v1/auth/token.');
  const tenant = await Tenant.findById(claims.sub).lean<TenantDoc>();
  if (!tenant) throw unauthorized('The access token names no tenant: get a new one from POST /v1/auth/token.');
  if (tenant.clientSecretRevokedAt || !tokenGenerationLive(claims.gen ?? 0, tenant.credentialGeneration ?? 0, tenant.previousClientSecretValidUntil, new Date())) {
    throw unauthorized('The access token was got with a client secret that has since been rotated out or revoked: get a new one from POST /v1/auth/token with your current clientSecret.');
  }
  if (tenant.kyb !== 'approved') {
    throw new ServiceError(403, 'kyb_required', 'Forbidden', 'This tenant is not yet approved by compliance (KYB); the API opens once the approval is recorded.');
  }
  return tenant;
}
