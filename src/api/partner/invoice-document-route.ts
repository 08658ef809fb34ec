import type { SmeRouter } from '../../http/request-state';
import { getInvoiceEvidence } from '../../services/invoices-query';
import { answerInvoiceDocument } from '../../rendition/invoice-rendition';
import { invoiceOwner } from './invoice-routes';

/**
 * The invoice's records: the PINT-AE XML as stored, or its bilingual rendition (Accept: text/html or
 * application/pdf, or ?format=), and the evidence of its hand-overs to the ASP.
 */
export function registerInvoiceDocument(router: SmeRouter): void {
  router.get('/invoices/:id/document', async (ctx) => {
    await answerInvoiceDocument(ctx, invoiceOwner(ctx), ctx.params.id);
  });

  router.get('/invoices/:id/evidence', async (ctx) => {
    ctx.body = await getInvoiceEvidence(invoiceOwner(ctx), ctx.params.id);
  });
}
