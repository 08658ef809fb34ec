import type { SmeRouter } from '../../http/request-state';
import { getInvoiceDocument } from '../../services/invoices-query';
import { invoiceScope } from './invoice-routes';

/** GET /v1/partner/invoices/{id}/document: the PINT-AE XML as stored, once the invoice is transformed. */
export function registerInvoiceDocument(router: SmeRouter): void {
  router.get('/invoices/:id/document', async (ctx) => {
    ctx.body = await getInvoiceDocument(invoiceScope(ctx), ctx.params.id);
    ctx.type = 'application/xml; charset=utf-8';
  });
}
