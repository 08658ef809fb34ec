// The store reads of an audit export: a period's invoices page by page on the indexed issueDate reads of the lists
// (one keyset walk per day, domain/invoice-list-query.ts), their hand-over records, the exact XML sent and their
// chain entries, a page at a time, so memory holds one page whatever the period's size.
import mongoose from 'mongoose';
import { AspSubmission, AspSubmissionDocument, Invoice, SmeConnection, Tenant, type AspSubmissionDoc } from '../db/models';
import { listFilter, LIST_SORT, type ListCursor } from '../domain/invoice-list-query';
import { ownerFilter, type OwnerRef } from '../domain/owner';
import { documentIdOf } from '../services/asp-evidence';
import type { ChainEntry } from './chain-hash';
import type { ChainHead } from './archive-layout';

/** Whose invoices an export holds: a seller TRN and the owners that issue under it. */
export interface ExportSource {
  trn: string;
  owners: OwnerRef[];
  /** Only invoices of this mode (the CLI's --mode); undefined: every invoice of the owners. */
  mode?: string;
  /** For the manifest and README: whose records these are. */
  label: string;
}

export interface SourcedInvoice {
  _id: string;
  number: string;
  issueDate: string;
  status: string;
  ackRef: string | null;
  documentType: string;
  submissions: Array<AspSubmissionDoc & { xml?: string | null }>;
  /** The XML of each hand-over by run, as stored when it was sent. */
  xmlByRun: Map<number, string>;
  chain: ChainEntry[];
}

/** Invoices read per store round trip (with their XML: ~10 KB each). */
export const EXPORT_PAGE = 100;
const CHAIN_PAGE = 1000;

/** The evidence chain's collection (model and append owned by src/records/chain-*). */
const chainCollection = () => mongoose.connection.collection<ChainEntry>('evidence_chain');

/** The stored entry without the store's own fields. */
function entryOf(doc: ChainEntry): ChainEntry {
  return { trn: doc.trn, seq: doc.seq, kind: doc.kind, invoiceId: doc.invoiceId, number: doc.number, at: doc.at, data: doc.data, prevHash: doc.prevHash, hash: doc.hash };
}

/** Every owner issuing under a TRN: the SMEs connected with it (any partner) and the tenant with it, in `mode`. */
export async function ownersOfTrn(trn: string, mode: string): Promise<OwnerRef[]> {
  const smes = await SmeConnection.find({ trn }, { _id: 1, partnerId: 1 }).lean();
  const tenants = await Tenant.find({ trn }, { _id: 1 }).lean();
  return [...smes.map((s) => ({ kind: 'partner' as const, partnerId: s.partnerId, smeId: s._id })), ...tenants.map((t) => ({ kind: 'tenant' as const, tenantId: t._id, mode }))];
}

/** Every day of [from, to] (YYYY-MM-DD), oldest first. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

interface InvoiceRow {
  _id: string;
  number: string;
  issueDate: string;
  status: string;
  ackRef?: string | null;
  mode: string;
  run?: number;
  createdAt: Date;
  body?: { documentType?: string };
}

/**
 * The handed-over invoices of [from, to], a page at a time: per owner, per day, newest first by the list's keyset
 * ({numberScope, issueDate, createdAt, _id} index; a one-day window is the list's indexed read of that day). Invoices
 * never handed over (drafts, held, queued, refused before the ASP) are no delivered record and are left out. One
 * page is read ahead while the consumer writes the current one out (two pages in memory at most).
 */
export async function* sourcedPages(source: ExportSource, from: string, to: string): AsyncGenerator<SourcedInvoice[]> {
  const rows = invoicePages(source, from, to);
  const read = (): Promise<SourcedInvoice[] | null> => {
    const p = rows.next().then((r) => (r.done ? null : withEvidence(source.trn, r.value)));
    p.catch(() => {}); // a consumer that stops early leaves the read-ahead unobserved; a failure it meets is thrown below
    return p;
  };
  let next = read();
  for (;;) {
    const page = await next;
    if (page === null) return;
    next = read();
    if (page.length) yield page;
  }
}

async function* invoicePages(source: ExportSource, from: string, to: string): AsyncGenerator<InvoiceRow[]> {
  for (const owner of source.owners) {
    for (const day of daysOf(from, to)) {
      let cursor: ListCursor | undefined;
      do {
        const filter = listFilter(ownerFilter(owner), { from: day, to: day, cursor, limit: EXPORT_PAGE });
        const rows = await Invoice.find(filter, { number: 1, issueDate: 1, status: 1, ackRef: 1, mode: 1, run: 1, createdAt: 1, 'body.documentType': 1 }).sort(LIST_SORT).limit(EXPORT_PAGE).lean<InvoiceRow[]>();
        const last = rows[rows.length - 1];
        cursor = rows.length === EXPORT_PAGE && last ? { createdAt: new Date(last.createdAt), id: last._id } : undefined;
        const wanted = source.mode ? rows.filter((r) => r.mode === source.mode) : rows;
        if (wanted.length) yield wanted;
      } while (cursor);
    }
  }
}

