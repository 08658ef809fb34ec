import { serviceErrors } from '../../domain/errors';
import { resolveListQuery, tenantListQuerySchema, type InvoiceListQuery, type RawListQuery } from '../../domain/invoice-list-query';
import { modeQuerySchema, submitRequestSchema, type ModeQuery, type SubmitRequest } from '../../domain/tenant-schemas';
import { idempotent } from '../../http/idempotency-middleware';
import type { TenantContext, TenantRouter, Validated } from '../../http/request-state';
import { validate, validateQuery } from '../../http/validate';
import { tenantOwner, type TenantOwner } from '../../domain/owner';
import { createDraft, getTenantInvoice, listTenantInvoices, requestedMode, retryTenantInvoice, submitDrafts } from '../../services/tenant-invoices';

/** The caller's owner: the tenant in the mode of the request, and the connector that calls. */
export function tenantCaller(ctx: TenantContext): TenantOwner {
  return tenantOwner(ctx.state.tenant, ctx.state.mode, ctx.state.source);
}

/** The list filters: shape first (joi), then the rules between fields and the cursor. */
function listQuery(input: unknown): InvoiceListQuery {
  const { value, errors } = resolveListQuery(validateQuery<RawListQuery>(tenantListQuerySchema, input));
  if (!value) throw serviceErrors.validation(errors, 'InvalidQuery: the query string failed validation; see errors.');
  return value;
}

/** /v1/invoices: drafts, submit, read, list, retry (SPEC 4.2). Mutations are idempotent (SPEC 5.3). */
export function registerTenantInvoices(router: TenantRouter): void {
  // ?mode= is checked before the key is claimed: a refused mode stores nothing under the key.
  router.post<Validated<unknown, ModeQuery>>('/invoices', validate({ query: modeQuerySchema }), idempotent(), async (ctx) => {
    requestedMode(ctx.state.tenant, ctx.state.query.mode);
    ctx.status = 201;
    ctx.body = await createDraft(tenantCaller(ctx), ctx.request.body);
  });

  router.post<Validated<SubmitRequest>>('/invoices/submit', idempotent(), validate({ body: submitRequestSchema }), async (ctx) => {
    ctx.body = await submitDrafts(tenantCaller(ctx), ctx.state.body.ids);
  });

  router.get<Validated<never, InvoiceListQuery>>('/invoices', validate({ query: listQuery }), async (ctx) => {
    ctx.body = await listTenantInvoices(tenantCaller(ctx), ctx.state.query);
  });

  router.get('/invoices/:id', async (ctx) => {
    ctx.body = await getTenantInvoice(tenantCaller(ctx), ctx.params.id);
  });

  router.post('/invoices/:id/retry', idempotent(), async (ctx) => {
    ctx.status = 202;
    ctx.body = await retryTenantInvoice(tenantCaller(ctx), ctx.params.id);
  });
}
