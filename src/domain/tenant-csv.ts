// The Tenant API's CSV bulk import (SPEC 4.2), the pure part: the header, one record at a time grouped into
// invoices by `number`, each group mapped to a TenantInvoiceInput, and the way back from a JSON path of that
// input to the (row, column) of the CSV, so errors found later by validation are reported where the tenant
// can fix them. No I/O and no CSV tokenizing: the caller parses the bytes (src/http/csv-upload.ts) and hands
// over records with their row numbers.
import type { TenantInvoiceInput, TenantInvoiceType, TenantLine, TenantTaxCategory } from './tenant-invoice-types';

/** SPEC 4.2 columns, in order, of the variant carrying Arabic names (the plain variant lacks the two Arabic ones). */
export const TENANT_CSV_COLUMNS_ARABIC = [
  'number',
  'issueDate',
  'dueDate',
  'invoiceType',
  'currency',
  'sellerTrn',
  'sellerName',
  'sellerLegalNameArabic',
  'buyerTrn',
  'buyerName',
  'buyerLegalNameArabic',
  'buyerCountry',
  'buyerAddressLine1',
  'buyerCity',
  'lineDescription',
  'lineQty',
  'lineUnit',
  'lineUnitPrice',
  'lineVatRate',
  'lineTaxCategory',
  'referencedInvoiceNumber',
  'notes',
] as const;

const ARABIC_NAME_COLUMNS: readonly string[] = ['sellerLegalNameArabic', 'buyerLegalNameArabic'];

/** SPEC 4.2 columns, in order (the plain variant). */
export const TENANT_CSV_COLUMNS = TENANT_CSV_COLUMNS_ARABIC.filter((c) => !ARABIC_NAME_COLUMNS.includes(c)) as readonly PlainCsvColumn[];
type PlainCsvColumn = Exclude<(typeof TENANT_CSV_COLUMNS_ARABIC)[number], 'sellerLegalNameArabic' | 'buyerLegalNameArabic'>;

/**
 * The optional reason column (issue 35): `reasonCode` right after referencedInvoiceNumber, in either variant.
 * An empty cell on a credit or debit note row is DEFAULT_CSV_REASON_CODE; the headers without it still work.
 */
export const CSV_REASON_COLUMN = 'reasonCode';
/** SPEC 2.2 reasonCode of a CSV note whose reason cell is empty or absent: "other" (BTAE-03 DL8.61.1.C). */
export const DEFAULT_CSV_REASON_CODE = 'OtherAdjustment';

export type TenantCsvColumn = (typeof TENANT_CSV_COLUMNS_ARABIC)[number] | typeof CSV_REASON_COLUMN;

function withReason(columns: readonly TenantCsvColumn[]): readonly TenantCsvColumn[] {
  return columns.flatMap((c) => (c === 'referencedInvoiceNumber' ? [c, CSV_REASON_COLUMN] : [c]));
}

/** The two variants with the reason column. */
export const TENANT_CSV_COLUMNS_WITH_REASON = withReason(TENANT_CSV_COLUMNS);
export const TENANT_CSV_COLUMNS_ARABIC_WITH_REASON = withReason(TENANT_CSV_COLUMNS_ARABIC);

/** Columns that describe one line; every other column describes the invoice and must repeat on each of its rows. */
const LINE_COLUMNS: ReadonlySet<TenantCsvColumn> = new Set<TenantCsvColumn>([
  'lineDescription',
  'lineQty',
  'lineUnit',
  'lineUnitPrice',
  'lineVatRate',
  'lineTaxCategory',
]);

const NUMERIC_COLUMNS: ReadonlySet<TenantCsvColumn> = new Set<TenantCsvColumn>(['lineQty', 'lineUnitPrice', 'lineVatRate']);

/** SPEC 8: invoices per file. */
export const TENANT_CSV_MAX_INVOICES = 1000;

/**
 * One entry of the per-row report. `row` is the CSV line number where the record starts (the header is row 1);
 * `invoiceNumber` is null when the row has none (or the error is about the header); `column` is a header name,
 * or null when the error is about the whole row.
 */
export interface RowError {
  row: number;
  invoiceNumber: string | null;
  column: string | null;
  code: string;
  message: string;
}

