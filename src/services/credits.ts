// Delivery credits: top-ups, the one spend per live pipeline run, and what the APIs show. The balance is a
// counter on the owner's document, changed only by single-document conditional updates ($inc where
// credits >= 1), which the store contract suite (test/store/) proves atomic on our FerretDB build and on
// MongoDB: it never goes below zero. The ledger (credit_ledger) is the audit trail of every change.
import { randomUUID } from 'node:crypto';
import { Invoice, SmeConnection, Tenant, CreditLedgerEntry, type CreditLedgerEntryDoc } from '../db/models';
import { isDuplicateKeyError } from '../db/duplicate-key';
import { spendEntryId, topUpAmountProblem, type CreditEntryKind, type CreditOwner } from '../domain/credits';
import { ServiceError, serviceErrors } from '../domain/errors';
import { ownerAccount, storedOwnerOf } from '../domain/owner';
import { releaseBlockedInvoices } from './credit-release';

export type { CreditOwner };

/**
 * A spend claim without a recorded balance older than this belongs to an attempt that died (the activity's
 * start-to-close timeout is 30 s, and a live attempt settles its claim in milliseconds).
 */
const ABANDONED_CLAIM_MS = 60_000;

/** Where an owner's balance lives: a counter on the SME connection or on the tenant. */
interface BalanceAccount {
  /** The balance after adding `amount`; null when the owner does not exist. */
  add(amount: number): Promise<number | null>;
  /** The balance after taking one credit; null when there was none to take (or no such owner). */
  takeOne(): Promise<number | null>;
  /** The current balance; null when the owner does not exist. */
  read(): Promise<number | null>;
}

function accountOf(owner: CreditOwner): BalanceAccount {
  // (no projection: FerretDB's findAndModify does not take one; the documents are small)
  const after = { returnDocument: 'after' as const };
  const credits = (doc: { credits?: number | null } | null) => (doc ? (doc.credits ?? 0) : null);
  // Both models keep `credits` on the owner's own document; the cast picks one model's static API for both.
  const model = (owner.kind === 'sme' ? SmeConnection : Tenant) as unknown as typeof SmeConnection;
  return {
    add: async (amount) => credits(await model.findOneAndUpdate({ _id: owner.id }, { $inc: { credits: amount } }, after).lean()),
    takeOne: async () => credits(await model.findOneAndUpdate({ _id: owner.id, credits: { $gte: 1 } }, { $inc: { credits: -1 } }, after).lean()),
    read: async () => credits(await model.findById(owner.id, { credits: 1 }).lean()),
  };
}

const unknownOwner = (owner: CreditOwner) =>
  serviceErrors.notFound(
    owner.kind === 'sme'
      ? `No SME ${owner.id.slice(0, 64)}: send the smeId that \`einvoice admin sme:connect\` printed.`
      : `No tenant ${owner.id.slice(0, 64)}: send the tenantId that \`einvoice admin tenant:create\` printed.`,
  );

/**
 * Adds `amount` credits and then signals every blocked_no_credit invoice of the owner, oldest first; each then
 * tries its own spend, so they resume while the credit lasts and the rest stay blocked. A failed signal does not
 * undo or fail the top-up (the balance is already there; `retry` still releases an invoice).
 */
export async function topUp(owner: CreditOwner, amount: number): Promise<{ balance: number }> {
  const problem = topUpAmountProblem(amount);
  if (problem) {
    const message = `${problem}, got ${JSON.stringify(amount)}`;
    throw serviceErrors.validation([{ code: 'invalid_amount', path: 'amount', message }], message);
  }
  const balance = await accountOf(owner).add(amount);
  if (balance === null) throw unknownOwner(owner);
  await CreditLedgerEntry.create({ _id: `topup:${randomUUID()}`, ownerKind: owner.kind, ownerId: owner.id, kind: 'topup', amount, balanceAfter: balance, at: new Date() });
  await releaseBlockedInvoices(owner);
  return { balance };
}

export type SpendOutcome = 'spent' | 'already_spent' | 'no_credit';

