import { createHash } from 'node:crypto';
// POST /v1/invoices/bulk (SPEC 4.2): reads a multipart/form-data upload as it streams. The `file` part goes
// byte by byte through csv-parse into the pure TenantCsvCollector (src/domain/tenant-csv.ts); the `options`
// part is a small JSON object. The SPEC 8 limits (5 MB, 1,000 invoices) are enforced while streaming: on the
// first byte or invoice too many we stop parsing, discard the rest of the body and refuse with 413, so the
// server answers while the client is still uploading and never holds the whole body.
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { parse, type CsvError, type Info } from 'csv-parse';
import { ServiceError } from '../domain/errors';
import { TENANT_MODES, type TenantMode } from '../domain/tenant-invoice-types';
import {
  TENANT_CSV_MAX_INVOICES,
  TenantCsvCollector,
  type CsvLocation,
  type RowError,
  type TenantCsvHeader,
  type TenantCsvResult,
} from '../domain/tenant-csv';

export interface CsvUploadLimits {
  /** Bytes of the file part (SPEC 8: 5 MB). Exactly maxBytes is accepted, one more is refused. */
  maxBytes: number;
  /** Distinct invoice numbers (SPEC 8: 1,000). */
  maxInvoices: number;
}

export const CSV_UPLOAD_LIMITS: CsvUploadLimits = { maxBytes: 5 * 1024 * 1024, maxInvoices: TENANT_CSV_MAX_INVOICES };

/** The `options` part. It may be left out: then mode is absent (the tenant's default) and skipErrors false. */
export interface CsvUploadOptions {
  mode?: TenantMode;
  skipErrors: boolean;
}

/** A read upload: the options, the invoices grouped and mapped, the per-row report so far, and where things came from. */
export interface CsvUpload extends TenantCsvResult {
  options: CsvUploadOptions;
  variant: TenantCsvHeader['variant'];
  /** Bytes of the file part. */
  bytes: number;
  /** SHA-256 (hex) of the file part's bytes, hashed as they stream: the same file gives the same value whatever the multipart envelope. */
  sha256: string;
  /** (row, column) of a JSON path of one invoice's input, e.g. locate('INV-1', 'lines[1].unitPrice'). */
  locate(number: string, path: string): CsvLocation | undefined;
  /** Rows of one invoice in file order. */
  rowsOf(number: string): number[] | undefined;
}

/**
 * How the file part is tokenized (RFC 4180 quoting, CRLF or LF, UTF-8). Records come as { record, info, raw }:
 * info.lines gives the row (RowCounter), raw the text of a broken record. Exported so tests parse the same way.
 */
export const CSV_PARSE_OPTIONS = {
  bom: true,
  // A row with too few or too many cells becomes a row error (invalid_column_count), not the end of the file.
  relax_column_count: true,
  skip_empty_lines: true,
  info: true,
  raw: true,
  // A broken record (a stray quote) becomes a row error (on_skip) instead of ending the whole file.
  skip_records_with_error: true,
} as const;

/** After a refusal the rest of the body is read and dropped (so the client can read our answer), up to this. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

/** The options part is a tiny JSON object; anything bigger is a mistake. */
const MAX_OPTIONS_BYTES = 16 * 1024;

/**
 * Reads a bulk CSV upload from the raw request. Rejects with ServiceError: 415 unsupported_media_type (not
 * multipart), 400 invalid_body (no `file` part, a bad or unknown `options`, an unexpected part, a header that
 * is not a Tenant CSV header, no rows, a broken multipart body), 413 bulk_payload_too_large (limits). Row-level
 * problems never reject: they are in rowErrors, and their invoices in `rejected`.
 */
export function readCsvUpload(req: IncomingMessage, limits: CsvUploadLimits = CSV_UPLOAD_LIMITS): Promise<CsvUpload> {
  return new Promise<CsvUpload>((resolve, reject) => new UploadReader(req, limits, resolve, reject).start());
}