/** Which header variant a file uses, and the column order to read records with. */
export interface TenantCsvHeader {
  variant: 'plain' | 'arabic';
  /** Whether the optional reasonCode column is there. */
  reasonColumn: boolean;
  columns: readonly TenantCsvColumn[];
}

/** One invoice read from the file: its number, the rows it came from (in file order) and the mapped input. */
export interface TenantCsvInvoice {
  number: string;
  rows: number[];
  /**
   * The standard InvoiceCreateInput shape. Empty cells are absent fields, so a required field may be missing
   * here: readTenantInvoice reports it, and locate() turns its path back into a row and column.
   */
  input: TenantInvoiceInput;
}

/** Where in the file a JSON path of an invoice's input came from. `column` is null when no single cell holds it. */
export interface CsvLocation {
  row: number;
  column: TenantCsvColumn | null;
}

/** What add() says: 'invoice_limit' when this record is the first of one invoice too many (stop reading). */
export type AddResult = 'ok' | 'invoice_limit';

/** What a finished file yields. */
export interface TenantCsvResult {
  /** Invoices whose rows all read cleanly, in order of first appearance. */
  invoices: TenantCsvInvoice[];
  /** Invoices left out because at least one of their rows has an error (the errors are in rowErrors). */
  rejected: Array<{ number: string; rows: number[] }>;
  /** Every row error, in row order. */
  rowErrors: RowError[];
}

const BOM = '\uFEFF';

/** Header names compare case-insensitively, after trimming and dropping a UTF-8 BOM (Excel writes one). */
function normalizeHeaderName(name: string): string {
  return name.replace(BOM, '').trim().toLowerCase();
}

/**
 * Reads the header row: either variant of SPEC 4.2, in order. Anything else is one RowError (row 1) naming
 * the missing and unexpected columns and the header to send, so the tenant fixes the file in one go.
 */
export function readTenantCsvHeader(fields: readonly string[]): TenantCsvHeader | RowError {
  const got = fields.map(normalizeHeaderName);
  for (const [variant, reasonColumn, columns] of [
    ['plain', false, TENANT_CSV_COLUMNS],
    ['arabic', false, TENANT_CSV_COLUMNS_ARABIC],
    ['plain', true, TENANT_CSV_COLUMNS_WITH_REASON],
    ['arabic', true, TENANT_CSV_COLUMNS_ARABIC_WITH_REASON],
  ] as const) {
    if (got.length === columns.length && columns.every((c, i) => c.toLowerCase() === got[i])) return { variant, reasonColumn, columns };
  }
  return { row: 1, invoiceNumber: null, column: null, code: 'invalid_header', message: headerProblem(fields, got) };
}

/** Compares the header with the variant it is closest to (Arabic when it mentions an Arabic column). */
function headerProblem(fields: readonly string[], got: string[]): string {
  const wantsArabic = got.some((g) => g.endsWith('legalnamearabic'));
  const wantsReason = got.includes(CSV_REASON_COLUMN.toLowerCase());
  const expected: readonly string[] = wantsArabic
    ? wantsReason ? TENANT_CSV_COLUMNS_ARABIC_WITH_REASON : TENANT_CSV_COLUMNS_ARABIC
    : wantsReason ? TENANT_CSV_COLUMNS_WITH_REASON : TENANT_CSV_COLUMNS;
  const expectedLower = expected.map((c) => c.toLowerCase());
  const missing = expected.filter((c) => !got.includes(c.toLowerCase()));
  const unexpected = fields.filter((f, i) => !expectedLower.includes(got[i])).map((f) => f.replace(BOM, '').trim());
  const parts: string[] = [];
  if (missing.length) parts.push(`missing column(s): ${missing.join(', ')}`);
  if (unexpected.length) parts.push(`unexpected column(s): ${unexpected.map((u) => JSON.stringify(u)).join(', ')}`);
  if (!parts.length) parts.push('the columns are out of order');
  return (
    `The header row is not a Tenant CSV header: ${parts.join('; ')}. ` +
    `Send this header row, in this order: ${TENANT_CSV_COLUMNS.join(',')} ` +
    `(or, with Arabic names: ${TENANT_CSV_COLUMNS_ARABIC.join(',')}); ` +
    `either may add the optional reasonCode column right after referencedInvoiceNumber.`
  );
}

