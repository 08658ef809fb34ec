import Joi from 'joi';
import { admission } from '../../http/admission';
import { idempotencyContext, idempotencyKeyRequired, type KeyedRequest } from '../../http/idempotency-middleware';
import type { SmeRouter, Validated } from '../../http/request-state';
import { validate } from '../../http/validate';
import { noteTestSubmission } from '../../services/invoices-create';
import { assertProviderConfigured } from '../../services/provider-configured';
import { submitBulk } from '../../services/invoices-bulk';
import { invoiceOwner } from './invoice-routes';

/** The envelope only; each item is validated on its own and fails on its own (207). */
export const bulkEnvelope = Joi.object({ invoices: Joi.array().items(Joi.any()).min(1).max(100).required() });

/** Bulk requests running at once per API process (each runs its items a few at a time); more wait their turn. */
const BULK_REQUESTS_AT_ONCE = 2;

/** POST /v1/partner/invoices/bulk: 1 to 100 invoices, 207 with a result per item (SPEC 4.1). */
export function registerBulkInvoices(router: SmeRouter): void {
  type State = Validated<{ invoices: unknown[] }> & KeyedRequest;
  router.post<State>('/invoices/bulk', admission(BULK_REQUESTS_AT_ONCE), idempotencyKeyRequired(), validate({ body: bulkEnvelope }), async (ctx) => {
    const { idempotencyKey: batchKey, body } = ctx.state;
    const { invoices } = body;
    const owner = invoiceOwner(ctx);
    assertProviderConfigured(owner.partner.mode);
    await noteTestSubmission(owner.partner);
    const { response, allReplayed } = await submitBulk({ owner, ...idempotencyContext(ctx), batchKey, path: ctx.path, items: invoices });
    if (allReplayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = 207;
    ctx.body = response;
  });
}
