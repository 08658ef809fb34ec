// The Tenant API's CSV bulk import (SPEC 4.2): each invoice of the file (its lines grouped by number) is read like
// a POST /v1/invoices body and stored as a draft. A number that is already a draft of this tenant and mode is
// updated (upsert); one already submitted is refused for its rows. Bad rows are reported per row and never undo
// the good ones. Writes are batched: one read of the existing numbers, one insert of the new drafts, one bulk
// update of the replaced ones.
import { Invoice } from '../db/models';
import { tenantNumbers, type TenantOwner } from '../domain/owner';
import { isDuplicateKeyError } from '../db/duplicate-key';
import { insertEach } from '../db/insert-each';
import { ServiceError, tenantCodeOf } from '../domain/errors';
import { checkIssueDate } from '../domain/submission-rules';
import { type FieldError, computeAmounts } from '@einvoice/pint-ae';
import type { RowError, TenantCsvInvoice, CsvLocation } from '../domain/tenant-csv';
import type { ReferencedOriginal, TenantDraft } from '../domain/tenant-invoice-types';
import { readDraft, draftDocument } from './tenant-invoices';
import { referencedOriginals } from './tenant-referenced-originals';

/** What the import did with one invoice of the file. */
export interface CsvInvoiceResult {
  number: string;
  /** The CSV rows (line numbers, header = 1) the invoice came from. */
  rows: number[];
  status: 'created' | 'updated' | 'rejected';
  /** The draft's id (created or updated). */
  id?: string;
}

/** The per-row report (SPEC 4.2 leaves its format open; docs/decisions/0032-tenant-api.md). */
export interface CsvImportReport {
  mode: string;
  skipErrors: boolean;
  invoices: { received: number; created: number; updated: number; rejected: number };
  results: CsvInvoiceResult[];
  /** One entry per problem, each naming its row, the invoice number, the column, a code and what to send instead. */
  errors: RowError[];
  /** Accepted but worth knowing (late_issuance, submission-rules.ts), per invoice: its first row and the column. */
  warnings?: { row: number; invoiceNumber: string; column: 'issueDate'; code: 'late_issuance'; days: number; message: string }[];
}

export interface ParsedCsv {
  invoices: TenantCsvInvoice[];
  rejected: { number: string; rows: number[] }[];
  rowErrors: RowError[];
  locate(number: string, path: string): CsvLocation | undefined;
}

interface ReadInvoice {
  csv: TenantCsvInvoice;
  draft: TenantDraft;
}

/**
 * Imports the parsed file. skipErrors true: the good invoices are stored and the bad ones reported. skipErrors
 * false (the default): the whole file is checked first, and if any row is bad nothing is stored (422 with the
 * report), so a partial import never happens by surprise.
 */
export async function importCsv(caller: TenantOwner, parsed: ParsedCsv, opts: { skipErrors: boolean }): Promise<CsvImportReport> {
  const errors: RowError[] = [...parsed.rowErrors];
  const results: CsvInvoiceResult[] = parsed.rejected.map((r) => ({ number: r.number, rows: r.rows, status: 'rejected' }));
  const good: ReadInvoice[] = [];
  // Notes are read last: an invoice the file itself brings may be the one a note references (its date and
  // total then come from the file, unless the service already holds that number).
  const originals = await referencedOriginals(caller, parsed.invoices.map((i) => i.input));
  const isNote = (csv: TenantCsvInvoice) => csv.input.invoiceType === 'credit_note' || csv.input.invoiceType === 'debit_note';
  for (const csv of [...parsed.invoices.filter((i) => !isNote(i)), ...parsed.invoices.filter(isNote)]) {
    const problems = readProblems(caller, csv, parsed, originals);
    if ('draft' in problems) {
      good.push({ csv, draft: problems.draft });
      if (!isNote(csv) && !originals.has(csv.number)) originals.set(csv.number, fromFile(problems.draft));
      countCredit(originals, problems.draft);
    } else {
      errors.push(...problems.errors);
      results.push({ number: csv.number, rows: csv.rows, status: 'rejected' });
    }
  }
  const report = (): CsvImportReport => ({
    mode: caller.mode,
    skipErrors: opts.skipErrors,
    invoices: {
      received: parsed.invoices.length + parsed.rejected.length,
      created: results.filter((r) => r.status === 'created').length,
      updated: results.filter((r) => r.status === 'updated').length,
      rejected: results.filter((r) => r.status === 'rejected').length,
    },
    results: results.sort((a, b) => a.rows[0] - b.rows[0]),
    errors: errors.sort((a, b) => a.row - b.row),
    ...lateIssuance(good, results),
  });
  if (errors.length && !opts.skipErrors) {
    throw new ServiceError(422, 'bulk_rows_invalid', 'Unprocessable', `${errors.length} problem(s) in the file; nothing was imported. Fix the rows listed in errors, or send options {"skipErrors": true} to import the good invoices and skip the bad ones.`, { report: report(), errors: report().errors });
  }
  await store(caller, good, results, errors);
  return report();
}

/** An invoice of the file as the original of a note in the same file (nothing credited against it yet). */
function fromFile(draft: TenantDraft): ReferencedOriginal {
  return { issueDate: draft.body.issueDate, grossFils: computeAmounts(draft.body).taxInclusive, creditedFils: 0n };
}