/** One record as read: the row it starts on and its cells by column (trimmed; '' when empty). */
interface CsvRow {
  row: number;
  cells: Partial<Record<TenantCsvColumn, string>>;
}

/** An invoice being collected: its first row carries the invoice-level values every later row must repeat. */
interface Group {
  number: string;
  /** The first mappable row, whole: the invoice-level values (later rows keep only their line cells). */
  first: CsvRow | null;
  /** Lines mapped as their rows arrive, and the row of each: lines[i] came from lineRows[i]. */
  lines: TenantLine[];
  lineRows: number[];
  /** Every row that named this number, including rows too broken to map: what the report lists. */
  rowNumbers: number[];
  /** Set by any row error of the invoice: it is then left out whole (never imported with a line missing). */
  failed: boolean;
}

/** A number in the plain form people type: digits with an optional decimal point; no exponent, no separators. */
const NUMBER_PATTERN = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Lines of a JSON path the way locate() reads them: `lines[1].unitPrice` or `lines.1.unitPrice`. */
const LINE_PATH = /^lines(?:\[(\d+)\]|\.(\d+))(?:\.(.+))?$/;

/** Invoice-level fields of the input and the column each came from. */
const INVOICE_PATHS: Readonly<Record<string, TenantCsvColumn>> = {
  number: 'number',
  issueDate: 'issueDate',
  dueDate: 'dueDate',
  invoiceType: 'invoiceType',
  currency: 'currency',
  referencedInvoiceNumber: 'referencedInvoiceNumber',
  reasonCode: 'reasonCode',
  notes: 'notes',
  'seller.trn': 'sellerTrn',
  'seller.name': 'sellerName',
  'seller.legalNameArabic': 'sellerLegalNameArabic',
  'buyer.trn': 'buyerTrn',
  'buyer.name': 'buyerName',
  'buyer.legalNameArabic': 'buyerLegalNameArabic',
  'buyer.country': 'buyerCountry',
  'buyer.address.country': 'buyerCountry',
  'buyer.address.line1': 'buyerAddressLine1',
  'buyer.address.city': 'buyerCity',
};

/** Line fields of the input and the column each came from. */
const LINE_PATHS: Readonly<Record<string, TenantCsvColumn>> = {
  description: 'lineDescription',
  quantity: 'lineQty',
  unit: 'lineUnit',
  unitPrice: 'lineUnitPrice',
  vatRate: 'lineVatRate',
  taxCategory: 'lineTaxCategory',
};

/**
 * Collects a Tenant CSV one record at a time: header() first, then add() for each record, then finish().
 * Memory grows with the invoices kept, never with the raw text, so a caller can stream the file through it.
 */
export class TenantCsvCollector {
  private columns: readonly TenantCsvColumn[] | null = null;
  private readonly groups = new Map<string, Group>();
  private readonly errors: RowError[] = [];

  constructor(private readonly maxInvoices = TENANT_CSV_MAX_INVOICES) {}

  /** Reads the header record (row 1). Returns the error when it is not a Tenant CSV header (stop reading). */
  header(fields: readonly string[]): RowError | null {
    const header = readTenantCsvHeader(fields);
    if ('code' in header) {
      this.errors.push(header);
      return header;
    }
    this.columns = header.columns;
    return null;
  }

  /** The header variant once header() accepted it. */
  get variant(): TenantCsvHeader['variant'] | null {
    if (!this.columns) return null;
    return this.columns.includes('sellerLegalNameArabic') ? 'arabic' : 'plain';
  }

  /** Invoices seen so far (distinct numbers). */
  get invoiceCount(): number {
    return this.groups.size;
  }

