import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { AddressInfo } from 'node:net';
import { ServiceError } from '../../src/domain/errors';
import { readCsvUpload, CSV_UPLOAD_LIMITS, type CsvUploadLimits } from '../../src/http/csv-upload';
import { tenantCsv, tenantCsvLines, csvRowOf } from '../helpers/tenant-csv';

// readCsvUpload on a tiny real server over a real socket: the answer is the upload as JSON, or the refusal's
// status and code. `?maxBytes=&maxInvoices=` lower the limits so the boundaries are cheap to test.
interface Seen {
  /** Bytes the server had read from the socket when it answered. */
  bytesReadAtAnswer: number;
  status: number;
}

/** The status and JSON body of an HTTP/1.1 response once all of it (by Content-Length) is in `raw`, else null. */
function readHttpResponse(raw: Buffer): { status: number; body: any } | null {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) return null;
  const head = raw.subarray(0, split).toString();
  const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
  const body = raw.subarray(split + 4);
  if (body.length < length) return null;
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body.subarray(0, length).toString()) };
}

/**
 * Samples live memory (heap and Buffers, each after a full GC) until stop(), which returns the peak growth over
 * the starting point. GC before each sample makes garbage not count: only what is still held.
 */
function livePeak(): { stop(): number } {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const live = () => {
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const base = live();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, live())), 20);
  return {
    stop() {
      clearInterval(timer);
      return peak - base;
    },
  };
}