/** A credit note of the file counts against its original for the file's later notes (one cap for all of them). */
function countCredit(originals: Map<string, ReferencedOriginal>, draft: TenantDraft): void {
  const original = draft.invoiceType === 'credit_note' && draft.body.precedingInvoiceNumber ? originals.get(draft.body.precedingInvoiceNumber) : undefined;
  if (original) original.creditedFils += computeAmounts(draft.body).taxInclusive;
}

/** The invoice read like a JSON body, or its problems as row errors. */
function readProblems(caller: TenantOwner, csv: TenantCsvInvoice, parsed: ParsedCsv, originals: ReadonlyMap<string, ReferencedOriginal>): { draft: TenantDraft } | { errors: RowError[] } {
  try {
    return { draft: readDraft(caller, csv.input, originals) };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    const found = (err.meta?.errors as FieldError[] | undefined) ?? [{ code: err.code, path: String(err.meta?.path ?? ''), message: err.detail ?? err.title }];
    return {
      errors: found.map((f) => {
        const at = parsed.locate(csv.number, f.path);
        return { row: at?.row ?? csv.rows[0], invoiceNumber: csv.number, column: at?.column ?? null, code: tenantCodeOf(f.code), message: f.message };
      }),
    };
  }
}

/** Inserts the new numbers and replaces drafts of numbers already stored; a submitted number is refused. */
async function store(caller: TenantOwner, good: ReadInvoice[], results: CsvInvoiceResult[], errors: RowError[]): Promise<void> {
  const existing = new Map<string, { _id: string; status: string }>();
  for (const row of await Invoice.find({ ...tenantNumbers(caller), number: { $in: good.map((g) => g.draft.number) } }, { _id: 1, number: 1, status: 1 }).lean()) {
    existing.set(row.number, { _id: row._id, status: row.status });
  }
  const refuse = (g: ReadInvoice, status: string) => {
    errors.push({ row: g.csv.rows[0], invoiceNumber: g.csv.number, column: 'number', code: 'invoice_already_submitted', message: `Invoice ${g.csv.number} is already ${status}; only drafts can be replaced. Issue a credit note to correct it, or use a new number.` });
    results.push({ number: g.csv.number, rows: g.csv.rows, status: 'rejected' });
  };

  const fresh = good.filter((g) => !existing.has(g.draft.number));
  // (no tenantInput: a CSV invoice's input is our own reading of its rows; the body holds all of it)
  const docs = fresh.map((g) => draftDocument(caller, g.draft, null));
  const refused = await insertEach(Invoice, docs);
  fresh.forEach((g, i) => {
    if (refused[i] === null) results.push({ number: g.csv.number, rows: g.csv.rows, status: 'created', id: docs[i]._id });
    else if (isDuplicateKeyError(refused[i])) refuse(g, 'stored by another request'); // a concurrent create won the number
    else throw refused[i];
  });

  const replaced = good.filter((g) => existing.has(g.draft.number));
  for (const g of replaced.filter((g) => existing.get(g.draft.number)!.status !== 'draft')) refuse(g, existing.get(g.draft.number)!.status);
  const drafts = replaced.filter((g) => existing.get(g.draft.number)!.status === 'draft');
  if (!drafts.length) return;
  // Conditional on still being a draft: a submit racing the import wins, and the import then refuses that number.
  const ops = drafts.map((g) => {
    const doc = draftDocument(caller, g.draft, null);
    return { updateOne: { filter: { _id: existing.get(g.draft.number)!._id, status: 'draft' as const }, update: { $set: { body: doc.body, tenantInput: doc.tenantInput, tenantInvoiceType: doc.tenantInvoiceType, issueDate: doc.issueDate, sellerTrn: doc.sellerTrn, source: doc.source } } } };
  });
  const outcome = await Invoice.bulkWrite(ops, { ordered: false });
  if (outcome.matchedCount === drafts.length) {
    for (const g of drafts) results.push({ number: g.csv.number, rows: g.csv.rows, status: 'updated', id: existing.get(g.draft.number)!._id });
    return;
  }
  // Some left draft meanwhile: look which, one read.
  const still = new Set((await Invoice.find({ _id: { $in: drafts.map((g) => existing.get(g.draft.number)!._id) } }, { _id: 1, status: 1 }).lean()).filter((r) => r.status === 'draft').map((r) => r._id));
  for (const g of drafts) {
    const id = existing.get(g.draft.number)!._id;
    if (still.has(id)) results.push({ number: g.csv.number, rows: g.csv.rows, status: 'updated', id });
    else refuse(g, 'submitted');
  }
}

/** The late_issuance warnings of the invoices stored (or that would be), in row order; nothing when there is none. */
function lateIssuance(good: ReadInvoice[], results: CsvInvoiceResult[]): Pick<CsvImportReport, 'warnings'> {
  const refused = new Set(results.filter((r) => r.status === 'rejected').map((r) => r.number));
  const warnings = good
    .filter((g) => !refused.has(g.csv.number))
    .flatMap((g) => checkIssueDate(g.draft.body.issueDate).map((w) => ({ row: g.csv.rows[0], invoiceNumber: g.csv.number, column: 'issueDate' as const, code: w.code, days: w.days, message: w.message })))
    .sort((a, b) => a.row - b.row);
  return warnings.length ? { warnings } : {};
}
