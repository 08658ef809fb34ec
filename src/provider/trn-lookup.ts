import { SmeConnection } from '../db/models';
import { TEST_TRN_ACCEPT, TEST_TRN_REJECT, trnStructureProblem } from '../domain/trn';

export type TrnStatus = 'verified' | 'rejected' | 'pending';

export interface TrnLookupResult {
  status: TrnStatus;
  /** Present when verified. */
  legalName?: string;
  /** Present when rejected. */
  reason?: string;
}

/** Asks "the authority" whether a TRN is registered. The API caches answers (services/trn-validation). */
export interface TrnLookup {
  /** Names the source in the cache, so answers of different sources never mix. */
  readonly source: string;
  lookup(trn: string): Promise<TrnLookupResult>;
}

/**
 * The built-in registry, deterministic, used in test mode and whenever no provider lookup is configured (today:
 * always; a provider-backed TrnLookup plugs in through trnLookupFor). Rules, first match wins:
 *  1. test mode only: 100000000000000 is verified ("Test Verified Trading LLC"), 100000000000666 is rejected;
 *  2. not a possible UAE VAT TRN (PINT-AE ibr-132-ae: leading 1, trailing 03) -> rejected with the reason;
 *  3. the TRN of an SME connected (active) to any partner -> verified with that SME's legal name, oldest connection
 *     first (we hold those registrations ourselves);
 *  4. anything else -> pending: well formed, but nobody has confirmed it.
 */
export class BuiltinTrnRegistry implements TrnLookup {
  readonly source: string;

  constructor(private readonly mode: 'test' | 'live') {
    this.source = `builtin-${mode}`;
  }

  async lookup(trn: string): Promise<TrnLookupResult> {
    if (this.mode === 'test') {
      if (trn === TEST_TRN_ACCEPT) return { status: 'verified', legalName: 'Test Verified Trading LLC' };
      if (trn === TEST_TRN_REJECT) return { status: 'rejected', reason: 'Reserved test TRN 100000000000666: always rejected in test mode.' };
    }
    const problem = trnStructureProblem(trn);
    if (problem) return { status: 'rejected', reason: problem };
    const sme = await SmeConnection.findOne({ trn, status: 'active' }).sort({ createdAt: 1 }).lean();
    if (sme) return { status: 'verified', legalName: sme.legalName };
    return { status: 'pending' };
  }
}

/** The lookup for a partner's mode. */
export function trnLookupFor(mode: 'test' | 'live'): TrnLookup {
  return new BuiltinTrnRegistry(mode);
}