  /**
   * Adds one record that starts on CSV line `row`. A bad row becomes a RowError and fails its invoice; it never
   * throws. Returns 'invoice_limit' when the record opens invoice number maxInvoices + 1: nothing is added and
   * the caller should stop reading and refuse the file.
   */
  add(fields: readonly string[], row: number): AddResult {
    const columns = this.columns;
    if (!columns) throw new Error('TenantCsvCollector.add before an accepted header');
    const number = (fields[0] ?? '').trim();
    if (number && !this.groups.has(number) && this.groups.size >= this.maxInvoices) return 'invoice_limit';
    if (fields.length !== columns.length) {
      if (number) this.groupOf(number).rowNumbers.push(row);
      this.rowError(row, number || null, null, 'invalid_column_count', `This row has ${fields.length} cells; the header has ${columns.length}. Put a comma between every column, leaving empty cells empty, and quote cells that contain commas.`);
      return 'ok';
    }
    if (!number) {
      this.rowError(row, null, 'number', 'missing_value', 'The number column is empty; every row needs the number of the invoice it belongs to.');
      return 'ok';
    }
    const cells: CsvRow['cells'] = {};
    columns.forEach((c, i) => (cells[c] = fields[i].trim()));
    this.addToGroup(number, { row, cells });
    return 'ok';
  }

  /** Puts a row into its invoice's group: the first row opens it, later rows must repeat its invoice-level values. */
  private addToGroup(number: string, csvRow: CsvRow): void {
    const group = this.groupOf(number);
    if (group.first) this.checkAgreement(group.first, group, csvRow);
    else group.first = csvRow;
    group.rowNumbers.push(csvRow.row);
    this.checkNumbers(group, csvRow);
    // Mapped now so only the first row's cells are kept per invoice: memory follows the lines, not the text.
    group.lines.push(toLine(csvRow.cells));
    group.lineRows.push(csvRow.row);
  }

  /** The group of a number, opened on first sight (so it counts towards the limit even when its row is bad). */
  private groupOf(number: string): Group {
    let group = this.groups.get(number);
    if (!group) {
      group = { number, first: null, lines: [], lineRows: [], rowNumbers: [], failed: false };
      this.groups.set(number, group);
    }
    return group;
  }

  /** A later row of an invoice that says something else for an invoice-level column is ambiguous: an error. */
  private checkAgreement(first: CsvRow, group: Group, csvRow: CsvRow): void {
    for (const c of this.columns ?? []) {
      if (LINE_COLUMNS.has(c) || first.cells[c] === csvRow.cells[c]) continue;
      this.rowError(csvRow.row, group.number, c, 'inconsistent_invoice_column', `${c} is ${JSON.stringify(csvRow.cells[c])} here but ${JSON.stringify(first.cells[c])} on row ${first.row}, the first row of invoice ${group.number}. Every row of one invoice repeats the same invoice-level values; only the line columns differ.`);
      group.failed = true;
    }
  }

  /** Numeric cells must be plain numbers; a bad one fails the invoice (an invoice missing a line is wrong). */
  private checkNumbers(group: Group, csvRow: CsvRow): void {
    for (const c of NUMERIC_COLUMNS) {
      const v = csvRow.cells[c];
      if (!v || NUMBER_PATTERN.test(v)) continue;
      this.rowError(csvRow.row, group.number, c, 'invalid_number', `${c} is ${JSON.stringify(v)}, not a number. Write a plain number with a dot for decimals and no thousands separators or symbols, e.g. 1250.50${c === 'lineVatRate' ? ' (a fraction: 0.05 is 5 %)' : ''}.`);
      group.failed = true;
    }
  }

  /** Records a row error; when the row belongs to a known invoice, that invoice is not imported. */
  private rowError(row: number, invoiceNumber: string | null, column: string | null, code: string, message: string): void {
    this.errors.push({ row, invoiceNumber, column, code, message });
    const group = invoiceNumber === null ? undefined : this.groups.get(invoiceNumber);
    if (group) group.failed = true;
  }

  /**
   * Records an error the caller found while reading the bytes (a broken quote, say) at `row`. With an invoice
   * number (the caller's best reading of the first cell) that invoice fails; without one no invoice can be blamed.
   */
  addRowError(error: RowError): void {
    // Opening the group even on first sight keeps later rows of that invoice from being imported without it.
    if (error.invoiceNumber) this.groupOf(error.invoiceNumber).rowNumbers.push(error.row);
    this.rowError(error.row, error.invoiceNumber, error.column, error.code, error.message);
  }

