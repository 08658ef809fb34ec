// Generated bodies of the two routes that do not take JSON: the UBL XML of POST /v1/partner/documents/validate
// (5 MB) and the multipart CSV upload of the Tenant API's POST /v1/invoices/bulk (5 MB, 1,000 invoices).
import fc from 'fast-check';
import { csvCell, csvHeader, tenantCsv } from '../tenant-csv';
import type { HostileBody } from './json-bodies';
import { INJECTION_STRINGS } from './values';

const MB5 = 5 * 1024 * 1024;

// ---- XML ------------------------------------------------------------------------------------------------------
const UBL = '<?xml version="1.0" encoding="UTF-8"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>X</cbc:ID></Invoice>';
const LAUGHS = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;"><!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;"><!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;"><!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;"><!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;"><!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]><Invoice>&lol9;</Invoice>';
const XXE = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&e;</Invoice>';

export function hostileXmlBody(): fc.Arbitrary<HostileBody> {
  const xml = (kind: string, text: string | Buffer, contentType = 'application/xml', acceptable?: boolean): HostileBody => ({ kind, bytes: Buffer.isBuffer(text) ? text : Buffer.from(text), contentType, acceptable });
  return fc.oneof(
    { arbitrary: fc.constantFrom(
      xml('billion laughs', LAUGHS),
      xml('external entity', XXE),
      xml('valid-looking UBL', UBL),
      xml('not XML', '{"json": true}', undefined, false),
      xml('empty', '', undefined, false),
      xml('unclosed', '<Invoice><a>'),
      xml('text/xml', UBL, 'text/xml'),
      xml('json type', UBL, 'application/json', false),
      xml('invalid UTF-8', Buffer.concat([Buffer.from(UBL.slice(0, 120)), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(UBL.slice(120))])),
      xml('UTF-16 declared', '<?xml version="1.0" encoding="UTF-16"?><Invoice/>'),
    ), weight: 10 },
    { arbitrary: fc.integer({ min: 100, max: 50_000 }).map((n) => xml(`${n} nested elements`, `${'<a>'.repeat(n)}${'</a>'.repeat(n)}`)), weight: 4 },
    { arbitrary: fc.constantFrom(...INJECTION_STRINGS).map((s) => xml('injection in a value', UBL.replace('>X<', `>${s.replace(/[<&]/g, '')}<`))), weight: 4 },
    { arbitrary: fc.constant(xml(`${MB5 + 1} bytes`, `<Invoice>${'x'.repeat(MB5 + 1 - 19)}</Invoice>`, undefined, false)), weight: 1 },
  );
}

// ---- multipart CSV --------------------------------------------------------------------------------------------
const BOUNDARY = 'hostileBoundary7MA4YWxkTrZu0gW';

function part(name: string, content: string | Buffer, filename?: string, type = filename ? 'text/csv' : 'application/json'): Buffer {
  const disposition = `form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}`;
  return Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${type}\r\n\r\n`), Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from('\r\n')]);
}

/** Refused (no 2xx) unless `acceptable` says otherwise. */
function multipart(kind: string, parts: Buffer[], contentType = `multipart/form-data; boundary=${BOUNDARY}`, end = `--${BOUNDARY}--\r\n`, acceptable: boolean | 'either' = false): HostileBody {
  return { kind, bytes: Buffer.concat([...parts, Buffer.from(end)]), contentType, acceptable: acceptable === 'either' ? undefined : acceptable };
}

/** A valid CSV of `invoices` invoices whose one cell is replaced by a hostile value. */
function csvWithCell(sellerTrn: string, invoices: number, column: number, value: string): string {
  const lines = tenantCsv(invoices, 1, { sellerTrn }).split('\n');
  const cells = lines[1].split(',');
  cells[column % cells.length] = csvCell(value);
  lines[1] = cells.join(',');
  return lines.join('\n');
}

export function hostileCsvUpload(sellerTrn: string): fc.Arbitrary<HostileBody> {
  const columns = csvHeader().length;
  const options = JSON.stringify({ skipErrors: true });
  return fc.oneof(
    { arbitrary: fc.tuple(fc.nat({ max: columns - 1 }), fc.oneof(fc.constantFrom(...INJECTION_STRINGS), fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('x'.repeat(100_000), '"', '""', ',,,,', '\r', 'NaN', '1e400', '-0', ''))).map(([col, value]) =>
        multipart(`CSV cell ${col} hostile`, [part('options', options), part('file', csvWithCell(sellerTrn, 2, col, value), 'a.csv')], undefined, undefined, 'either')), weight: 12 },
    { arbitrary: fc.constantFrom('{"mode":{"$gt":""}}', '{"__proto__":{"x":1}}', '{"skipErrors":"yes"}', 'not json', '[]', '{"mode":"live","x":1}', '{'.repeat(5000)).map((o) =>
        multipart('hostile options part', [part('options', o), part('file', tenantCsv(1, 1, { sellerTrn }), 'a.csv')])), weight: 6 },
    { arbitrary: fc.constantFrom(
        multipart('no file part', [part('options', options)]),
        multipart('two file parts', [part('file', tenantCsv(1, 1, { sellerTrn }), 'a.csv'), part('file', tenantCsv(1, 1, { sellerTrn }), 'b.csv')]),
        multipart('unknown part', [part('evil', 'x'), part('file', tenantCsv(1, 1, { sellerTrn }), 'a.csv')]),
        multipart('no closing boundary', [part('file', tenantCsv(1, 1, { sellerTrn }), 'a.csv')], undefined, ''),
        multipart('wrong boundary', [part('file', tenantCsv(1, 1, { sellerTrn }), 'a.csv')], 'multipart/form-data; boundary=other'),
        multipart('no boundary', [part('file', tenantCsv(1, 1, { sellerTrn }), 'a.csv')], 'multipart/form-data'),
        multipart('header only', [part('file', `${csvHeader().join(',')}\n`, 'a.csv')]),
        multipart('not a CSV header', [part('file', 'a,b,c\n1,2,3\n', 'a.csv')]),
        multipart('binary file', [part('file', Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 10, 13]), 'a.csv')]),
        multipart('invalid UTF-8 file', [part('file', Buffer.concat([Buffer.from(tenantCsv(1, 1, { sellerTrn }).slice(0, 400)), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from('\n')]), 'a.csv')], undefined, undefined, 'either'),
        multipart('huge part header', [Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${'f'.repeat(100_000)}"\r\n\r\nx\r\n`)]),
        multipart('form-urlencoded', [], 'application/x-www-form-urlencoded', 'file=a'),
        multipart('JSON instead', [], 'application/json', '{"file":"a"}'),
      ), weight: 8 },
    { arbitrary: fc.constantFrom(
        multipart('over 5 MB', [part('file', `${csvHeader().join(',')}\n${'x,'.repeat(MB5 / 2 + 10)}\n`, 'a.csv')]),
        multipart('1,001 invoices', [part('file', tenantCsv(1001, 1, { sellerTrn }), 'a.csv')]),
      ), weight: 1 },
  );
}
