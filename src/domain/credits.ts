// Delivery credits (SPEC 3.1 blocked_no_credit; DESIGN: one live delivery per pipeline run spends one, a top-up
// releases blocked invoices). Pure: who owns a balance, what a top-up may be, how a spend is named.

/** Who a balance belongs to: a Partner API SME connection or a Tenant API tenant (live deliveries of each). */
export type CreditOwner = { kind: 'sme'; id: string } | { kind: 'tenant'; id: string };
export type CreditOwnerKind = CreditOwner['kind'];
export const CREDIT_OWNER_KINDS: readonly CreditOwnerKind[] = ['sme', 'tenant'];

export const CREDIT_ENTRY_KINDS = ['topup', 'spend'] as const;
export type CreditEntryKind = (typeof CREDIT_ENTRY_KINDS)[number];

/** The largest single top-up: a typo of a few extra digits is refused rather than credited. */
export const MAX_TOPUP = 1_000_000;

/** Null when `amount` is a valid top-up, else what to send instead (the caller names what it got). */
export function topUpAmountProblem(amount: unknown): string | null {
  const ok = typeof amount === 'number' && Number.isInteger(amount) && amount >= 1 && amount <= MAX_TOPUP;
  return ok ? null : `amount must be a whole number of credits from 1 to ${MAX_TOPUP}`;
}

/**
 * The ledger id of the spend for one invoice's pipeline run. Deterministic on purpose: the unique _id is what
 * lets only one attempt of a retried or concurrent activity spend for that run.
 */
export function spendEntryId(invoiceId: string, run: number): string {
  return `spend:${invoiceId}:${run}`;
}
