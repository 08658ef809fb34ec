// The retention policy of stored records (I/O around the pure retention.ts): the owner's override and legal
// hold, the invoice's own hold, the configured default. Set by `einvoice records retention|hold`.
import { config } from '../config';
import { Invoice, SmeConnection, Tenant } from '../db/models';
import { ownerAccount, storedOwnerOf, type StoredOwner } from '../domain/owner';
import type { RetentionPolicy } from './retention';

/** What names a record's owner and its own hold (an invoice, or the archive of a deleted one). */
export interface HeldRecord extends StoredOwner {
  legalHold?: boolean | null;
}

type OwnerPolicy = { retentionYears?: number | null; legalHold?: boolean | null } | null;

/** Where an owner's policy is kept (owner.ts ownerAccount). */
const ACCOUNTS = { sme: SmeConnection, tenant: Tenant } as const;

/** Caches owners for a purge that walks many records of few owners. */
export function retentionPolicies(): (record: HeldRecord) => Promise<RetentionPolicy> {
  const owners = new Map<string, Promise<OwnerPolicy>>();
  const ownerOf = (r: HeldRecord): Promise<OwnerPolicy> => {
    const account = ownerAccount(storedOwnerOf(r));
    const key = `${account.kind}:${account.id}`;
    let found = owners.get(key);
    if (!found) {
      found = (ACCOUNTS[account.kind] as typeof SmeConnection).findById(account.id, { retentionYears: 1, legalHold: 1 }).lean<OwnerPolicy>();
      owners.set(key, found);
    }
    return found;
  };
  return async (record) => {
    const owner = await ownerOf(record);
    return {
      years: Math.max(owner?.retentionYears ?? 0, config().recordsRetentionYears),
      hold: record.legalHold === true || owner?.legalHold === true,
    };
  };
}

export type HoldTarget = { sme: string } | { tenant: string } | { invoice: string };

/** Sets (or lifts) a legal hold; returns false when the SME, tenant or invoice does not exist. */
export async function setLegalHold(target: HoldTarget, on: boolean): Promise<boolean> {
  const $set = { legalHold: on };
  const res = 'sme' in target
    ? await SmeConnection.updateOne({ _id: target.sme }, { $set })
    : 'tenant' in target
      ? await Tenant.updateOne({ _id: target.tenant }, { $set })
      : await Invoice.updateOne({ _id: target.invoice }, { $set });
  return res.matchedCount === 1;
}

/** Sets an SME's or tenant's retention in years (null: back to the configured default). */
export async function setRetentionYears(target: { sme: string } | { tenant: string }, years: number | null): Promise<boolean> {
  const $set = { retentionYears: years };
  const res = 'sme' in target ? await SmeConnection.updateOne({ _id: target.sme }, { $set }) : await Tenant.updateOne({ _id: target.tenant }, { $set });
  return res.matchedCount === 1;
}