describe('CSV upload: multipart streaming, limits, options', () => {
  let server: http.Server;
  let base: string;
  let port: number;
  const seen: Seen[] = [];

  before(async () => {
    server = http.createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const limits: CsvUploadLimits = {
        maxBytes: Number(url.searchParams.get('maxBytes') ?? CSV_UPLOAD_LIMITS.maxBytes),
        maxInvoices: Number(url.searchParams.get('maxInvoices') ?? CSV_UPLOAD_LIMITS.maxInvoices),
      };
      let status = 200;
      let body: unknown;
      try {
        const upload = await readCsvUpload(req, limits);
        body = {
          options: upload.options,
          variant: upload.variant,
          bytes: upload.bytes,
          invoices: upload.invoices.map((i) => ({ number: i.number, rows: i.rows, lines: i.input.lines.length, buyer: i.input.buyer })),
          rejected: upload.rejected,
          rowErrors: upload.rowErrors,
          located: upload.invoices[0] && upload.locate(upload.invoices[0].number, 'lines[1].unitPrice'),
        };
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        status = e.status;
        body = { code: e.code, humanMessage: e.detail, meta: e.meta };
      }
      seen.push({ bytesReadAtAnswer: req.socket.bytesRead, status });
      const json = JSON.stringify(body);
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) }).end(json);
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  after(() => server.close());

  /** A multipart POST through fetch: parts in the order given. */
  async function post(parts: Array<[string, string | Blob]>, query = ''): Promise<{ status: number; body: any }> {
    const form = new FormData();
    for (const [name, value] of parts) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, value, 'invoices.csv');
    }
    const res = await fetch(`${base}/v1/invoices/bulk${query}`, { method: 'POST', body: form });
    return { status: res.status, body: await res.json() };
  }
  const csvBlob = (text: string) => new Blob([text], { type: 'text/csv' });

  it('reads a good file: invoices grouped, options, rows located', async () => {
    const res = await post([
      ['options', JSON.stringify({ mode: 'sandbox', skipErrors: true })],
      ['file', csvBlob(tenantCsv(5, 2, { arabic: true, bom: true, eol: '\r\n' }))],
    ]);
    expect(res.status).to.equal(200);
    expect(res.body.options).to.deep.equal({ mode: 'sandbox', skipErrors: true });
    expect(res.body.variant).to.equal('arabic');
    expect(res.body.invoices).to.have.length(5);
    expect(res.body.invoices[4]).to.deep.include({ number: 'CSV-00005', rows: [10, 11], lines: 2 });
    expect(res.body.invoices[4].buyer.legalNameArabic).to.equal('شركة المشتري 5');
    expect(res.body.rowErrors).to.deep.equal([]);
    expect(res.body.located).to.deep.equal({ row: 3, column: 'lineUnitPrice' });
  });

  it('takes the options part after the file part, and defaults without one', async () => {
    const after = await post([
      ['file', csvBlob(tenantCsv(1, 1))],
      ['options', '{"mode":"live","skipErrors":false}'],
    ]);
    expect(after.status).to.equal(200);
    expect(after.body.options).to.deep.equal({ mode: 'live', skipErrors: false });
    const none = await post([['file', csvBlob(tenantCsv(1, 1))]]);
    expect(none.status).to.equal(200);
    expect(none.body.options).to.deep.equal({ skipErrors: false });
  });

  it('reports bad rows without refusing the file', async () => {
    const text = tenantCsv(3, 2, { badRows: [{ invoice: 1, line: 1, column: 'lineQty', value: 'x' }] }) + 'CSV-00003,"broken"quote\n';
    const res = await post([['file', csvBlob(text)]]);
    expect(res.status).to.equal(200);
    expect(res.body.invoices.map((i: { number: string }) => i.number)).to.deep.equal(['CSV-00001']);
    expect(res.body.rejected).to.deep.equal([
      { number: 'CSV-00002', rows: [4, 5] },
      { number: 'CSV-00003', rows: [6, 7, 8] },
    ]);
    expect(res.body.rowErrors).to.have.length(2);
    expect(res.body.rowErrors[0]).to.deep.include({ row: csvRowOf(1, 1, 2), invoiceNumber: 'CSV-00002', column: 'lineQty', code: 'invalid_number' });
    expect(res.body.rowErrors[1]).to.deep.include({ row: 8, invoiceNumber: 'CSV-00003', column: null, code: 'invalid_csv' });
  });

  it('400 invalid_body for bad options JSON, an unknown key or a bad mode, before or after the file', async () => {
    for (const [options, words] of [
      ['{"mode":', 'not valid JSON'],
      ['{"mode":"sandbox","dryRun":true}', 'dryRun'],
      ['{"mode":"production"}', 'test, sandbox, live'],
      ['{"skipErrors":"yes"}', 'skipErrors'],
      ['[]', 'JSON object'],
    ]) {
      for (const order of ['before', 'after']) {
        const file: [string, Blob] = ['file', csvBlob(tenantCsv(2, 1))];
        const opts: [string, string] = ['options', options];
        const res = await post(order === 'before' ? [opts, file] : [file, opts]);
        expect(res.status, `${options} ${order}`).to.equal(400);
        expect(res.body.code).to.equal('invalid_body');
        expect(res.body.humanMessage).to.contain(words);
      }
    }
  });

  it('400 invalid_body naming file when there is no file part, or an unexpected part', async () => {
    const none = await post([['options', '{"mode":"sandbox"}']]);
    expect(none.status).to.equal(400);
    expect(none.body.code).to.equal('invalid_body');
    expect(none.body.humanMessage).to.contain('part named file');
    const wrongName = await post([['csv', csvBlob(tenantCsv(1, 1))]]);
    expect(wrongName.status).to.equal(400);
    expect(wrongName.body.humanMessage).to.contain('"csv"');
    const asText = await post([['file', tenantCsv(1, 1)]]);
    expect(asText.status).to.equal(400);
    expect(asText.body.humanMessage).to.contain('as a file part');
    const noBoundary = await fetch(`${base}/v1/invoices/bulk`, { method: 'POST', headers: { 'Content-Type': 'multipart/form-data' }, body: 'x' });
    expect(noBoundary.status).to.equal(400);
    expect(((await noBoundary.json()) as any).code).to.equal('invalid_body');
  });

  it('400 invalid_body for a header that is not a Tenant CSV header, an empty file, or a header only', async () => {
    const bad = await post([['file', csvBlob('number,date,total\nINV-1,2025-01-15,100\n')]]);
    expect(bad.status).to.equal(400);
    expect(bad.body.humanMessage).to.contain('missing column(s)');
    expect(bad.body.meta.rowErrors[0]).to.include({ row: 1, code: 'invalid_header' });
    expect((await post([['file', csvBlob('')]])).body.humanMessage).to.contain('empty');
    expect((await post([['file', csvBlob(tenantCsv(0, 1))]])).body.humanMessage).to.contain('no invoice rows');
  });

  it('415 unsupported_media_type when the body is not multipart', async () => {
    const res = await fetch(`${base}/v1/invoices/bulk`, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: tenantCsv(1, 1) });
    expect(res.status).to.equal(415);
    expect(((await res.json()) as any).code).to.equal('unsupported_media_type');
  });

  it('413 bulk_payload_too_large for 1,001 invoices, and 1,000 are fine', async () => {
    const over = await post([['file', csvBlob(tenantCsv(1001, 1))]]);
    expect(over.status).to.equal(413);
    expect(over.body.code).to.equal('bulk_payload_too_large');
    expect(over.body.humanMessage).to.contain('more than 1000 invoices').and.contain('Split');
    const limit = await post([['file', csvBlob(tenantCsv(1000, 1))]]);
    expect(limit.status).to.equal(200);
    expect(limit.body.invoices).to.have.length(1000);
  });

  it('accepts exactly maxBytes and refuses one byte more', async () => {
    const text = tenantCsv(3, 1);
    const size = Buffer.byteLength(text);
    expect((await post([['file', csvBlob(text)]], `?maxBytes=${size}`)).status).to.equal(200);
    const over = await post([['file', csvBlob(text)]], `?maxBytes=${size - 1}`);
    expect(over.status).to.equal(413);
    expect(over.body.humanMessage).to.contain(`larger than ${size - 1} bytes`);
  });

  it('413 for a 6 MB file sent with fetch', async () => {
    // About 30,000 lines of 200 invoices: under the invoice limit, over the size limit.
    const text = tenantCsv(200, 150);
    expect(Buffer.byteLength(text)).to.be.greaterThan(5 * 1024 * 1024);
    const res = await post([['file', csvBlob(text)]]);
    expect(res.status).to.equal(413);
    expect(res.body.humanMessage).to.contain('larger than 5 MB');
  });

  it('answers 413 while a 20 MB upload is still being sent, reading little more than 5 MB and holding none of it', async () => {
    const total = 20 * 1024 * 1024;
    const boundary = '----csvtest' + Date.now();
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="options"\r\n\r\n{"skipErrors":true}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    seen.length = 0;
    const memory = livePeak();
    // A raw socket rather than http.request: Node's client stops draining its request once the response has
    // ended, and this test wants to see the server keep discarding the rest of the upload.
    const result = await new Promise<{ status: number; body: any; writtenAtResponse: number; written: number }>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let written = 0;
      let writtenAtResponse = -1;
      let received = Buffer.alloc(0);
      let answer: { status: number; body: any } | null = null;
      let uploaded = false;
      const done = () => answer && uploaded && (socket.end(), resolve({ ...answer, writtenAtResponse, written }));
      socket.on('error', reject);
      socket.on('data', (c: Buffer) => {
        if (writtenAtResponse < 0) writtenAtResponse = written;
        received = Buffer.concat([received, c]);
        answer = readHttpResponse(received);
        done();
      });
      // Generated lazily and written with backpressure: the client never holds the body either. The upload goes
      // on after the answer, to the end: the server must keep discarding it without holding it.
      const lines = tenantCsvLines(200, 1_000_000, { arabic: true });
      const pump = () => {
        while (written < total) {
          let chunk = '';
          while (chunk.length < 64 * 1024) chunk += lines.next().value;
          const buf = Buffer.from(chunk).subarray(0, total - written);
          written += buf.length;
          if (!socket.write(buf)) return void socket.once('drain', pump);
        }
        socket.write(tail, () => {
          uploaded = true;
          done();
        });
      };
      socket.write(`POST /v1/invoices/bulk HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + total + tail.length}\r\n\r\n`);
      socket.write(head);
      pump();
    });
    const peak = memory.stop();
    expect(result.status).to.equal(413);
    expect(result.body.code).to.equal('bulk_payload_too_large');
    expect(result.writtenAtResponse, 'the answer came while the upload was still going').to.be.within(0, total / 2);
    expect(result.written).to.equal(total);
    // The server stopped parsing at the limit: what it had read when it answered is the limit plus buffers.
    expect(seen[0].status).to.equal(413);
    expect(seen[0].bytesReadAtAnswer).to.be.within(5 * 1024 * 1024, 7 * 1024 * 1024);
    // Live memory (after GC) never grew by anything like the body: the parsed invoices of 5 MB, not 20 MB of text.
    expect(peak).to.be.lessThan(15 * 1024 * 1024);
  });

  it('keeps serving after a refusal', async () => {
    await post([['file', csvBlob(tenantCsv(1001, 1))]]);
    const res = await post([['file', csvBlob(tenantCsv(2, 2))]]);
    expect(res.status).to.equal(200);
  });
});
