import type { TenantRouter } from '../../http/request-state';
import { answerInvoiceDocument } from '../../rendition/invoice-rendition';
import { tenantCaller } from './invoice-routes';

/** GET /v1/invoices/{id}/document: the PINT-AE XML as stored, or its rendition in HTML or PDF (Accept or ?format=). */
export function registerTenantInvoiceDocument(router: TenantRouter): void {
  router.get('/invoices/:id/document', async (ctx) => {
    await answerInvoiceDocument(ctx, tenantCaller(ctx), ctx.params.id);
  });
}
