// Pure rules about UAE tax registration numbers (TRN). No I/O.

/** SPEC 8: every TRN field is exactly 15 decimal digits. */
export const TRN_PATTERN = /^[0-9]{15}$/;

/**
 * Reserved test TRNs (SPEC 3.1, 6.1), in test mode only. ACCEPT: validate-trn answers verified, and an invoice
 * carrying it is delivered synchronously (validation and delivery skipped). REJECT: validate-trn answers
 * rejected, and an invoice carrying it is refused with 403 test_trn_reject, nothing stored.
 */
export const TEST_TRN_ACCEPT = '100000000000000';
export const TEST_TRN_REJECT = '100000000000666';

function isWellFormedTrn(value: string): boolean {
  return TRN_PATTERN.test(value);
}

/**
 * Why a well-formed (15-digit) TRN cannot be a real UAE VAT registration, or null when it can. PINT-AE rule
 * ibr-132-ae: a TRN starts with 1 and ends with 03.
 */
export function trnStructureProblem(trn: string): string | null {
  if (!isWellFormedTrn(trn)) return 'A TRN is exactly 15 decimal digits.';
  if (!trn.startsWith('1')) return 'A UAE VAT TRN starts with 1 (PINT-AE rule ibr-132-ae).';
  if (!trn.endsWith('03')) return 'A UAE VAT TRN ends with 03 (PINT-AE rule ibr-132-ae).';
  return null;
}
