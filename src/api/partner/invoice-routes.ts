import { serviceErrors } from '../../domain/errors';
import { listQuerySchema, resolveListQuery, type InvoiceListQuery, type RawListQuery } from '../../domain/invoice-list-query';
import { validateInvoiceBody } from '../../domain/invoice-schema';
import type { InvoiceCreateBody } from '@einvoice/pint-ae';
import { idempotent, idempotentWhenKeyed } from '../../http/idempotency-middleware';
import type { SmeContext, SmeRouter, Validated } from '../../http/request-state';
import { validate, validateQuery } from '../../http/validate';
import { partnerOwner, type PartnerOwner } from '../../domain/owner';
import { createInvoice, noteTestSubmission } from '../../services/invoices-create';
import { assertProviderConfigured } from '../../services/provider-configured';
import { deleteInvoice, retryInvoice } from '../../services/invoices-lifecycle';
import { getInvoice, listInvoices } from '../../services/invoices-query';

/** The caller's owner: the partner and the SME its connection secret resolved. */
export function invoiceOwner(ctx: SmeContext): PartnerOwner {
  return partnerOwner(ctx.state.partner, ctx.state.sme);
}

/** SPEC 2.1 InvoiceCreateBody, with every refusal at its JSON path (POST and its dry run, /invoices/validate). */
export function invoiceBody(input: unknown): InvoiceCreateBody {
  const { value, errors } = validateInvoiceBody(input);
  if (!value) throw serviceErrors.validation(errors, 'InvalidBody: the request body failed validation; see meta.errors.');
  return value;
}

/** The list filters: shape first (joi), then the rules between fields and the cursor. */
function listQuery(input: unknown): InvoiceListQuery {
  const { value, errors } = resolveListQuery(validateQuery<RawListQuery>(listQuerySchema, input));
  if (!value) throw serviceErrors.validation(errors, 'InvalidQuery: the query string failed validation; see meta.errors.');
  return value;
}

/** /v1/partner/invoices: create, list, read, delete, retry (SPEC 4.1). Mutations are idempotent (SPEC 5.3). */
export function registerInvoices(router: SmeRouter): void {
  router.post<Validated<InvoiceCreateBody>>('/invoices', idempotent(), validate({ body: invoiceBody }), async (ctx) => {
    const owner = invoiceOwner(ctx);
    assertProviderConfigured(owner.partner.mode);
    await noteTestSubmission(owner.partner);
    ctx.status = 201;
    ctx.body = await createInvoice(owner, ctx.state.body, { origin: ctx.state.idempotencyOrigin ?? null });
  });

  router.get<Validated<never, InvoiceListQuery>>('/invoices', validate({ query: listQuery }), async (ctx) => {
    ctx.body = await listInvoices(invoiceOwner(ctx), ctx.state.query);
  });

  router.get('/invoices/:id', async (ctx) => {
    ctx.body = await getInvoice(invoiceOwner(ctx), ctx.params.id);
  });

  router.delete('/invoices/:id', idempotentWhenKeyed(), async (ctx) => {
    await deleteInvoice(invoiceOwner(ctx), ctx.params.id);
    ctx.status = 204;
  });

  router.post('/invoices/:id/retry', idempotent(), async (ctx) => {
    ctx.status = 202;
    ctx.body = await retryInvoice(invoiceOwner(ctx), ctx.params.id);
  });
}
