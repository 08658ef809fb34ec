import type { InvoiceCreateBody } from '@einvoice/pint-ae';
import type { PartnerRouter, SmeRouter, Validated } from '../../http/request-state';
import { validate } from '../../http/validate';
import { xmlBody, type XmlBodyState } from '../../http/xml-body';
import { dryRunInvoice, validateUblDocument } from '../../services/invoice-validation';
import { findingsPage } from '../../rendition/findings-page';
import { invoiceBody, invoiceOwner } from './invoice-routes';

/**
 * POST /v1/partner/invoices/validate: the dry run of POST /v1/partner/invoices for the connected SME (its TRN is
 * checked as POST checks it): 400 for the shape as POST, else 200 with the held errors or the rendered XML and
 * the native rules' findings. Nothing is created, so no Idempotency-Key.
 */
export function registerInvoiceValidation(router: SmeRouter): void {
  router.post<Validated<InvoiceCreateBody>>('/invoices/validate', validate({ body: invoiceBody }), (ctx) => {
    ctx.body = dryRunInvoice(invoiceOwner(ctx), ctx.state.body);
  });
}

/**
 * POST /v1/partner/documents/validate: any UBL document as application/xml, answered exactly as `einvoice
 * validate` prints it. Partner credentials only, like validate-trn: no TRN is checked, nothing about an SME read.
 * Mounted before the SME-scoped routes, whose jsonBody() would refuse XML: xmlBody() reads the raw body itself.
 * Accept: text/html (preferred over JSON) answers the same findings as an HTML page, beside the document's
 * bilingual rendition when it can be read as an invoice or credit note.
 */
export function registerDocumentValidation(router: PartnerRouter): void {
  router.post<XmlBodyState>('/documents/validate', xmlBody(), (ctx) => {
    const findings = validateUblDocument(ctx.state.xml);
    ctx.vary('Accept');
    if (ctx.accepts('application/json', 'text/html') === 'text/html') {
      ctx.body = findingsPage(findings, ctx.state.xml);
      ctx.type = 'text/html; charset=utf-8';
    } else ctx.body = findings;
  });
}
