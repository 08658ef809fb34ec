// Pure: an ASP submission's state as our verdict. REPORTED is done (delivered and reported to the authority:
// "don't stop polling at DELIVERED"); FAILED is a rejection whose reason starts with a machine-readable code.
import type { AspVerdict } from '../temporal/contract';
import type { Mls, Submission } from './asp-api';

export function verdictOf(sub: Submission): AspVerdict | { submissionId: string; status: 'pending' } {
  if (sub.status === 'REPORTED') return { submissionId: sub.submissionId, status: 'acknowledged', reason: null, ackRef: sub.ackRef };
  if (sub.status === 'FAILED') return { submissionId: sub.submissionId, status: 'rejected', reason: rejectionReason(sub) };
  return { submissionId: sub.submissionId, status: 'pending' };
}

/**
 * The verdict a submission's evidence record holds: the statuses the ASP reported (callbacks, polls), its MLS and
 * ackRef. A verdict signal is only ever acted on through this (never the signal's own reason or ackRef).
 */
export function verdictOfEvidence(rec: { submissionId: string; statusAt: Record<string, string>; mls: Mls | null; ackRef: string | null }): AspVerdict | { submissionId: string; status: 'pending' } {
  const { REPORTED: reported, FAILED: failed } = rec.statusAt;
  // (both final statuses should never be reported; the first one the ASP reached stands)
  if (failed && !(reported && reported < failed)) return { submissionId: rec.submissionId, status: 'rejected', reason: rejectionReason(rec) };
  if (reported) return { submissionId: rec.submissionId, status: 'acknowledged', reason: null, ackRef: rec.ackRef };
  return { submissionId: rec.submissionId, status: 'pending' };
}

/** `<code>: <sentence>`, code one of buyer_trn_invalid (or the ASP's own reason code), business_rule:<ids>, schema, forwarding_failed. */
export function rejectionReason(sub: Pick<Submission, 'mls'>): string {
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