/** The state of one upload; it settles once: fail() rejects, maybeFinish() resolves. */
class UploadReader {
  private readonly collector: TenantCsvCollector;
  private readonly rows = new RowCounter();
  /** csv-parse may report one broken record more than once; one row error per row is enough. */
  private lastBrokenRow = 0;
  private options: CsvUploadOptions = { skipErrors: false };
  private bb: busboy.Busboy | null = null;
  private parser: ReturnType<typeof parse> | null = null;
  private file: NodeJS.ReadableStream | null = null;
  private bytes = 0;
  private readonly hash = createHash('sha256');
  private busboyDone = false;
  private parserDone = false;
  private settled = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly limits: CsvUploadLimits,
    private readonly resolve: (u: CsvUpload) => void,
    private readonly reject: (e: unknown) => void,
  ) {
    this.collector = new TenantCsvCollector(limits.maxInvoices);
  }

  start(): void {
    const type = this.req.headers['content-type'] ?? '';
    if (!/^multipart\/form-data\s*(;|$)/i.test(type)) {
      return this.fail(new ServiceError(415, 'unsupported_media_type', 'Unsupported media type', `Content-Type ${type || '(none)'} is not accepted here; send multipart/form-data with a CSV part named file and an optional JSON part named options.`));
    }
    try {
      // fileSize one over the limit: busboy signals 'limit' when the count reaches it, i.e. at maxBytes + 1.
      // files and fields 1: busboy signals filesLimit / fieldsLimit on a second one (no parts limit: busboy
      // signals that one on reaching it, not on passing it).
      this.bb = busboy({ headers: this.req.headers, limits: { fileSize: this.limits.maxBytes + 1, files: 1, fields: 1, fieldSize: MAX_OPTIONS_BYTES } });
    } catch (e) {
      return this.fail(invalidBody(`The multipart body cannot be read (${(e as Error).message}); send multipart/form-data with a boundary.`));
    }
    const bb = this.bb;
    bb.on('file', (name, stream) => this.onFile(name, stream));
    bb.on('field', (name, value, info) => this.onField(name, value, info.valueTruncated));
    bb.on('filesLimit', () => this.fail(invalidBody('Send one file part named file; this upload has more.')));
    bb.on('fieldsLimit', () => this.fail(invalidBody('Send one options part; this upload has more fields.')));
    bb.on('error', (e: Error) => this.fail(invalidBody(`The multipart body is malformed (${e.message}).`)));
    bb.on('close', () => {
      this.busboyDone = true;
      this.maybeFinish();
    });
    // A client that goes away mid-upload must not leave the promise pending forever.
    this.req.on('error', (e) => this.fail(invalidBody(`The upload failed (${e.message}).`)));
    this.req.on('close', () => {
      if (!this.req.complete) this.fail(invalidBody('The upload was interrupted before the body was complete.'));
    });
    this.req.pipe(bb);
  }

  /** The CSV part: streamed through csv-parse; its bytes counted by busboy's fileSize limit. */
  private onFile(name: string, stream: NodeJS.ReadableStream): void {
    // busboy destroys an unfinished part with the body's error (a form that ends without its closing boundary):
    // unheard, that error would be an uncaught exception and end the process.
    stream.on('error', (e: Error) => this.fail(invalidBody(`The multipart body is malformed (${e.message}).`)));
    if (this.settled) return void stream.resume();
    if (name !== 'file') {
      stream.resume();
      return this.fail(invalidBody(`Unexpected file part ${JSON.stringify(name)}; send the CSV in a part named file.`));
    }
    this.file = stream;
    const parser = parse({ ...CSV_PARSE_OPTIONS, on_skip: (err, raw) => this.onBrokenRecord(err, raw) });
    this.parser = parser;
    stream.on('data', (chunk: Buffer) => {
      this.bytes += chunk.length;
      this.hash.update(chunk);
    });
    stream.on('limit', () => this.fail(tooLarge(`The file is larger than ${formatBytes(this.limits.maxBytes)}, the most one bulk import reads. Split it into files of at most ${formatBytes(this.limits.maxBytes)} and ${this.limits.maxInvoices} invoices, keeping all rows of one invoice in the same file, and send them one by one.`)));
    parser.on('data', (r: { record: string[]; info: Info }) => this.onRecord(r.record, r.info));
    parser.on('error', (e: Error) => this.fail(invalidBody(`The CSV cannot be read: ${e.message}`)));
    parser.on('end', () => {
      this.parserDone = true;
      this.maybeFinish();
    });
    stream.pipe(parser);
  }

  /** One parsed record: the first is the header, every other one goes to the collector. */
  private onRecord(record: string[], info: Info): void {
    if (this.settled) return;
    const row = this.rows.rowOf(record, info.lines);
    if (this.collector.variant === null) return this.onHeader(record);
    if (this.collector.add(record, row) === 'invoice_limit') {
      this.fail(tooLarge(`The file has more than ${this.limits.maxInvoices} invoices (distinct numbers), the most one bulk import takes; invoice ${this.limits.maxInvoices + 1} starts on row ${row}. Split it into files of at most ${this.limits.maxInvoices} invoices, keeping all rows of one invoice in the same file, and send them one by one.`));
    }
  }

  /** A header that is not a Tenant CSV header makes the whole file unreadable: refuse it at once. */
  private onHeader(record: string[]): void {
    const error = this.collector.header(record);
    if (error) this.fail(invalidBody(error.message, { rowErrors: [error] }));
  }

  /** A record csv-parse could not read (a stray or unclosed quote): a row error for the row it starts on. */
  private onBrokenRecord(err: CsvError | undefined, raw: string | undefined): undefined {
    if (this.settled || !err) return;
    const row = this.rows.rowOfBroken(Number(err.lines), raw ?? '');
    if (row === this.lastBrokenRow) return;
    this.lastBrokenRow = row;
    if (this.collector.variant === null) return void this.fail(invalidBody(`The header row cannot be read: ${err.message}`));
    this.collector.addRowError({ row, invoiceNumber: firstCell(raw ?? ''), column: null, code: 'invalid_csv', message: `This row is not valid CSV (${err.message}). Quote a cell that contains commas, quotes or line breaks, and double every quote inside it ("" for ").` });
  }

  /** The options part: a JSON object with mode and skipErrors only. Checked as soon as it arrives. */
  private onField(name: string, value: string, truncated: boolean): void {
    if (this.settled) return;
    if (name === 'file') return this.fail(invalidBody('The file part arrived as a text field; send the CSV as a file part (with a filename, e.g. curl -F file=@invoices.csv).'));
    if (name !== 'options') return this.fail(invalidBody(`Unexpected part ${JSON.stringify(name)}; send a CSV part named file and an optional JSON part named options.`));
    if (truncated) return this.fail(invalidBody(`The options part is larger than ${MAX_OPTIONS_BYTES} bytes; send {"mode": "sandbox", "skipErrors": false}.`));
    try {
      this.options = readOptions(value);
    } catch (e) {
      this.fail(e);
    }
  }

  /** Done when busboy has seen the whole body and the CSV parser (if there was a file) has flushed. */
  private maybeFinish(): void {
    if (this.settled || !this.busboyDone) return;
    if (!this.file) return this.fail(invalidBody('The upload has no part named file; send the CSV in a multipart part named file.'));
    if (!this.parserDone) return;
    if (this.collector.variant === null) return this.fail(invalidBody('The file is empty; send the header row and at least one invoice row.'));
    const result = this.collector.finish();
    if (result.invoices.length + result.rejected.length === 0 && result.rowErrors.length === 0) {
      return this.fail(invalidBody('The file has a header but no invoice rows; send at least one invoice row.'));
    }
    this.settled = true;
    const collector = this.collector;
    this.resolve({
      ...result,
      options: this.options,
      variant: collector.variant ?? 'plain',
      bytes: this.bytes,
      sha256: this.hash.digest('hex'),
      locate: (number, path) => collector.locate(number, path),
      rowsOf: (number) => collector.rowsOf(number),
    });
  }

  /** Refuses once: stops parsing, discards the rest of the body so the answer can be written and read. */
  private fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.stopReading();
    this.reject(error);
  }

  /**
   * Stops every consumer and drops the rest of the body as it arrives (bounded memory). Dropping rather than
   * closing the socket matters: closing with unread data makes TCP reset the connection, and the client may
   * then never see the 413. Past MAX_DISCARD_BYTES the connection is cut anyway.
   */
  private stopReading(): void {
    const { req, bb, parser, file } = this;
    if (bb) {
      req.unpipe(bb);
      bb.removeAllListeners('file').removeAllListeners('field');
      bb.on('error', () => undefined);
    }
    if (file && parser) file.unpipe(parser);
    file?.resume();
    parser?.destroy();
    let discarded = 0;
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARD_BYTES) req.destroy();
    });
    req.resume();
  }
}

