import fs from 'node:fs';
import path from 'node:path';
import { Partner, SmeConnection } from '../db/models';
import { connectSme, createPartner } from '../services/admin';

export interface SeedCredentials {
  partnerId: string;
  apiKey: string;
  apiSecret: string;
  webhookSecret: string;
  smeId: string;
  trn: string;
  connectionSecret: string;
}

/** A TRN that satisfies PINT-AE (15 digits, starts with 1, ends with 03). */
const SEED_SME_TRN = '100123456700003';

/**
 * Seeds one test-mode partner with one connected SME, once. Secrets are only stored hashed, so the
 * plain credentials of the seed are kept in the (git-ignored) data directory for later runs to print.
 */
export async function seedOnce(dataDir: string): Promise<SeedCredentials> {
  const file = path.join(dataDir, 'seed-credentials.json');
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as SeedCredentials;
    if ((await Partner.exists({ _id: saved.partnerId })) && (await SmeConnection.exists({ _id: saved.smeId }))) return saved;
  }
  const partner = await createPartner({ name: 'Local Test ERP', mode: 'test' });
  const sme = await connectSme({ partnerId: partner.partnerId, trn: SEED_SME_TRN, name: 'Demo Trading LLC' });
  const creds: SeedCredentials = {
    partnerId: partner.partnerId,
    apiKey: partner.apiKey,
    apiSecret: partner.apiSecret,
    webhookSecret: partner.webhookSecret,
    smeId: sme.smeId,
    trn: sme.trn,
    connectionSecret: sme.connectionSecret,
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(creds, null, 2) + '\n', { mode: 0o600 });
  return creds;
}
