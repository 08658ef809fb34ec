import Joi from 'joi';
import { TRN_PATTERN } from '../../domain/trn';
import type { PartnerRouter, Validated } from '../../http/request-state';
import { validate } from '../../http/validate';
import { trnLookupFor } from '../../provider/trn-lookup';
import { validateTrn } from '../../services/trn-validation';

export const trnQuerySchema = Joi.object<{ trn: string }>({
  trn: Joi.string().pattern(TRN_PATTERN, 'exactly 15 decimal digits').required(),
});

/** GET /v1/partner/validate-trn?trn=...: key and secret only (no SME); answers cached 24 h across partners. */
export function registerValidateTrn(router: PartnerRouter): void {
  router.get<Validated<never, { trn: string }>>('/validate-trn', validate({ query: trnQuerySchema }), async (ctx) => {
    ctx.body = await validateTrn(trnLookupFor(ctx.state.partner.mode), ctx.state.query.trn);
  });
}