/**
 * The CSV line a record starts on (the header is row 1), from csv-parse's running line count. csv-parse counts
 * a CRLF inside a quoted cell as two lines (one outside quotes as one), so the extra ones are subtracted.
 */
export class RowCounter {
  /** CRLFs seen inside cells so far: csv-parse's count is ahead of the real line number by this much. */
  private crlfInCells = 0;

  /** `lines` is info.lines when the record was emitted: the (csv-parse) line the record ends on. */
  rowOf(record: readonly string[], lines: number): number {
    let breaks = 0;
    for (const cell of record) {
      // Most cells have no line break: skip the regexes for them.
      if (!cell.includes('\n') && !cell.includes('\r')) continue;
      breaks += count(cell, /\r\n|\r|\n/g);
      this.crlfInCells += count(cell, /\r\n/g);
    }
    return lines - this.crlfInCells - breaks;
  }

  /** A skipped record: `lines` is where csv-parse gave up, `raw` the text read from the record's start until then. */
  rowOfBroken(lines: number, raw: string): number {
    const text = raw.replace(/^[\r\n]+/, '').replace(/[\r\n]+$/, '');
    return Math.max(1, lines - this.crlfInCells - count(text, /\r\n|\r|\n/g));
  }
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** The invoice number a broken record most likely belongs to: its first cell, when that reads plainly. */
function firstCell(raw: string): string | null {
  const text = raw.replace(/^[\r\n]+/, '');
  const m = text.startsWith('"') ? /^"([^"\r\n]*)"/.exec(text) : /^([^,\r\n"]*)/.exec(text);
  const value = m?.[1].trim() ?? '';
  return value && value.length <= 64 ? value : null;
}

