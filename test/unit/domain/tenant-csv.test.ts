import { expect } from 'chai';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { CSV_PARSE_OPTIONS, RowCounter } from '../../../src/http/csv-upload';
import {
  readTenantCsvHeader,
  TENANT_CSV_COLUMNS,
  TENANT_CSV_COLUMNS_ARABIC,
  TenantCsvCollector,
  type TenantCsvResult,
} from '../../../src/domain/tenant-csv';
import { CSV_SELLER_TRN, csvBuyerTrn, csvCell, csvRowOf, tenantCsv } from '../../helpers/tenant-csv';

/**
 * Parses text the way csv-upload.ts does (same csv-parse options, same row numbering), in chunks of `chunk`
 * bytes so multi-byte characters and CRLFs split across chunks, and feeds the collector.
 */
async function collect(text: string, chunk = 7): Promise<{ result: TenantCsvResult; collector: TenantCsvCollector; headerError: unknown }> {
  const collector = new TenantCsvCollector();
  const rows = new RowCounter();
  let headerError: unknown = null;
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
  const parser = Readable.from(chunks).pipe(
    parse(CSV_PARSE_OPTIONS),
  );
  for await (const { record, info } of parser) {
    if (collector.variant === null && !headerError) headerError = collector.header(record);
    else collector.add(record, rows.rowOf(record, info.lines));
  }
  return { result: collector.finish(), collector, headerError };
}

/** A row of the plain variant from a few overrides of a valid row. */
function row(over: Partial<Record<(typeof TENANT_CSV_COLUMNS)[number], string>> = {}): string[] {
  const base: Record<string, string> = {
    number: 'INV-1',
    issueDate: '2025-01-15',
    dueDate: '',
    invoiceType: 'sale',
    currency: 'AED',
    sellerTrn: CSV_SELLER_TRN,
    sellerName: 'Seller LLC',
    buyerTrn: '100000000000203',
    buyerName: 'Buyer LLC',
    buyerCountry: 'AE',
    buyerAddressLine1: 'Office 1',
    buyerCity: 'Dubai',
    lineDescription: 'Widget',
    lineQty: '2',
    lineUnit: 'EA',
    lineUnitPrice: '10.50',
    lineVatRate: '0.05',
    lineTaxCategory: 'standard_5',
    referencedInvoiceNumber: '',
    notes: '',
    ...over,
  };
  return TENANT_CSV_COLUMNS.map((c) => base[c]);
}