/**
 * Spends one credit for an invoice's pipeline run, at most once however often or concurrently it is called:
 *
 * 1. claim: insert the ledger entry `spend:<invoiceId>:<run>`. Its unique _id admits one caller; the others
 *    read the claim: recorded balance -> already spent; still open -> in flight (a retryable
 *    `credit_spend_in_progress`), or abandoned by a dead attempt -> counted as spent.
 * 2. take one credit with the conditional update (none left -> the claim is removed: no credit, nothing spent).
 * 3. record the balance after it on the claim, which settles it.
 *
 * An attempt that dies between 1 and 2 leaves a claim with no credit taken: that run delivers for free rather
 * than ever being charged twice (no transactions across two documents; the audit shows the claim without a balance).
 */
export async function spend(owner: CreditOwner, { invoiceId, run }: { invoiceId: string; run: number }): Promise<SpendOutcome> {
  const _id = spendEntryId(invoiceId, run);
  try {
    await CreditLedgerEntry.create({ _id, ownerKind: owner.kind, ownerId: owner.id, kind: 'spend', amount: 1, invoiceId, run, at: new Date() });
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    return existingClaim(_id);
  }
  const balance = await accountOf(owner).takeOne();
  if (balance === null) {
    await CreditLedgerEntry.deleteOne({ _id, balanceAfter: { $exists: false } });
    return 'no_credit';
  }
  await CreditLedgerEntry.updateOne({ _id }, { $set: { balanceAfter: balance } });
  return 'spent';
}

async function existingClaim(_id: string): Promise<SpendOutcome> {
  const claim = await CreditLedgerEntry.findById(_id, { balanceAfter: 1, at: 1 }).lean();
  if (claim && claim.balanceAfter != null) return 'already_spent';
  if (claim && Date.now() - new Date(claim.at).getTime() > ABANDONED_CLAIM_MS) return 'already_spent';
  // Open, or just removed by a refused attempt: ask the caller to come back once it has settled.
  throw new ServiceError(409, 'credit_spend_in_progress', 'Conflict', `another attempt is spending the credit of ${_id}; try again shortly`, undefined, {}, { retryable: true });
}

/**
 * The credit step of an invoice's pipeline: live deliveries spend one credit of the SME (or tenant) per run
 * (DESIGN); test and sandbox modes are free. ServiceError `invoice_not_found` when it was deleted.
 */
export async function spendForDelivery({ invoiceId }: { invoiceId: string }): Promise<'free' | SpendOutcome> {
  const inv = await Invoice.findById(invoiceId, { mode: 1, partnerId: 1, smeId: 1, tenantId: 1, run: 1, creditChargedRun: 1 }).lean();
  if (!inv) throw new ServiceError(404, 'invoice_not_found', 'Not found', `invoice ${invoiceId} not found (deleted?)`);
  if (inv.mode !== 'live') return 'free';
  const run = inv.run ?? 1;
  // Runs charged before the ledger existed were marked on the invoice instead.
  if (inv.creditChargedRun === run) return 'already_spent';
  return spend(ownerAccount(storedOwnerOf(inv)), { invoiceId, run });
}

export interface CreditEntryView {
  kind: CreditEntryKind;
  amount: number;
  /** Null on a spend in flight, or one whose attempt died before recording it. */
  balanceAfter: number | null;
  invoiceId: string | null;
  run: number | null;
  at: string;
}

function entryView(e: CreditLedgerEntryDoc): CreditEntryView {
  return {
    kind: e.kind as CreditEntryKind,
    amount: e.amount,
    balanceAfter: e.balanceAfter ?? null,
    invoiceId: e.invoiceId ?? null,
    run: e.run ?? null,
    at: new Date(e.at).toISOString(),
  };
}

/** The owner's ledger, newest first. */
export async function recentEntries(owner: CreditOwner, limit = 20): Promise<CreditEntryView[]> {
  const rows = await CreditLedgerEntry.find({ ownerKind: owner.kind, ownerId: owner.id })
    .sort({ at: -1 })
    .limit(Math.max(1, Math.min(limit, 100)))
    .lean<CreditLedgerEntryDoc[]>();
  return rows.map(entryView);
}

/** What GET .../credits answers, for the Partner and the admin API alike. */
export async function creditsOverview(owner: CreditOwner, limit = 20): Promise<{ balance: number; entries: CreditEntryView[] }> {
  const balance = await accountOf(owner).read();
  if (balance === null) throw unknownOwner(owner);
  return { balance, entries: await recentEntries(owner, limit) };
}