const OPTION_KEYS = new Set(['mode', 'skipErrors']);

/** Parses and checks the options part; every problem is 400 invalid_body saying what to send. */
export function readOptions(text: string): CsvUploadOptions {
  const example = 'send {"mode": "sandbox", "skipErrors": false} (mode one of test, sandbox, live; skipErrors true or false)';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidBody(`The options part is not valid JSON; ${example}.`, { part: 'options' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidBody(`The options part must be a JSON object; ${example}.`, { part: 'options' });
  const o = value as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !OPTION_KEYS.has(k));
  if (unknown.length) throw invalidBody(`Unknown key(s) in options: ${unknown.join(', ')}; ${example}.`, { part: 'options', unknownKeys: unknown });
  if (o.mode !== undefined && !(TENANT_MODES as readonly unknown[]).includes(o.mode)) throw invalidBody(`options.mode must be one of ${TENANT_MODES.join(', ')}.`, { part: 'options', path: 'mode' });
  if (o.skipErrors !== undefined && typeof o.skipErrors !== 'boolean') throw invalidBody('options.skipErrors must be true or false.', { part: 'options', path: 'skipErrors' });
  return { ...(o.mode !== undefined ? { mode: o.mode as TenantMode } : {}), skipErrors: o.skipErrors === true };
}

function invalidBody(detail: string, meta?: Record<string, unknown>): ServiceError {
  return new ServiceError(400, 'invalid_body', 'Invalid request body', detail, meta);
}

function tooLarge(detail: string): ServiceError {
  return new ServiceError(413, 'bulk_payload_too_large', 'Bulk payload too large', detail);
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}

export type { RowError };
