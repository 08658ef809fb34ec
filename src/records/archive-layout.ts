// What an audit export archive holds and where (issue 34 point 4), shared by the writer and `records verify
// --archive`. Pure.
//
//   README.txt                               what the archive is and how to check it
//   invoices/<invoiceId>/run-<n>.xml         every document handed over to the ASP, byte for byte as sent
//   credit-notes/<invoiceId>/run-<n>.xml     the same for credit notes
//   <dir>/<invoiceId>/evidence.json          the hand-over records (ASP ids, statuses, answers) and the invoice's
//                                            chain entries
//   manifest.csv, manifest.json              one row per document (MANIFEST_COLUMNS)
//   chain/entries.jsonl                      the seller TRN's chain from the first entry of an archived document
//                                            up to the head, one ChainEntry a line
//   chain/head.json                          {trn, seq, hash} of the chain's last entry when the archive was made
//   SHA256SUMS                               sha256 of every file above (`sha256sum -c SHA256SUMS` after unpacking)
import type { ChainEntry } from './chain-hash';

export const README_PATH = 'README.txt';
export const MANIFEST_CSV = 'manifest.csv';
export const MANIFEST_JSON = 'manifest.json';
export const CHAIN_ENTRIES = 'chain/entries.jsonl';
export const CHAIN_HEAD = 'chain/head.json';
export const SUMS = 'SHA256SUMS';
export const ARCHIVE_FORMAT = 'einvoice-records-export/1';

/** Credit notes sit apart from invoices so an auditor finds them without reading each document. */
export const dirOf = (documentType: string): string => (documentType === 'credit_note' ? 'credit-notes' : 'invoices');
export const documentPath = (documentType: string, invoiceId: string, run: number): string => `${dirOf(documentType)}/${invoiceId}/run-${run}.xml`;
export const evidencePath = (documentType: string, invoiceId: string): string => `${dirOf(documentType)}/${invoiceId}/evidence.json`;

export interface ManifestRow {
  number: string;
  issueDate: string;
  documentType: string;
  currency: string;
  /** Decimal texts exactly as in the document's totals (never parsed to floating point). */
  taxExclusiveAmount: string;
  taxAmount: string;
  payableAmount: string;
  status: string;
  ackRef: string | null;
  /** sha256 hex of the document's bytes. */
  sha256: string;
  /** Seq of the document's hand-over entry in the seller TRN's chain; null for a hand-over older than the chain. */
  chainSeq: number | null;
  invoiceId: string;
  run: number;
  path: string;
}

export const MANIFEST_COLUMNS = ['number', 'issueDate', 'documentType', 'currency', 'taxExclusiveAmount', 'taxAmount', 'payableAmount', 'status', 'ackRef', 'sha256', 'chainSeq', 'invoiceId', 'run', 'path'] as const satisfies readonly (keyof ManifestRow)[];

export interface ChainHead {
  trn: string;
  /** null when the TRN's chain has no entry yet. */
  seq: number | null;
  hash: string | null;
}

/** manifest.json's frame around its rows (the rows are streamed between the two halves). */
export interface ManifestInfo {
  format: typeof ARCHIVE_FORMAT;
  trn: string;
  from: string;
  to: string;
  /** Whose invoices: "partner <id> sme <id>", "tenant <id> mode <m>", or "trn" (every scope of the TRN, CLI). */
  scope: string;
  generatedAt: string;
}

export function manifestJsonOpening(info: ManifestInfo): string {
  return `{"format":${JSON.stringify(info.format)},"trn":${JSON.stringify(info.trn)},"from":${JSON.stringify(info.from)},"to":${JSON.stringify(info.to)},"scope":${JSON.stringify(info.scope)},"generatedAt":${JSON.stringify(info.generatedAt)},"documents":[\n`;
}
export const MANIFEST_JSON_CLOSING = '\n]}\n';
export const manifestJsonRow = (row: ManifestRow, first: boolean): string => `${first ? '' : ',\n'}${JSON.stringify(rowInOrder(row))}`;

function rowInOrder(row: ManifestRow): ManifestRow {
  return Object.fromEntries(MANIFEST_COLUMNS.map((c) => [c, row[c]])) as unknown as ManifestRow;
}

export const MANIFEST_CSV_HEADER = MANIFEST_COLUMNS.join(',') + '\r\n';