/** Lookups of one page in flight at once (the store's pool is shared with the API's other requests). */
const ROWS_AT_ONCE = 16;

async function eachLimited<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ROWS_AT_ONCE, items.length) }, worker));
  return out;
}

type Sub = AspSubmissionDoc & { xml?: string | null };

/**
 * A page's hand-over records, XML and chain entries, by equality reads per invoice (the three at once): the store
 * serves equalities from an index (FerretDB with our patch, scripts/infra/ferretdb-patch/indexed_equal) but scans
 * the whole collection for an `$in` of ids, which on the XML collection means reading every document ever sent.
 * The XML is read by its id (<invoiceId>-<run>) for every run the invoice has had.
 */
async function withEvidence(trn: string, rows: InvoiceRow[]): Promise<SourcedInvoice[]> {
  const read = await eachLimited(rows, (r) =>
    Promise.all([
      AspSubmission.find({ invoiceId: r._id }, { refusedSignals: 0 }).lean<Sub[]>(),
      Promise.all(Array.from({ length: Math.max(1, r.run ?? 1) }, (_, i) => AspSubmissionDocument.findById(documentIdOf(r._id, i + 1), { xml: 1 }).lean())),
      chainCollection().find({ invoiceId: r._id }).sort({ seq: 1 }).toArray(),
    ]),
  );
  const out: SourcedInvoice[] = [];
  rows.forEach((r, i) => {
    const [found, docs, chained] = read[i];
    const subs = found.sort((a, b) => a.run - b.run);
    if (!subs.length) return;
    const xmlOf = new Map(docs.filter((d) => d !== null).map((d) => [d!._id as string, d!.xml]));
    const xmlByRun = new Map<number, string>();
    for (const s of subs) {
      // Records opened before the XML moved to asp_submission_documents carry it themselves.
      const xml = xmlOf.get(documentIdOf(r._id, s.run)) ?? s.xml ?? null;
      if (xml !== null) xmlByRun.set(s.run, xml);
    }
    out.push({
      _id: r._id, number: r.number, issueDate: r.issueDate, status: r.status, ackRef: r.ackRef ?? null,
      documentType: r.body?.documentType ?? 'tax_invoice', submissions: subs, xmlByRun,
      chain: chained.filter((d) => d.trn === trn).map((d) => entryOf(d as unknown as ChainEntry)),
    });
  });
  return out;
}

/** The TRN's last chain entry now. */
export async function chainHead(trn: string): Promise<ChainHead> {
  const [last] = await chainCollection().find({ trn }).sort({ seq: -1 }).limit(1).toArray();
  return { trn, seq: last?.seq ?? null, hash: last?.hash ?? null };
}

/** Entries fromSeq..toSeq of the TRN's chain in order, a page at a time (keyset on the {trn, seq} unique index). */
export async function* chainEntries(trn: string, fromSeq: number, toSeq: number): AsyncGenerator<ChainEntry> {
  let next = fromSeq;
  while (next <= toSeq) {
    const page = await chainCollection().find({ trn, seq: { $gte: next, $lte: toSeq } }).sort({ seq: 1 }).limit(CHAIN_PAGE).toArray();
    if (!page.length) return;
    for (const doc of page) yield entryOf(doc as unknown as ChainEntry);
    next = page[page.length - 1].seq + 1;
  }
}

/** GET /v1/partner/records: the connected SME's invoices, under its TRN. */
export function smeSource(partnerId: string, sme: { _id: string; trn: string }): ExportSource {
  return { trn: sme.trn, owners: [{ kind: 'partner', partnerId, smeId: sme._id }], label: `partner ${partnerId} sme ${sme._id}` };
}

/** GET /v1/records: the tenant's invoices of its current mode, under its TRN. */
export function tenantSource(tenant: { _id: string; trn: string }, mode: string): ExportSource {
  return { trn: tenant.trn, owners: [{ kind: 'tenant', tenantId: tenant._id, mode }], label: `tenant ${tenant._id} mode ${mode}` };
}

/** `einvoice records export --trn`: every SME and tenant issuing under the TRN, invoices of `mode` only. */
export async function trnSource(trn: string, mode: string): Promise<ExportSource> {
  return { trn, owners: await ownersOfTrn(trn, mode), mode, label: `every SME and tenant of the TRN, mode ${mode}` };
}
