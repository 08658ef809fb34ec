import { customerUpsertSchema, type CustomerUpsertBody } from '../../domain/customer-schema';
import { idempotent } from '../../http/idempotency-middleware';
import { serviceErrors } from '../../domain/errors';
import type { SmeRouter, SmeState, Validated } from '../../http/request-state';
import { validate } from '../../http/validate';
import { findCustomer, upsertCustomer, type CustomerOwner } from '../../services/customers';

/** POST /v1/partner/customers (upsert by externalRef) and GET /v1/partner/customers/{externalRef}. SME-scoped. */
export function registerCustomers(router: SmeRouter): void {
  router.post<Validated<CustomerUpsertBody>>('/customers', idempotent(), validate({ body: customerUpsertSchema }), async (ctx) => {
    ctx.body = await upsertCustomer(ownerOf(ctx.state), ctx.state.body);
    ctx.status = 200;
  });

  router.get('/customers/:externalRef', async (ctx) => {
    const customer = await findCustomer(ownerOf(ctx.state), ctx.params.externalRef);
    if (!customer) throw serviceErrors.notFound(`No customer with externalRef "${ctx.params.externalRef}" for this SME.`);
    ctx.body = customer;
  });
}

function ownerOf(state: SmeState): CustomerOwner {
  return { partnerId: state.partner._id, smeId: state.sme._id };
}
