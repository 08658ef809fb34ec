import type Router from '@koa/router';
import type { PartnerDoc, SmeConnectionDoc } from '../../db/models';
import { customerUpsertSchema } from '../../domain/customer-schema';
import { idempotent } from '../../http/idempotency';
import { serviceErrors } from '../../domain/errors';
import { validateBody } from '../../http/validate';
import { findCustomer, upsertCustomer, type CustomerOwner } from '../../services/customers';

/** POST /v1/partner/customers (upsert by externalRef) and GET /v1/partner/customers/{externalRef}. SME-scoped. */
export function registerCustomers(router: Router): void {
  router.post('/customers', idempotent(), async (ctx) => {
    const body = validateBody(customerUpsertSchema, ctx.request.body);
    ctx.body = await upsertCustomer(ownerOf(ctx.state), body);
    ctx.status = 200;
  });

  router.get('/customers/:externalRef', async (ctx) => {
    const customer = await findCustomer(ownerOf(ctx.state), ctx.params.externalRef);
    if (!customer) throw serviceErrors.notFound(`No customer with externalRef "${ctx.params.externalRef}" for this SME.`);
    ctx.body = customer;
  });
}

function ownerOf(state: { partner?: PartnerDoc; sme?: SmeConnectionDoc }): CustomerOwner {
  return { partnerId: state.partner!._id, smeId: state.sme!._id };
}
