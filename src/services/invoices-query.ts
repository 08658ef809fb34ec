// Reading invoices of either surface: only the caller's own (src/domain/owner.ts ownerFilter); anything else is 404.
import { evidenceOf, type EvidenceView } from './asp-evidence';
import { Invoice, InvoiceDocument } from '../db/models';
import { encodeCursor, listFilter, LIST_SORT, type InvoiceListQuery } from '../domain/invoice-list-query';
import { invoiceDetailView, invoiceStatusView, type InvoiceDetailView, type InvoiceRecord, type InvoiceStatusView } from '../domain/invoice-views';
import { serviceErrors } from '../domain/errors';
import { ownerFilter, type Owner, type OwnerRef } from '../domain/owner';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller's invoice, or a 404 that does not tell whether it exists for someone else (or whether the id is malformed). */
export async function findOwnedInvoice<T = InvoiceRecord>(owner: Owner | OwnerRef, invoiceId: string, projection?: Record<string, 0 | 1>): Promise<T> {
  const missing = serviceErrors.notFound(`No invoice ${invoiceId.slice(0, 64)} for this partner and SME.`);
  if (!UUID_RE.test(invoiceId)) throw missing;
  const inv = await Invoice.findOne({ _id: invoiceId.toLowerCase(), ...ownerFilter(owner) }, projection).lean();
  if (!inv) throw missing;
  return inv as T;
}

export async function getInvoice(owner: Owner | OwnerRef, invoiceId: string): Promise<InvoiceDetailView> {
  return invoiceDetailView(await findOwnedInvoice(owner, invoiceId, { body: 0 }));
}

export async function listInvoices(owner: Owner | OwnerRef, q: InvoiceListQuery): Promise<{ data: InvoiceStatusView[]; nextCursor: string | null }> {
  const { page, nextCursor } = await listPage<InvoiceRecord>(owner, q, { number: 1, status: 1, reason: 1, heldReason: 1, ackRef: 1, createdAt: 1, updatedAt: 1 });
  return { data: page.map(invoiceStatusView), nextCursor };
}

/** One page of the owner's invoices, newest first (keyset on createdAt, _id), and the cursor of the next page. */
export async function listPage<T extends { _id: string; createdAt?: Date | string | null }>(owner: Owner | OwnerRef, q: InvoiceListQuery, projection: Record<string, 0 | 1>): Promise<{ page: T[]; nextCursor: string | null }> {
  const rows = await Invoice.find(listFilter(ownerFilter(owner), q), projection).sort(LIST_SORT).limit(q.limit + 1).lean<T[]>();
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > q.limit && last ? encodeCursor({ createdAt: new Date(last.createdAt!), id: last._id }) : null;
  return { page, nextCursor };
}

/** The stored PINT-AE XML; 404 until the pipeline has transformed the invoice. */
export async function getInvoiceDocument(owner: Owner | OwnerRef, invoiceId: string): Promise<string> {
  const inv = await findOwnedInvoice<{ _id: string; status: string }>(owner, invoiceId, { status: 1 });
  const doc = await InvoiceDocument.findById(inv._id, { xml: 1 }).lean();
  if (!doc) throw serviceErrors.notFound(`Invoice ${invoiceId} has no PINT-AE document yet (status ${inv.status}); it is stored once the invoice is transformed.`);
  return doc.xml;
}

/** What was sent to the ASP and what came back, for each pipeline run that reached it (authority audits). */
export async function getInvoiceEvidence(owner: Owner | OwnerRef, invoiceId: string): Promise<EvidenceView> {
  const inv = await findOwnedInvoice<{ _id: string }>(owner, invoiceId, { _id: 1 });
  return evidenceOf(inv._id);
}
