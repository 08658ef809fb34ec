import type { SmeRouter } from '../../http/request-state';
import { getInvoiceDocument, getInvoiceEvidence } from '../../services/invoices-query';
import { invoiceScope } from './invoice-routes';

/** The invoice's records: the PINT-AE XML as stored, and the evidence of its hand-overs to the ASP. */
export function registerInvoiceDocument(router: SmeRouter): void {
  router.get('/invoices/:id/document', async (ctx) => {
    ctx.body = await getInvoiceDocument(invoiceScope(ctx), ctx.params.id);
    ctx.type = 'application/xml; charset=utf-8';
  });

  router.get('/invoices/:id/evidence', async (ctx) => {
    ctx.body = await getInvoiceEvidence(invoiceScope(ctx), ctx.params.id);
  });
}
