import { creditsQuerySchema, type CreditsQuery } from '../../domain/credit-schemas';
import type { SmeRouter, Validated } from '../../http/request-state';
import { validate } from '../../http/validate';
import { creditsOverview } from '../../services/credits';

/** GET /v1/partner/credits: the SME's delivery credit balance and its recent ledger entries, newest first. */
export function registerCredits(router: SmeRouter): void {
  router.get<Validated<unknown, CreditsQuery>>('/credits', validate({ query: creditsQuerySchema }), async (ctx) => {
    ctx.body = await creditsOverview({ kind: 'sme', id: ctx.state.sme._id }, ctx.state.query.limit);
  });
}
