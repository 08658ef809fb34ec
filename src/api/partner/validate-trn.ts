import type Router from '@koa/router';
import Joi from 'joi';
import type { PartnerDoc } from '../../db/models';
import { TRN_PATTERN } from '../../domain/trn';
import { validateQuery } from '../../http/validate';
import { trnLookupFor } from '../../provider/trn-lookup';
import { validateTrn } from '../../services/trn-validation';

const querySchema = Joi.object<{ trn: string }>({
  trn: Joi.string().pattern(TRN_PATTERN, 'exactly 15 decimal digits').required(),
});

/** GET /v1/partner/validate-trn?trn=...: key and secret only (no SME); answers cached 24 h across partners. */
export function registerValidateTrn(router: Router): void {
  router.get('/validate-trn', async (ctx) => {
    const { trn } = validateQuery(querySchema, ctx.query);
    const partner = ctx.state.partner as PartnerDoc;
    ctx.body = await validateTrn(trnLookupFor(partner.mode), trn);
  });
}