const csv = (...rows: string[][]) => [TENANT_CSV_COLUMNS.join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\n') + '\n';

describe('Tenant CSV: header', () => {
  it('accepts both variants, case-insensitively, trimmed, with a BOM', () => {
    expect(readTenantCsvHeader([...TENANT_CSV_COLUMNS])).to.deep.include({ variant: 'plain' });
    expect(readTenantCsvHeader([...TENANT_CSV_COLUMNS_ARABIC])).to.deep.include({ variant: 'arabic' });
    const shouty = TENANT_CSV_COLUMNS.map((c, i) => (i === 0 ? `\uFEFF ${c.toUpperCase()} ` : ` ${c.toLowerCase()}`));
    expect(readTenantCsvHeader(shouty)).to.deep.include({ variant: 'plain' });
  });

  it('refuses anything else with one error naming missing and unexpected columns and the header to send', () => {
    const cols = TENANT_CSV_COLUMNS.filter((c) => c !== 'buyerCity').map((c) => (c === 'notes' ? 'comment' : c));
    const err = readTenantCsvHeader(cols);
    expect(err).to.include({ row: 1, code: 'invalid_header', column: null, invoiceNumber: null });
    const message = (err as { message: string }).message;
    expect(message).to.contain('missing column(s): buyerCity, notes');
    expect(message).to.contain('unexpected column(s): "comment"');
    expect(message).to.contain(TENANT_CSV_COLUMNS.join(','));
    expect(message).to.contain(TENANT_CSV_COLUMNS_ARABIC.join(','));
  });

  it('compares a header with one Arabic column but not the other against the Arabic variant', () => {
    const cols = TENANT_CSV_COLUMNS_ARABIC.filter((c) => c !== 'buyerLegalNameArabic');
    expect((readTenantCsvHeader(cols) as { message: string }).message).to.contain('missing column(s): buyerLegalNameArabic');
  });

  it('says when the columns are all there but out of order', () => {
    const cols = [...TENANT_CSV_COLUMNS];
    [cols[0], cols[1]] = [cols[1], cols[0]];
    expect((readTenantCsvHeader(cols) as { message: string }).message).to.contain('out of order');
  });
});

describe('Tenant CSV: grouping and mapping', () => {
  it('maps a generated file to valid-looking inputs, rows by invoice', async () => {
    const { result } = await collect(tenantCsv(3, 2));
    expect(result.rowErrors).to.deep.equal([]);
    expect(result.invoices.map((i) => i.number)).to.deep.equal(['CSV-00001', 'CSV-00002', 'CSV-00003']);
    expect(result.invoices[1].rows).to.deep.equal([csvRowOf(1, 0, 2), csvRowOf(1, 1, 2)]);
    const input = result.invoices[0].input;
    expect(input).to.deep.equal({
      number: 'CSV-00001',
      issueDate: '2025-01-15',
      dueDate: '2025-02-14',
      invoiceType: 'sale',
      currency: 'AED',
      seller: { trn: CSV_SELLER_TRN, name: 'Tenant Trading LLC' },
      buyer: { name: 'Buyer 1 LLC', trn: csvBuyerTrn(0), country: 'AE', address: { line1: 'Office 1, Sheikh Zayed Road', city: 'Dubai', country: 'AE' } },
      lines: [
        { description: 'Item 1, consulting services', quantity: 1, unit: 'EA', unitPrice: 100, vatRate: 0.05, taxCategory: 'standard_5' },
        { description: 'Item 2, consulting services', quantity: 2, unit: 'C62', unitPrice: 102.5, vatRate: 0.05, taxCategory: 'standard_5' },
      ],
    });
  });

  it('reads the Arabic variant with a BOM and CRLF, Arabic text intact across chunk boundaries', async () => {
    const { result } = await collect(tenantCsv(2, 2, { arabic: true, bom: true, eol: '\r\n' }), 3);
    expect(result.rowErrors).to.deep.equal([]);
    expect(result.invoices).to.have.length(2);
    const input = result.invoices[1].input;
    expect(input.seller.legalNameArabic).to.equal('شركة المستأجر للتجارة ذ.م.م');
    expect(input.buyer.legalNameArabic).to.equal('شركة المشتري 2');
    expect(input.notes).to.equal(undefined);
    expect(result.invoices[1].rows).to.deep.equal([4, 5]);
  });

  it('omits empty cells: a B2C buyer has no trn, no address when its cells are empty', async () => {
    const { result } = await collect(csv(row({ buyerTrn: '', buyerAddressLine1: '', buyerCity: '', buyerCountry: '', lineUnit: '' })));
    const input = result.invoices[0].input;
    expect(input.buyer).to.deep.equal({ name: 'Buyer LLC' });
    expect(input.lines[0]).to.not.have.property('unit');
    expect(input).to.not.have.property('dueDate');
    expect(input).to.not.have.property('referencedInvoiceNumber');
  });

  it('keeps quoted cells with commas, quotes and line breaks, and numbers rows by the line they start on', async () => {
    const text = csv(
      row({ lineDescription: 'Desk, oak\n"large"', notes: 'Line one\r\nline two' }),
      row({ lineDescription: 'Chair', notes: 'Line one\r\nline two' }),
      row({ number: 'INV-2', lineDescription: 'Lamp' }),
    );
    const { result, collector } = await collect(text);
    expect(result.rowErrors).to.deep.equal([]);
    const [one, two] = result.invoices;
    expect(one.input.lines.map((l) => l.description)).to.deep.equal(['Desk, oak\n"large"', 'Chair']);
    expect(one.input.notes).to.equal('Line one\r\nline two');
    // Row 2 spans three lines (two breaks) and row 5 two, so the next records start on lines 5 and 7.
    expect(one.rows).to.deep.equal([2, 5]);
    expect(two.rows).to.deep.equal([7]);
    expect(collector.locate('INV-2', 'lines[0].description')).to.deep.equal({ row: 7, column: 'lineDescription' });
  });

  it('numbers rows right in a CRLF file with CRLFs inside quoted cells and empty lines', async () => {
    const text = [TENANT_CSV_COLUMNS.join(','), row({ notes: 'a\r\nb\r\nc' }).map(csvCell).join(','), '', row({ number: 'INV-2' }).join(','), row({ number: 'INV-3' }).join(',')].join('\r\n');
    const { result } = await collect(text);
    expect(result.invoices.map((i) => [i.number, i.rows])).to.deep.equal([
      ['INV-1', [2]],
      ['INV-2', [6]],
      ['INV-3', [7]],
    ]);
  });

  it('groups lines of one number even when its rows are not adjacent', async () => {
    const { result } = await collect(csv(row({ lineDescription: 'A' }), row({ number: 'INV-2' }), row({ lineDescription: 'B' })));
    expect(result.invoices.map((i) => i.number)).to.deep.equal(['INV-1', 'INV-2']);
    expect(result.invoices[0].rows).to.deep.equal([2, 4]);
    expect(result.invoices[0].input.lines.map((l) => l.description)).to.deep.equal(['A', 'B']);
  });

  it('a later row that disagrees on an invoice-level column is a row error and fails that invoice only', async () => {
    const { result } = await collect(csv(row(), row({ number: 'INV-2' }), row({ buyerName: 'Other Buyer' })));
    expect(result.rowErrors).to.have.length(1);
    expect(result.rowErrors[0]).to.include({ row: 4, invoiceNumber: 'INV-1', column: 'buyerName', code: 'inconsistent_invoice_column' });
    expect(result.rowErrors[0].message).to.contain('row 2');
    expect(result.invoices.map((i) => i.number)).to.deep.equal(['INV-2']);
    expect(result.rejected).to.deep.equal([{ number: 'INV-1', rows: [2, 4] }]);
  });

  it('a non-numeric quantity, price or rate is invalid_number on its column', async () => {
    const { result } = await collect(csv(row({ lineQty: 'two' }), row({ number: 'INV-2', lineUnitPrice: '1,250.00', lineVatRate: '5%' }), row({ number: 'INV-3', lineQty: '1e3' })));
    expect(result.rowErrors.map((e) => [e.row, e.invoiceNumber, e.column, e.code])).to.deep.equal([
      [2, 'INV-1', 'lineQty', 'invalid_number'],
      [3, 'INV-2', 'lineUnitPrice', 'invalid_number'],
      [3, 'INV-2', 'lineVatRate', 'invalid_number'],
      [4, 'INV-3', 'lineQty', 'invalid_number'],
    ]);
    expect(result.rowErrors[0].message).to.contain('"two"');
    expect(result.invoices).to.deep.equal([]);
  });

  it('accepts plain decimals and leaves an empty numeric cell absent (validation reports it)', async () => {
    const { result } = await collect(csv(row({ lineQty: '.5', lineUnitPrice: '-3.', lineVatRate: '' })));
    expect(result.rowErrors).to.deep.equal([]);
    expect(result.invoices[0].input.lines[0]).to.include({ quantity: 0.5, unitPrice: -3 }).and.not.have.property('vatRate');
  });

  it('a row with the wrong number of cells or no number is a row error', async () => {
    const short = row({ number: 'INV-2' }).slice(0, 5);
    const { result } = await collect(csv(row(), short, row({ number: '' }), row({ number: 'INV-2', lineDescription: 'ok' })));
    expect(result.rowErrors.map((e) => [e.row, e.invoiceNumber, e.column, e.code])).to.deep.equal([
      [3, 'INV-2', null, 'invalid_column_count'],
      [4, null, 'number', 'missing_value'],
    ]);
    // INV-2's good row is not imported without its broken one.
    expect(result.invoices.map((i) => i.number)).to.deep.equal(['INV-1']);
    expect(result.rejected).to.deep.equal([{ number: 'INV-2', rows: [3, 5] }]);
  });

  it('signals the invoice past the limit without adding it; more rows of known invoices are fine', () => {
    const collector = new TenantCsvCollector(2);
    expect(collector.header([...TENANT_CSV_COLUMNS])).to.equal(null);
    expect(collector.add(row({ number: 'A' }), 2)).to.equal('ok');
    expect(collector.add(row({ number: 'B' }), 3)).to.equal('ok');
    expect(collector.add(row({ number: 'A' }), 4)).to.equal('ok');
    expect(collector.add(row({ number: 'C' }), 5)).to.equal('invoice_limit');
    expect(collector.invoiceCount).to.equal(2);
  });
});

describe('Tenant CSV: locating a JSON path', () => {
  let collector: TenantCsvCollector;
  before(async () => {
    ({ collector } = await collect(tenantCsv(2, 3, { arabic: true })));
  });

  it('maps line paths to the row of that line', () => {
    expect(collector.locate('CSV-00002', 'lines[1].unitPrice')).to.deep.equal({ row: 6, column: 'lineUnitPrice' });
    expect(collector.locate('CSV-00002', 'lines.2.quantity')).to.deep.equal({ row: 7, column: 'lineQty' });
    expect(collector.locate('CSV-00001', 'lines[0].taxCategory')).to.deep.equal({ row: 2, column: 'lineTaxCategory' });
    expect(collector.locate('CSV-00001', 'lines[0].discountAmount')).to.deep.equal({ row: 2, column: null });
    expect(collector.locate('CSV-00001', 'lines[0]')).to.deep.equal({ row: 2, column: null });
  });

  it('maps invoice-level paths to the first row of the invoice', () => {
    expect(collector.locate('CSV-00002', 'buyer.trn')).to.deep.equal({ row: 5, column: 'buyerTrn' });
    expect(collector.locate('CSV-00002', 'seller.legalNameArabic')).to.deep.equal({ row: 5, column: 'sellerLegalNameArabic' });
    expect(collector.locate('CSV-00002', 'buyer.address.city')).to.deep.equal({ row: 5, column: 'buyerCity' });
    expect(collector.locate('CSV-00002', 'issueDate')).to.deep.equal({ row: 5, column: 'issueDate' });
    expect(collector.locate('CSV-00002', 'lines')).to.deep.equal({ row: 5, column: null });
    expect(collector.locate('CSV-00002', 'seller.country')).to.deep.equal({ row: 5, column: null });
  });

  it('is undefined for an unknown number or line', () => {
    expect(collector.locate('NOPE', 'buyer.trn')).to.equal(undefined);
    expect(collector.locate('CSV-00001', 'lines[3].unitPrice')).to.equal(undefined);
    expect(collector.rowsOf('CSV-00001')).to.deep.equal([2, 3, 4]);
  });
});
