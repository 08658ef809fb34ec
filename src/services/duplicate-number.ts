// The 409 invoice_number_duplicate, the one way for both surfaces: a number is unique within its owner's number
// scope (a Partner API SME and issue year, a tenant and mode), and the refusal names the invoice that holds it.
import { Invoice } from '../db/models';
import { serviceErrors, type ServiceError } from '../domain/errors';

/** Where one number may be used once, as the store keys it, and how the refusal says so. */
export interface NumberUniqueness {
  /** The unique index's fields besides the number. */
  where: { numberScope: string; numberPeriod: number };
  /** Who already uses it, e.g. "this SME in 2025". */
  usedBy: string;
  /** The rule, e.g. "per SME per year." */
  rule: string;
  /** What the refusal's meta carries between the number and the holder (issueYear on the Partner API). */
  meta?: Record<string, unknown>;
}

export interface NumberHolder {
  _id: string;
  status: string;
  /** The idempotent request that created it (a resent request adopts its own invoice). */
  originKey?: string | null;
}

export function findNumberHolder(unique: NumberUniqueness, number: string): Promise<NumberHolder | null> {
  return Invoice.findOne({ ...unique.where, number }, { _id: 1, status: 1, originKey: 1 }).lean<NumberHolder>();
}

export function duplicateNumber(unique: NumberUniqueness, number: string, holder: NumberHolder | null): ServiceError {
  return serviceErrors.conflict('invoice_number_duplicate', `Invoice number ${number} is already used by ${unique.usedBy}; numbers are unique ${unique.rule}`, {
    number,
    ...unique.meta,
    ...(holder ? { invoiceId: holder._id, status: holder.status } : {}),
  });
}

/** The refusal of an insert that met the unique index: the holder looked up, then named. */
export async function numberTaken(unique: NumberUniqueness, number: string): Promise<ServiceError> {
  return duplicateNumber(unique, number, await findNumberHolder(unique, number));
}
