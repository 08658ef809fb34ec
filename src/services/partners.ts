// The Partner API caller's own records, as tenants.ts is the Tenant API's: who a key and secret belong to, which
// SME a connection secret connects, and whoami. The HTTP layer (http/partner-auth.ts, the routes) reads the store
// only through here.
import { Partner, SmeConnection, type PartnerDoc, type SmeConnectionDoc } from '../db/models';
import { secretMatches, sha256Hex } from '../credentials/secrets';
import { matchRotating, previousIsLive } from '../credentials/rotation';

/**
 * The partner whose key and secret these are: the current pair, or the pair before the last rotation until its
 * expiry (credentials/rotation.ts). The old key works only with the old secret.
 */
export async function partnerOfPair(key: string, secret: string, now = new Date()): Promise<PartnerDoc | null> {
  const keyHash = sha256Hex(key);
  const current = await Partner.findOne({ apiKeyHash: keyHash }).lean<PartnerDoc>();
  if (current) return secretMatches(secret, current.apiSecretHash) ? current : null;
  const previous = await Partner.findOne({ previousApiKeyHash: keyHash }).lean<PartnerDoc>();
  if (!previous?.previousApiSecretHash || !previousIsLive(previous.previousApiSecretValidUntil, now)) return null;
  return secretMatches(secret, previous.previousApiSecretHash) ? previous : null;
}

/** The partner's SME whose connection secret this is, current or (until its expiry) previous. */
export async function smeOfSecret(partnerId: string, secret: string, now = new Date()): Promise<SmeConnectionDoc | null> {
  const hash = sha256Hex(secret);
  const sme =
    (await SmeConnection.findOne({ connectionSecretHash: hash, partnerId }).lean<SmeConnectionDoc>()) ??
    (await SmeConnection.findOne({ previousConnectionSecretHash: hash, partnerId }).lean<SmeConnectionDoc>());
  if (!sme) return null;
  const stored = { hash: sme.connectionSecretHash, previousHash: sme.previousConnectionSecretHash, previousValidUntil: sme.previousConnectionSecretValidUntil };
  return matchRotating(secret, stored, now) ? sme : null;
}

export interface WhoamiView {
  partnerId: string;
  erpName: string;
  status: string;
  mode: string;
  connectedSmes: number;
  lastTestAt: string | null;
  timestamp: string;
}

/** GET /v1/partner/whoami's answer: who the key belongs to and how many SMEs it serves. */
export async function whoami(partner: PartnerDoc): Promise<WhoamiView> {
  const connectedSmes = await SmeConnection.countDocuments({ partnerId: partner._id, status: 'active' });
  return {
    partnerId: partner._id,
    erpName: partner.erpName,
    status: partner.status,
    mode: partner.mode,
    connectedSmes,
    lastTestAt: partner.lastTestAt ? new Date(partner.lastTestAt).toISOString() : null,
    timestamp: new Date().toISOString(),
  };
}
