import type Router from '@koa/router';
import type { Context } from 'koa';
import type { PartnerDoc, SmeConnectionDoc } from '../../db/models';
import { listQuerySchema, resolveListQuery, type RawListQuery } from '../../domain/invoice-list-query';
import { validateInvoiceBody } from '../../domain/invoice-schema';
import { idempotent, idempotentWhenKeyed } from '../../http/idempotency';
import { serviceErrors } from '../../domain/errors';
import { validateQuery } from '../../http/validate';
import { assertDeliveryConfigured, createInvoice, noteTestSubmission, type InvoiceOwner } from '../../services/invoices-create';
import { deleteInvoice, retryInvoice } from '../../services/invoices-lifecycle';
import { getInvoice, listInvoices, type InvoiceScope } from '../../services/invoices-query';

export function invoiceOwner(ctx: Context): InvoiceOwner {
  return { partner: ctx.state.partner as PartnerDoc, sme: ctx.state.sme as SmeConnectionDoc };
}

export function invoiceScope(ctx: Context): InvoiceScope {
  const { partner, sme } = invoiceOwner(ctx);
  return { partnerId: partner._id, smeId: sme._id };
}

/** /v1/partner/invoices: create, list, read, delete, retry (SPEC 4.1). Mutations are idempotent (SPEC 5.3). */
export function registerInvoices(router: Router): void {
  router.post('/invoices', idempotent(), async (ctx) => {
    const { value, errors } = validateInvoiceBody(ctx.request.body);
    if (!value) throw serviceErrors.validation(errors, 'InvalidBody: the request body failed validation; see meta.errors.');
    const owner = invoiceOwner(ctx);
    assertDeliveryConfigured(owner.partner);
    await noteTestSubmission(owner.partner);
    ctx.status = 201;
    ctx.body = await createInvoice(owner, value);
  });

  router.get('/invoices', async (ctx) => {
    const raw = validateQuery<RawListQuery>(listQuerySchema, ctx.query);
    const { value, errors } = resolveListQuery(raw);
    if (!value) throw serviceErrors.validation(errors, 'InvalidQuery: the query string failed validation; see meta.errors.');
    ctx.body = await listInvoices(invoiceScope(ctx), value);
  });

  router.get('/invoices/:id', async (ctx) => {
    ctx.body = await getInvoice(invoiceScope(ctx), ctx.params.id);
  });

  router.delete('/invoices/:id', idempotentWhenKeyed(), async (ctx) => {
    await deleteInvoice(invoiceScope(ctx), ctx.params.id);
    ctx.status = 204;
  });

  router.post('/invoices/:id/retry', idempotent(), async (ctx) => {
    ctx.status = 202;
    ctx.body = await retryInvoice(invoiceOwner(ctx), ctx.params.id);
  });
}
