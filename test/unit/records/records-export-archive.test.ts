// The pure parts of the audit export (issue 34 point 4): ustar headers, the manifest's CSV, the facts read from a
// document as sent, the period's rules.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { renderInvoice } from '@einvoice/pint-ae';
import { csvTexts, documentFacts, manifestCsvRow, parseCsv, type ManifestRow } from '../../../src/records/archive-layout';
import { resolveExportPeriod, resolveExportQuery } from '../../../src/records/export-period';
import { BLOCK, parseTarHeader, tarHeader, tarPadding } from '../../../src/records/tar';

describe('records export: ustar headers', () => {
  it('round-trips a name and size, and any changed header byte fails its checksum', () => {
    const header = tarHeader('invoices/0f8fad5b-d9cb-469f-a165-70867728950e/run-1.xml', 12345, 1_795_000_000);
    expect(header.length).to.equal(BLOCK);
    expect(parseTarHeader(header)).to.deep.equal({ kind: 'file', name: 'invoices/0f8fad5b-d9cb-469f-a165-70867728950e/run-1.xml', size: 12345 });
    for (const at of [0, 124, 130, 257]) {
      const changed = Buffer.from(header);
      changed[at] ^= 0x01;
      expect(parseTarHeader(changed).kind, `byte ${at}`).to.equal('bad');
    }
    expect(parseTarHeader(Buffer.alloc(BLOCK))).to.deep.equal({ kind: 'end' });
    expect(tarPadding(12345).length).to.equal(BLOCK - (12345 % BLOCK));
    expect(tarPadding(1024).length).to.equal(0);
  });

  it('refuses a name ustar cannot hold', () => {
    expect(() => tarHeader('x'.repeat(101), 1, 0)).to.throw(/1-100 printable ASCII/);
    expect(() => tarHeader('with space', 1, 0)).to.throw(/printable ASCII/);
  });
});

describe('records export: manifest CSV', () => {
  const row: ManifestRow = {
    number: 'INV,"7"', issueDate: '2026-07-01', documentType: 'tax_invoice', currency: 'AED', taxExclusiveAmount: '-1500.00', taxAmount: '75.00', payableAmount: '1575.00',
    status: '=HYPERLINK("x")', ackRef: null, sha256: 'a'.repeat(64), chainSeq: 7, invoiceId: 'id', run: 1, path: 'invoices/id/run-1.xml',
  };
  it('quotes commas and quotes, keeps negative amounts, defuses a formula, and parses back to the same fields', () => {
    const line = manifestCsvRow(row);
    expect(line).to.match(/^"INV,""7""",2026-07-01,tax_invoice,AED,-1500.00,75.00,1575.00,"'=HYPERLINK\(""x""\)",,a{64},7,id,1,invoices\/id\/run-1.xml\r\n$/);
    expect(parseCsv(line)[0]).to.deep.equal(csvTexts(row));
  });
});

describe('records export: facts of the document as sent', () => {
  it('reads number, issue date, currency and the document-level totals (not a line\'s TaxTotal)', () => {
    const body = JSON.parse(fs.readFileSync(path.join(__dirname, '../../fixtures/bodies/07-credit-note-01-cancellation.json'), 'utf8'));
    expect(documentFacts(renderInvoice(body))).to.deep.equal({ number: body.number, issueDate: body.issueDate, currency: 'AED', taxExclusiveAmount: '1500.00', taxAmount: '75.00', payableAmount: '1575.00' });
  });
});

describe('records export: the period', () => {
  it('takes both bounds, in order, at most 366 days; each refusal names its parameter', () => {
    expect(resolveExportPeriod({ from: '2026-01-01', to: '2026-12-31' }).value).to.deep.equal({ from: '2026-01-01', to: '2026-12-31' });
    expect(resolveExportPeriod({ from: '2024-01-01', to: '2024-12-31' }).value, 'a leap year: 366 days').to.deep.equal({ from: '2024-01-01', to: '2024-12-31' });
    const refused = (raw: Record<string, unknown>) => resolveExportQuery(raw).errors.map((e) => `${e.path}:${e.code}`);
    expect(refused({ from: '2026-01-01' })).to.deep.equal(['to:required']);
    expect(refused({ from: '2026-02-29', to: '2026-03-01' })).to.deep.equal(['from:invalid_date']);
    expect(refused({ from: '2026-03-02', to: '2026-03-01' })).to.deep.equal(['to:invalid_range']);
    expect(refused({ from: '2026-01-01', to: '2027-01-01' })).to.deep.equal([]); // 366 days
    expect(refused({ from: '2026-01-01', to: '2027-01-02' })).to.deep.equal(['to:range_too_large']);
    expect(refused({ from: '2026-01-01', to: '2026-01-02', limit: '5' })).to.deep.equal(['limit:unknown_parameter']);
    expect(refused({ from: ['2026-01-01', '2026-01-02'], to: '2026-01-02' })).to.deep.equal(['from:repeated_parameter']);
    expect(resolveExportPeriod({ to: 'x' }, { from: '--from', to: '--to' }).errors.map((e) => e.message).join(' ')).to.include('--from is required').and.include('--to must be one calendar date');
  });
});
