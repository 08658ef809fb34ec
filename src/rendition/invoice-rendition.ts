// GET .../invoices/{id}/document for both APIs: the stored XML, or its rendition in HTML or PDF with what the
// invoice record adds (the Arabic legal names the XML does not carry, and the delivery evidence of the latest
// hand-over to the ASP). The route stays thin: negotiate, then answer.
import type { Context } from 'koa';
import type { Owner } from '../domain/owner';
import { getInvoiceDocument, findOwnedInvoice } from '../services/invoices-query';
import { evidenceOf } from '../services/asp-evidence';
import { documentView, type DeliveryEvidence, type RenditionExtras } from './document-view';
import { documentHtml } from './html';
import { documentPdfStream } from './pdf';
import { FORMAT_TYPES, negotiateFormat } from './negotiate';

interface RecordNames {
  _id: string;
  body?: { seller?: { legalNameArabic?: string }; buyer?: { legalNameArabic?: string } };
}

/** The Arabic names and the evidence of the latest run that reached the ASP (none before delivery). */
export async function renditionExtras(owner: Owner, invoiceId: string): Promise<RenditionExtras> {
  const inv = await findOwnedInvoice<RecordNames>(owner, invoiceId, { _id: 1, 'body.seller.legalNameArabic': 1, 'body.buyer.legalNameArabic': 1 });
  const { submissions } = await evidenceOf(inv._id);
  const last = submissions[submissions.length - 1];
  const evidence: DeliveryEvidence | undefined = last
    ? { submissionId: last.submissionId, ackRef: last.ackRef, documentSha256: last.documentSha256, statuses: last.statuses }
    : undefined;
  return { arabicNames: { seller: inv.body?.seller?.legalNameArabic, buyer: inv.body?.buyer?.legalNameArabic }, evidence };
}

/** Answers ctx with the document in the negotiated format (406 for a format the document does not have). */
export async function answerInvoiceDocument(ctx: Context, owner: Owner, invoiceId: string): Promise<void> {
  const format = negotiateFormat(ctx.query.format, ctx.get('Accept') || undefined);
  const xml = await getInvoiceDocument(owner, invoiceId);
  ctx.vary('Accept');
  if (format === 'xml') {
    ctx.body = xml;
    ctx.type = 'application/xml; charset=utf-8';
    return;
  }
  const view = documentView(xml, await renditionExtras(owner, invoiceId));
  if (format === 'html') {
    ctx.body = documentHtml(view);
    ctx.type = 'text/html; charset=utf-8';
    return;
  }
  ctx.body = documentPdfStream(view);
  ctx.type = FORMAT_TYPES.pdf;
  ctx.attachment(`${view.number.replace(/[^\w.-]+/g, '_') || 'document'}.pdf`, { type: 'inline' });
}
