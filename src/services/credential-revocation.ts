import { Partner, SmeConnection, Tenant, type PartnerDoc, type SmeConnectionDoc, type TenantDoc } from '../db/models';
import { adminError } from './admin';
import { recordCredentialChange, type AuditActor } from './credential-audit';
import { generationFilter } from './credential-rotation';

// Revocation of an SME connection, a tenant's client credential and a whole partner, for the CLI and the admin
// API alike. Each is written to the credential audit log first. Revoking what is already revoked changes nothing
// and writes no row.

export interface RevokedSme {
  smeId: string;
  partnerId: string;
  status: 'revoked';
  revokedAt: string;
}

/**
 * Every call with the SME's connection secret (current or previous) is refused from now on (401
 * connection_revoked). The SME record, its invoices and numbers stay: sme:connect on its TRN reissues a secret.
 */
export async function revokeSme(smeId: string, actor: AuditActor, now = new Date()): Promise<RevokedSme> {
  const sme = await SmeConnection.findById(smeId, { partnerId: 1, status: 1, revokedAt: 1 }).lean<SmeConnectionDoc>();
  if (!sme) throw adminError('sme_not_found', `no SME connection ${smeId}`);
  if (sme.status === 'revoked') return { smeId, partnerId: sme.partnerId, status: 'revoked', revokedAt: new Date(sme.revokedAt ?? sme.updatedAt ?? now).toISOString() };
  await recordCredentialChange(actor, { action: 'revoke', subjectType: 'sme', subjectId: smeId, partnerId: sme.partnerId }, now);
  await SmeConnection.updateOne(
    { _id: smeId },
    { $set: { status: 'revoked', revokedAt: now, previousConnectionSecretHash: null, previousConnectionSecretValidUntil: null } },
  ).exec();
  return { smeId, partnerId: sme.partnerId, status: 'revoked', revokedAt: now.toISOString() };
}

export interface RevokedTenantSecret {
  tenantId: string;
  clientId: string;
  revokedAt: string;
}

/**
 * The tenant's client secret is refused, and so is every bearer token it got (the generation moves on), until
 * tenant:rotate-secret issues a new one. The tenant's data and webhook secret are untouched.
 */
export async function revokeTenantSecret(tenantId: string, actor: AuditActor, now = new Date()): Promise<RevokedTenantSecret> {
  const tenant = await Tenant.findById(tenantId, { clientId: 1, credentialGeneration: 1, clientSecretRevokedAt: 1 }).lean<TenantDoc>();
  if (!tenant) throw adminError('tenant_not_found', `no tenant ${tenantId}`);
  if (tenant.clientSecretRevokedAt) return { tenantId, clientId: tenant.clientId, revokedAt: new Date(tenant.clientSecretRevokedAt).toISOString() };
  await recordCredentialChange(actor, { action: 'revoke', subjectType: 'tenant', subjectId: tenantId }, now);
  const { matchedCount } = await Tenant.updateOne(
    { _id: tenantId, credentialGeneration: generationFilter(tenant) },
    { $set: { clientSecretRevokedAt: now, credentialGeneration: (tenant.credentialGeneration ?? 0) + 1, previousClientSecretHash: null, previousClientSecretValidUntil: null } },
  ).exec();
  if (matchedCount !== 1) throw adminError('rotation_conflict', `tenant ${tenantId} changed while this revocation ran (a rotation): run it again`);
  return { tenantId, clientId: tenant.clientId, revokedAt: now.toISOString() };
}

/** The whole partner: every key is refused (403 partner_inactive), its SMEs' secrets with it. */
export async function revokePartner(partnerId: string, actor: AuditActor, now = new Date()): Promise<{ partnerId: string; status: 'revoked' }> {
  const partner = await Partner.findById(partnerId, { status: 1 }).lean<PartnerDoc>();
  if (!partner) throw adminError('partner_not_found', `no partner ${partnerId}`);
  if (partner.status !== 'revoked') {
    await recordCredentialChange(actor, { action: 'revoke', subjectType: 'partner', subjectId: partnerId }, now);
    await Partner.updateOne({ _id: partnerId }, { $set: { status: 'revoked' } }).exec();
  }
  return { partnerId, status: 'revoked' };
}
