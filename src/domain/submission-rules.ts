// Who may submit what (SPEC 3.1, 5.1 rule 3, 7.1). Pure: the create service asks these before storing anything.
import { ServiceError } from './errors';
import type { InvoiceCreateBody } from './invoice-types';
import { TEST_TRN_ACCEPT, TEST_TRN_REJECT } from './trn';

export type ReservedTrnOutcome = 'deliver' | 'reject';

/**
 * SPEC names seller.trn; integrators also put the reserved value in the body trn (the supplier TRN), so either
 * field triggers it. Live mode ignores both: there they are ordinary TRNs, subject to trn_mismatch.
 */
export function reservedTrnOutcome(body: Pick<InvoiceCreateBody, 'trn' | 'seller'>, mode: 'test' | 'live'): ReservedTrnOutcome | null {
  if (mode !== 'test') return null;
  const trns = [body.trn, body.seller?.trn];
  if (trns.includes(TEST_TRN_REJECT)) return 'reject';
  if (trns.includes(TEST_TRN_ACCEPT)) return 'deliver';
  return null;
}

export interface TrnMismatch {
  path: 'trn' | 'seller.trn';
  given: string;
}

/**
 * The body trn must be the connected SME's TRN; on a sale the SME is also the seller, so seller.trn (when
 * given) must match too. On a purchase the seller is the counterparty and is not checked.
 */
export function trnMismatch(body: Pick<InvoiceCreateBody, 'trn' | 'seller' | 'invoiceType'>, smeTrn: string): TrnMismatch | null {
  if (body.trn !== smeTrn) return { path: 'trn', given: body.trn };
  const isSale = (body.invoiceType ?? 'sale') === 'sale';
  if (isSale && body.seller?.trn && body.seller.trn !== smeTrn) return { path: 'seller.trn', given: body.seller.trn };
  return null;
}

/** 403 trn_mismatch (SPEC 5.1 rule 3), as POST /v1/partner/invoices and its dry run answer it. */
export function trnMismatchError(mismatch: TrnMismatch): ServiceError {
  return new ServiceError(403, 'trn_mismatch', 'Forbidden', `${mismatch.path} ${mismatch.given} is not the TRN of the SME this connection secret belongs to.`, { path: mismatch.path });
}

/** "Unique per SME per year": the year the uniqueness is counted in. */
export function issueYearOf(issueDate: string): number {
  return Number(issueDate.slice(0, 4));
}
