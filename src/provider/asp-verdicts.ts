// Pure: an ASP submission's state as our verdict. REPORTED is done (delivered and reported to the authority:
// "don't stop polling at DELIVERED"); FAILED is a rejection whose reason starts with a machine-readable code.
import type { AspVerdict } from '../temporal/contract';
import type { Submission } from './asp-api';

export function verdictOf(sub: Submission): AspVerdict | { submissionId: string; status: 'pending' } {
  if (sub.status === 'REPORTED') return { submissionId: sub.submissionId, status: 'acknowledged', reason: null, ackRef: sub.ackRef };
  if (sub.status === 'FAILED') return { submissionId: sub.submissionId, status: 'rejected', reason: rejectionReason(sub) };
  return { submissionId: sub.submissionId, status: 'pending' };
}

/** `<code>: <sentence>`, code one of buyer_trn_invalid (or the ASP's own reason code), business_rule:<ids>, schema, forwarding_failed. */
export function rejectionReason(sub: Submission): string {
  const mls = sub.mls;
  const said = mls?.message ? `: ${mls.message}` : '';
  if (mls?.reasonCode) return `${mls.reasonCode}${said || ': refused by the ASP'}`;
  switch (mls?.reasonClass) {
    case 'BV':
    case 'BW':
      return `business_rule:${(mls.ruleIds ?? []).join(',') || 'unknown'}${said || ': the document breaks PINT-AE business rules'}`;
    case 'SV':
      return `schema${said || ': the document is not valid UBL'}`;
    case 'FD':
      return `forwarding_failed${said || ": the buyer's service provider could not be reached"}`;
    default:
      return `rejected${said || ' by the ASP without a reason'}`;
  }
}
