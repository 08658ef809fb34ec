import fs from 'node:fs';
import path from 'node:path';
import { Partner, SmeConnection, Tenant } from '../db/models';
import { connectSme, createPartner, updatePartner } from '../services/admin';
import { createTenant, updateTenant, type CreatedTenant } from '../services/tenants';

export interface SeedCredentials {
  partnerId: string;
  apiKey: string;
  apiSecret: string;
  webhookSecret: string;
  smeId: string;
  trn: string;
  connectionSecret: string;
  /** The sandbox tenant (Tenant API), seeded beside the partner. */
  tenant?: CreatedTenant & { trn: string };
}

/** TRNs that satisfy PINT-AE (15 digits, start with 1, end with 03). */
const SEED_SME_TRN = '100123456700003';
const SEED_TENANT_TRN = '100234567800003';

/**
 * Seeds one test-mode partner with one connected SME, once. Secrets are only stored hashed, so the
 * plain credentials of the seed are kept in the (git-ignored) data directory for later runs to print.
 * `webhookUrl` (the partner's) and `statusUrl` (the tenant's) are set on every call: they point at this run's
 * local receiver, whose port may change between runs.
 */
export async function seedOnce(dataDir: string, opts: { statusUrl?: string; webhookUrl?: string } = {}): Promise<SeedCredentials> {
  const file = path.join(dataDir, 'seed-credentials.json');
  let creds: SeedCredentials | null = null;
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as SeedCredentials;
    if ((await Partner.exists({ _id: saved.partnerId })) && (await SmeConnection.exists({ _id: saved.smeId }))) creds = saved;
  }
  if (!creds) {
    const partner = await createPartner({ name: 'Local Test ERP', mode: 'test' });
    // With its registration, so the SPEC's minimum body (no trade licence, no emirate) goes through (issue 35 case 8).
    const sme = await connectSme({ partnerId: partner.partnerId, trn: SEED_SME_TRN, name: 'Demo Trading LLC', tradeLicenseNumber: 'DED-100200', address: { line1: 'Office 1204, Bay Square 3', city: 'Dubai', emirate: 'Dubai' } });
    creds = {
      partnerId: partner.partnerId,
      apiKey: partner.apiKey,
      apiSecret: partner.apiSecret,
      webhookSecret: partner.webhookSecret,
      smeId: sme.smeId,
      trn: sme.trn,
      connectionSecret: sme.connectionSecret,
    };
  }
  if (opts.webhookUrl) await updatePartner(creds.partnerId, { webhookUrl: opts.webhookUrl });
  creds.tenant = await seedTenant(creds.tenant, opts.statusUrl ?? null);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
  return creds;
}

/**
 * The sandbox tenant, approved, created once (files from before the Tenant API gain it). Its status URL is the
 * stack's receiver of this run (its port may change between runs).
 */
async function seedTenant(saved: SeedCredentials['tenant'], statusUrl: string | null): Promise<NonNullable<SeedCredentials['tenant']>> {
  if (saved && (await Tenant.exists({ _id: saved.tenantId }))) {
    if (statusUrl) await updateTenant(saved.tenantId, { statusUrl });
    return saved;
  }
  // A store kept from an older seed file may hold the tenant of this TRN already: start over with a new one.
  await Tenant.deleteOne({ trn: SEED_TENANT_TRN });
  const tenant = await createTenant({
    trn: SEED_TENANT_TRN,
    name: 'Falcon Trading LLC',
    nameArabic: 'فالكون للتجارة ذ.م.م',
    mode: 'sandbox',
    kyb: 'approved',
    statusUrl,
    address: { line1: 'Office 1204, Bay Square 3', city: 'Dubai', emirate: 'DXB', country: 'AE' },
    tradeLicenseNumber: 'DED-778812',
  });
  return { ...tenant, trn: SEED_TENANT_TRN };
}