  /** The groups, mapped: clean ones become invoices, failed ones are listed as rejected. Errors in row order. */
  finish(): TenantCsvResult {
    const invoices: TenantCsvInvoice[] = [];
    const rejected: TenantCsvResult['rejected'] = [];
    for (const g of this.groups.values()) {
      const rows = [...g.rowNumbers].sort((a, b) => a - b);
      if (g.failed || !g.first) rejected.push({ number: g.number, rows });
      else invoices.push({ number: g.number, rows, input: toInvoiceInput(g.number, g.first, g.lines) });
    }
    const rowErrors = [...this.errors].sort((a, b) => a.row - b.row);
    return { invoices, rejected, rowErrors };
  }

  /** Rows of one invoice, in file order (undefined for a number the file does not have). */
  rowsOf(number: string): number[] | undefined {
    const rows = this.groups.get(number)?.rowNumbers;
    return rows && [...rows].sort((a, b) => a - b);
  }

  /**
   * The (row, column) a JSON path of an invoice's input came from: `lines[1].unitPrice` is the second row of
   * that invoice, column lineUnitPrice; `buyer.trn` is its first row, column buyerTrn. A path no single cell
   * holds (`lines`, `seller.country`) gives the first row (or the line's row) and column null. Undefined for an
   * unknown number or a line index the invoice does not have.
   */
  locate(number: string, path: string): CsvLocation | undefined {
    const group = this.groups.get(number);
    if (!group?.first) return undefined;
    const p = path.replace(/^\$\.?/, '');
    const line = LINE_PATH.exec(p);
    if (line) {
      const row = group.lineRows[Number(line[1] ?? line[2])];
      if (row === undefined) return undefined;
      return { row, column: (line[3] && LINE_PATHS[line[3]]) || null };
    }
    return { row: group.first.row, column: INVOICE_PATHS[p] ?? null };
  }
}

/** Maps one group to the standard input shape; empty cells become absent fields. */
function toInvoiceInput(number: string, firstRow: CsvRow, lines: TenantLine[]): TenantInvoiceInput {
  const first = firstRow.cells;
  const note = first.invoiceType === 'credit_note' || first.invoiceType === 'debit_note';
  const input = compact({
    number,
    issueDate: first.issueDate,
    dueDate: first.dueDate,
    invoiceType: first.invoiceType as TenantInvoiceType | undefined,
    currency: first.currency as 'AED' | undefined,
    seller: compact({ trn: first.sellerTrn, name: first.sellerName, legalNameArabic: first.sellerLegalNameArabic }),
    buyer: toBuyer(first),
    lines,
    referencedInvoiceNumber: first.referencedInvoiceNumber,
    reasonCode: first.reasonCode || (note ? DEFAULT_CSV_REASON_CODE : undefined),
    notes: first.notes,
  });
  // Required fields may be absent (empty cells); readTenantInvoice reports them with their paths.
  return input as unknown as TenantInvoiceInput;
}

/** The buyer: trn omitted when empty (B2C); the address only when one of its cells has a value. */
function toBuyer(cells: CsvRow['cells']): Record<string, unknown> {
  const address = compact({ line1: cells.buyerAddressLine1, city: cells.buyerCity, country: cells.buyerCountry });
  return compact({
    name: cells.buyerName,
    legalNameArabic: cells.buyerLegalNameArabic,
    trn: cells.buyerTrn,
    country: cells.buyerCountry,
    address: Object.keys(address).length ? address : undefined,
  });
}

/** One line; numeric cells were checked by add(), so Number() is exact about what the tenant wrote. */
function toLine(cells: CsvRow['cells']): TenantLine {
  const num = (v: string | undefined) => (v ? Number(v) : undefined);
  return compact({
    description: cells.lineDescription,
    quantity: num(cells.lineQty),
    unit: cells.lineUnit,
    unitPrice: num(cells.lineUnitPrice),
    vatRate: num(cells.lineVatRate),
    taxCategory: cells.lineTaxCategory as TenantTaxCategory | undefined,
  }) as unknown as TenantLine;
}

/** Drops undefined and '' values: an empty cell means the field is absent, never an empty string. */
function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== '') out[k] = v;
  return out as Partial<T>;
}
