// `einvoice records purge --before <date>`: the one path that removes tax records, and only those whose retention
// ended (retention.ts) and that no legal hold covers; never run automatically. Each removal is chained first (a
// 'deletion' entry, reason retention_expired), then the hand-over documents and evidence, the invoice last, so a
// crash leaves the invoice to be purged again. The chain entries stay: they hold hashes, and a removed link would
// break every later one.
import { AspSubmission, AspSubmissionDocument, Invoice, InvoiceDocument } from '../db/models';
import { canonicalJson, sha256Hex } from './chain-hash';
import { chainDeletion } from './evidence-chain';
import { retentionVerdict } from './retention';
import { retentionPolicies, type HeldRecord } from './retention-policy';

export interface PurgeOptions {
  /** Records whose retention ended before this instant (and before now). */
  before: Date;
  dryRun: boolean;
  /** Only this seller TRN's records. */
  trn?: string;
  /** Who runs it, as the chain records it. */
  by: string;
  now?: Date;
  onRecord?: (r: PurgedRecord) => void;
}

export interface PurgedRecord {
  collection: 'invoices' | 'deleted_invoices';
  invoiceId: string;
  number: string;
  trn: string;
  issueDate: string;
  retentionEndedAt: string;
  action: 'purged' | 'would_purge';
}

export interface PurgeSummary {
  dryRun: boolean;
  before: string;
  examined: number;
  purged: number;
  kept: { withinRetention: number; legalHold: number };
}

type Stored = HeldRecord & { _id: string; number: string; sellerTrn: string; issueDate: string; status: string; body: unknown };

export async function purgeRecords(opts: PurgeOptions): Promise<PurgeSummary> {
  const now = opts.now ?? new Date();
  const policyOf = retentionPolicies();
  const summary: PurgeSummary = { dryRun: opts.dryRun, before: opts.before.toISOString(), examined: 0, purged: 0, kept: { withinRetention: 0, legalHold: 0 } };
  // Retention ends after the issue year, so nothing issued on or after `before` can have ended before it.
  const issuedBefore = { issueDate: { $lt: opts.before.toISOString().slice(0, 10) }, ...(opts.trn ? { sellerTrn: opts.trn } : {}) };
  const fields = { number: 1, sellerTrn: 1, issueDate: 1, status: 1, body: 1, partnerId: 1, smeId: 1, tenantId: 1, legalHold: 1 };
  const sources = [
    { collection: 'invoices' as const, cursor: Invoice.find(issuedBefore, fields).lean<Stored[]>().cursor({ batchSize: 200 }) },
    { collection: 'deleted_invoices' as const, cursor: Invoice.db.collection('deleted_invoices').find(issuedBefore as never, { projection: fields, batchSize: 200 }) },
  ];
  for (const { collection, cursor } of sources) {
    for await (const doc of cursor as AsyncIterable<Stored>) {
      summary.examined += 1;
      const verdict = retentionVerdict(doc.issueDate, await policyOf(doc), now, opts.before);
      if (!verdict.removable) {
        if (verdict.why === 'legal_hold') summary.kept.legalHold += 1;
        else summary.kept.withinRetention += 1;
        continue;
      }
      if (!opts.dryRun) await removeRecord(collection, doc, opts.by);
      summary.purged += 1;
      opts.onRecord?.({
        collection, invoiceId: doc._id, number: doc.number, trn: doc.sellerTrn, issueDate: doc.issueDate,
        retentionEndedAt: verdict.endedAt.toISOString(), action: opts.dryRun ? 'would_purge' : 'purged',
      });
    }
  }
  return summary;
}

async function removeRecord(collection: PurgedRecord['collection'], doc: Stored, by: string): Promise<void> {
  await chainDeletion({
    trn: doc.sellerTrn, invoiceId: doc._id, number: doc.number, by, bodySha256: sha256Hex(canonicalJson(doc.body)),
    status: doc.status, reason: 'retention_expired',
  });
  if (collection === 'deleted_invoices') {
    await Invoice.db.collection('deleted_invoices').deleteOne({ _id: doc._id } as never);
    return;
  }
  const runs = await AspSubmission.find({ invoiceId: doc._id }, { _id: 1 }).lean<{ _id: string }[]>();
  await AspSubmissionDocument.deleteMany({ _id: { $in: runs.map((r) => r._id) } });
  await AspSubmission.deleteMany({ invoiceId: doc._id });
  await InvoiceDocument.deleteOne({ _id: doc._id });
  // Conditional on no hold set meanwhile.
  await Invoice.deleteOne({ _id: doc._id, legalHold: { $ne: true } });
}
