import { randomInt } from 'node:crypto';
import { Partner } from '../../src/db/models';
import { connectSme, createPartner, type ConnectedSme, type CreatedPartner } from '../../src/services/admin';

/** A TRN PINT-AE accepts (15 digits, leading 1, trailing 03), unique enough for one test run. */
export function randomTrn(): string {
  return '1' + String(randomInt(0, 1e12)).padStart(12, '0') + '03';
}

export interface TestPartner extends CreatedPartner {
  sme: ConnectedSme;
  /** Headers for partner-only endpoints (ping, whoami, validate-trn). */
  keyHeaders: Record<string, string>;
  /** Headers for SME-scoped endpoints. */
  headers: Record<string, string>;
}

/**
 * Each test makes its own partner and SME so tests never share state. `storedWebhookUrl` is written to the store
 * past the admin rules: a URL that was fine when it was set and now resolves somewhere it must not (the send-time
 * policy's case).
 */
export async function newPartner(opts: { mode?: 'test' | 'live'; webhookUrl?: string | null; storedWebhookUrl?: string; trn?: string } = {}): Promise<TestPartner> {
  const partner = await createPartner({ name: `Test ERP ${randomInt(1e6)}`, mode: opts.mode ?? 'test', webhookUrl: opts.webhookUrl ?? null });
  if (opts.storedWebhookUrl) await Partner.updateOne({ _id: partner.partnerId }, { $set: { webhookUrl: opts.storedWebhookUrl } });
  const sme = await connectSme({ partnerId: partner.partnerId, trn: opts.trn ?? randomTrn(), name: 'Test SME LLC' });
  const keyHeaders = { 'X-API-Key': partner.apiKey, 'X-API-Secret': partner.apiSecret };
  return { ...partner, sme, keyHeaders, headers: { ...keyHeaders, 'x-erp-partner-secret': sme.connectionSecret } };
}
