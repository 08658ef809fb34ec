// Builds Tenant bulk-import CSVs (SPEC 4.2) in code, for the CSV tests, the import test and the benchmark. By
// default every invoice is valid: sale, AED, 2025-01-15, a UAE buyer with a well-formed TRN (starts with 1,
// ends with 03), lines of EA or C62 at 5 % standard_5. badRows overwrites chosen cells to make chosen rows bad.
import {
  TENANT_CSV_COLUMNS,
  TENANT_CSV_COLUMNS_ARABIC,
  TENANT_CSV_COLUMNS_ARABIC_WITH_REASON,
  TENANT_CSV_COLUMNS_WITH_REASON,
  type TenantCsvColumn,
} from '../../src/domain/tenant-csv';

/** One cell to overwrite: line `line` (default 0) of invoice `invoice` (both 0-based) gets `value` in `column`. */
export interface BadRow {
  invoice: number;
  line?: number;
  column: TenantCsvColumn;
  value: string;
}

export interface TenantCsvOptions {
  /** The variant with sellerLegalNameArabic and buyerLegalNameArabic (filled with Arabic names). */
  arabic?: boolean;
  /** The optional reasonCode column after referencedInvoiceNumber (empty unless badRows fill it). */
  reasonColumn?: boolean;
  /** Cells to overwrite, e.g. { invoice: 3, column: 'lineQty', value: 'abc' } for an invalid_number. */
  badRows?: BadRow[];
  /** Seller TRN on every row (the tenant's). */
  sellerTrn?: string;
  /** Invoice numbers are `${numberPrefix}${index + 1}` (zero-padded to 5 digits). */
  numberPrefix?: string;
  /** Line endings: '\n' (default) or '\r\n'. */
  eol?: '\n' | '\r\n';
  /** Start with a UTF-8 BOM, as Excel does. */
  bom?: boolean;
}

export const CSV_SELLER_TRN = '100000000000103';

/** A valid buyer TRN per invoice index: 15 digits, starts with 1, ends with 03, never the default seller's. */
export function csvBuyerTrn(invoice: number): string {
  return `1${String(500_000 + invoice).padStart(12, '0')}03`;
}

export function csvInvoiceNumber(invoice: number, prefix = 'CSV-'): string {
  return `${prefix}${String(invoice + 1).padStart(5, '0')}`;
}

/** The CSV row (header is row 1) of a line when no cell holds a line break and rows are in generated order. */
export function csvRowOf(invoice: number, line: number, linesPerInvoice: number): number {
  return 2 + invoice * linesPerInvoice + line;
}

/** Quotes a cell when it holds a comma, quote or line break (RFC 4180). */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The header row's cells for a variant. */
export function csvHeader(arabic = false, reasonColumn = false): readonly TenantCsvColumn[] {
  if (reasonColumn) return arabic ? TENANT_CSV_COLUMNS_ARABIC_WITH_REASON : TENANT_CSV_COLUMNS_WITH_REASON;
  return arabic ? TENANT_CSV_COLUMNS_ARABIC : TENANT_CSV_COLUMNS;
}

/** The cells of one generated row by column. */
function rowCells(invoice: number, line: number, o: TenantCsvOptions): Record<TenantCsvColumn, string> {
  return {
    number: csvInvoiceNumber(invoice, o.numberPrefix),
    issueDate: '2025-01-15',
    dueDate: '2025-02-14',
    invoiceType: 'sale',
    currency: 'AED',
    sellerTrn: o.sellerTrn ?? CSV_SELLER_TRN,
    sellerName: 'Tenant Trading LLC',
    sellerLegalNameArabic: 'شركة المستأجر للتجارة ذ.م.م',
    buyerTrn: csvBuyerTrn(invoice),
    buyerName: `Buyer ${invoice + 1} LLC`,
    buyerLegalNameArabic: `شركة المشتري ${invoice + 1}`,
    buyerCountry: 'AE',
    buyerAddressLine1: `Office ${invoice + 1}, Sheikh Zayed Road`,
    buyerCity: 'Dubai',
    lineDescription: `Item ${line + 1}, consulting services`,
    lineQty: String(1 + (line % 3)),
    lineUnit: line % 2 ? 'C62' : 'EA',
    lineUnitPrice: (100 + (invoice % 50) + line * 2.5).toFixed(2),
    lineVatRate: '0.05',
    lineTaxCategory: 'standard_5',
    referencedInvoiceNumber: '',
    reasonCode: '',
    notes: '',
  };
}

/** The CSV lines one at a time (header first), each ending with the line ending: for streaming large files. */
export function* tenantCsvLines(invoices: number, linesPerInvoice: number, options: TenantCsvOptions = {}): Generator<string> {
  const eol = options.eol ?? '\n';
  const columns = csvHeader(options.arabic, options.reasonColumn);
  const bad = new Map((options.badRows ?? []).map((b) => [`${b.invoice}/${b.line ?? 0}`, b] as const));
  const badFor = (i: number, l: number) => (options.badRows ?? []).filter((b) => b.invoice === i && (b.line ?? 0) === l);
  yield (options.bom ? '\uFEFF' : '') + columns.join(',') + eol;
  for (let i = 0; i < invoices; i++) {
    for (let l = 0; l < linesPerInvoice; l++) {
      const cells = rowCells(i, l, options);
      if (bad.has(`${i}/${l}`)) for (const b of badFor(i, l)) cells[b.column] = b.value;
      yield columns.map((c) => csvCell(cells[c])).join(',') + eol;
    }
  }
}

/** A whole Tenant CSV as one string: `invoices` invoices of `linesPerInvoice` lines each, valid unless badRows. */
export function tenantCsv(invoices: number, linesPerInvoice: number, options: TenantCsvOptions = {}): string {
  let out = '';
  for (const line of tenantCsvLines(invoices, linesPerInvoice, options)) out += line;
  return out;
}
