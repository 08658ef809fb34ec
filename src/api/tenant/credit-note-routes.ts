import { creditNoteInputSchema, type CreditNoteInput } from '../../domain/credit-note-input';
import { idempotent } from '../../http/idempotency-middleware';
import type { TenantRouter, Validated } from '../../http/request-state';
import { validate } from '../../http/validate';
import { createCreditNote } from '../../services/tenant-credit-notes';
import { tenantCaller } from './invoice-routes';

/**
 * POST /v1/credit-notes (SPEC 4.2): a credit note against a delivered invoice, submitted at once (202). The key is
 * required (SPEC 1, every mutation) and claimed before the body is checked, as on submit, so a refused body is
 * replayed under its key too.
 */
export function registerTenantCreditNotes(router: TenantRouter): void {
  router.post<Validated<CreditNoteInput>>('/credit-notes', idempotent(), validate({ body: creditNoteInputSchema }), async (ctx) => {
    ctx.status = 202;
    ctx.body = await createCreditNote(tenantCaller(ctx), ctx.state.body);
  });
}
