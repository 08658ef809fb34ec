import { recentMap } from '../src/domain/recent-map';

// The XML a transform step just rendered, kept in this worker process for the validate and deliver steps that
// follow it (local activities: the same process, moments later), which would otherwise each read the pipeline's
// largest document back from the store. Keyed by invoice and document UUID: the same invoice body rendered with
// the same UUID is the same XML, so an entry can only stand for the document the store holds under that UUID.
// Any miss (another worker, an evicted entry, a restart) reads the store as before.
const MAX_ENTRIES = 1000; // ~15 MB at the size of a typical invoice's XML

const documents = recentMap<string, string>(MAX_ENTRIES); // the oldest evicted first
const keyOf = (invoiceId: string, documentUuid: string) => `${invoiceId}\u0000${documentUuid}`;

export function rememberRendered(invoiceId: string, documentUuid: string, xml: string): void {
  documents.set(keyOf(invoiceId, documentUuid), xml);
}

export function recallRendered(invoiceId: string, documentUuid: string | null | undefined): string | null {
  return documentUuid ? (documents.get(keyOf(invoiceId, documentUuid)) ?? null) : null;
}

/** After the hand-over nothing reads it again in this run. */
export function forgetRendered(invoiceId: string, documentUuid: string | null | undefined): void {
  if (documentUuid) documents.delete(keyOf(invoiceId, documentUuid));
}
