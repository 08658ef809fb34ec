// Validation without submission (the Partner API's dry runs): the checks POST /v1/partner/invoices would make and
// the native PINT-AE rules, with nothing stored, no workflow started and no idempotency record (nothing is created,
// so a repeated call simply validates again).
import { type FieldError, type InvoiceCreateBody, preSubmitCheck, renderInvoice, validateDocument, XmlParseError, type Finding, type Findings } from '@einvoice/pint-ae';
import { checkIssueDate, reservedTrnOutcome, trnMismatch, trnMismatchError, warningsField, withSmeRegistration, type SmeRegistration, type SubmissionWarning } from '../domain/submission-rules';
import { ServiceError } from '../domain/errors';
import type { PartnerOwner } from '../domain/owner';

/** What POST /v1/partner/invoices/validate answers (200 either way). */
export type InvoiceValidation = (
  /** The pre-submit checks refuse the body: POST would answer 201 held with these. */
  | { valid: false; heldReason: string; heldErrors: FieldError[] }
  /** The PINT-AE document POST would render, and the native rules' findings on it. */
  | { valid: boolean; xml: string; fatal: Finding[]; warning: Finding[] }
) & { /** POST's warnings (late_issuance), when there is one. */ warnings?: SubmissionWarning[] };

/**
 * The dry run of a shape-valid InvoiceCreateBody for the caller's SME: 403 trn_mismatch as POST (the reserved test
 * TRNs skip that check in test mode, as in POST); the issue-date limits (400, or warnings); then the pre-submit
 * checks; then render and the native rules.
 * The reserved TRNs' simulated outcomes (delivered at once, 403 test_trn_reject) belong to submission and are not
 * simulated: the document is checked on its merits.
 */
export function dryRunInvoice(owner: PartnerOwner, sent: InvoiceCreateBody): InvoiceValidation {
  const body = withSmeRegistration(sent, owner.sme as SmeRegistration); // as POST fills it
  if (!reservedTrnOutcome(body, owner.partner.mode as 'test' | 'live')) {
    const mismatch = trnMismatch(body, owner.sme.trn);
    if (mismatch) throw trnMismatchError(mismatch);
  }
  const warnings = warningsField(checkIssueDate(body.issueDate)); // 400 issue_date_out_of_range as POST
  const held = preSubmitCheck(body);
  if (held) return { valid: false, heldReason: held.heldReason, heldErrors: held.heldErrors, ...warnings };
  const xml = renderInvoice(body, { skipChecks: true });
  const { fatal, warning } = validateDocument(xml);
  return { valid: fatal.length === 0, xml, fatal, warning, ...warnings };
}

/** POST /v1/partner/documents/validate: exactly what `einvoice validate` prints; 400 not_xml for a body that is not XML. */
export function validateUblDocument(xml: string): Findings {
  try {
    return validateDocument(xml);
  } catch (err) {
    if (err instanceof XmlParseError) {
      throw new ServiceError(400, 'not_xml', 'Invalid request', `The body is not well-formed XML: ${err.message}. Send one UBL 2.1 Invoice or CreditNote document.`);
    }
    throw err;
  }
}