/** One CSV record (RFC 4180: CRLF, fields quoted when they hold a comma, quote or line break). */
export function manifestCsvRow(row: ManifestRow): string {
  return MANIFEST_COLUMNS.map((c) => csvField(row[c] === null ? '' : String(row[c]))).join(',') + '\r\n';
}

function csvField(text: string): string {
  // A leading = + - @ would run as a formula in a spreadsheet: quote-prefix it (OWASP CSV injection).
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Parses manifest.csv back into text fields (for the check that it says what manifest.json says). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(field), (field = '');
    else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field), rows.push(row), (row = []), (field = ''), i++;
    } else field += ch;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows;
}

/** The CSV text of a row's fields, as manifestCsvRow writes them, for comparing with a parsed CSV record. */
export function csvTexts(row: ManifestRow): string[] {
  return parseCsv(manifestCsvRow(row))[0];
}

export interface DocumentFacts {
  number: string | null;
  issueDate: string | null;
  currency: string | null;
  taxExclusiveAmount: string | null;
  taxAmount: string | null;
  payableAmount: string | null;
}

const first = (xml: string, re: RegExp): string | null => re.exec(xml)?.[1] ?? null;

/**
 * The manifest's facts read from the document as sent (not the stored body), so the manifest says what the
 * authority received. The renderer writes the document-level cac:TaxTotal before the lines, whose own TaxTotal
 * come later, and the document's cbc:ID and cbc:IssueDate before any reference's.
 */
export function documentFacts(xml: string): DocumentFacts {
  const totals = first(xml, /<cac:LegalMonetaryTotal>([\s\S]*?)<\/cac:LegalMonetaryTotal>/) ?? '';
  return {
    number: first(xml, /<cbc:ID>([^<]*)<\/cbc:ID>/),
    issueDate: first(xml, /<cbc:IssueDate>([^<]*)<\/cbc:IssueDate>/),
    currency: first(xml, /<cbc:DocumentCurrencyCode>([^<]*)</),
    taxExclusiveAmount: first(totals, /<cbc:TaxExclusiveAmount[^>]*>([^<]*)</),
    taxAmount: first(xml, /<cac:TaxTotal>\s*<cbc:TaxAmount[^>]*>([^<]*)</),
    payableAmount: first(totals, /<cbc:PayableAmount[^>]*>([^<]*)</),
  };
}

/** The evidence file of one invoice: its hand-over records as GET …/evidence shows them, and its chain entries. */
export interface EvidenceFile {
  invoiceId: string;
  number: string;
  issueDate: string;
  documentType: string;
  status: string;
  ackRef: string | null;
  submissions: unknown[];
  chain: ChainEntry[];
}

export const sumsLine = (sha256: string, path: string): string => `${sha256}  ${path}\n`;

export function readmeText(info: ManifestInfo): string {
  return [
    `Audit export of the e-invoicing records of seller TRN ${info.trn}, issue dates ${info.from} to ${info.to} (${info.scope}).`,
    `Made ${info.generatedAt}. Format ${ARCHIVE_FORMAT}.`,
    '',
    'invoices/<id>/run-<n>.xml and credit-notes/<id>/run-<n>.xml: each document exactly as handed over to the ASP.',
    '<dir>/<id>/evidence.json: the hand-over records (ASP submission id, statuses and their times, acknowledgement',
    '  reference, raw answers) and the invoice\'s entries in the seller TRN\'s evidence hash chain.',
    'manifest.csv / manifest.json: one row per document: number, issue date, document type, totals, status, ackRef,',
    '  SHA-256 of the document, its position (seq) in the chain.',
    'chain/entries.jsonl: the chain from the first archived document\'s entry up to chain/head.json. Each entry\'s hash',
    '  is the sha256 of the canonical JSON (keys sorted, no whitespace) of its fields other than hash, and carries',
    '  the previous entry\'s hash (prevHash).',
    'SHA256SUMS: sha256 of every file (sha256sum -c SHA256SUMS).',
    '',
    'Check it: einvoice records verify --archive <this file>. Compare chain/head.json with the head the service',
    'reports for the TRN (einvoice records verify --trn <trn>) to know the archive is the service\'s own.',
    '',
  ].join('\n');
}
