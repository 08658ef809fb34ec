// The audit export archive (issue 34 point 4) as a stream of tar blocks: documents and evidence go out as their
// page is read; the manifests, the chain segment and SHA256SUMS grow with the period, so they are spilled to a
// temporary directory while the documents stream and appended at the end (a tar header needs each file's size).
// Memory holds one page of invoices and a few small buffers, whatever the number of invoices.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { documentIdOf } from '../services/asp-evidence';
import {
  ARCHIVE_FORMAT, CHAIN_ENTRIES, CHAIN_HEAD, MANIFEST_CSV, MANIFEST_CSV_HEADER, MANIFEST_JSON, MANIFEST_JSON_CLOSING, README_PATH, SUMS,
  documentFacts, documentPath, evidencePath, manifestCsvRow, manifestJsonOpening, manifestJsonRow, readmeText, sumsLine,
  type EvidenceFile, type ManifestInfo, type ManifestRow,
} from './archive-layout';
import { chainEntries, chainHead, sourcedPages, type ExportSource, type SourcedInvoice } from './export-source';
import { TAR_END, tarHeader, tarPadding } from './tar';

export interface ExportSummary {
  documents: number;
  invoices: number;
  chainEntries: number;
  head: { seq: number | null; hash: string | null };
}

/** A file written in pieces, its sha256 kept as it grows. Buffered: one write per 64 KiB. */
class SpillFile {
  private pending: string[] = [];
  private pendingBytes = 0;
  private readonly hash = createHash('sha256');
  size = 0;
  constructor(readonly file: fs.FileHandle, readonly path: string) {}

  static async open(dir: string, name: string): Promise<SpillFile> {
    const p = path.join(dir, name);
    return new SpillFile(await fs.open(p, 'w'), p);
  }

  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.pendingBytes += text.length;
    if (this.pendingBytes >= 65_536) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.pending.length) return;
    const buf = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingBytes = 0;
    this.hash.update(buf);
    this.size += buf.length;
    await this.file.write(buf);
  }

  async close(): Promise<string> {
    await this.flush();
    await this.file.close();
    return this.hash.digest('hex');
  }
}

/**
 * The archive of `source`'s handed-over documents issued in [from, to], as tar blocks. The caller pulls (an HTTP
 * body or a file stream): nothing is read from the store faster than it is written out. `summary` is filled as
 * it goes, complete once the generator is done.
 */
export async function* exportArchive(source: ExportSource, from: string, to: string, summary: ExportSummary = newSummary()): AsyncGenerator<Buffer> {
  const generatedAt = new Date();
  const mtime = Math.floor(generatedAt.getTime() / 1000);
  const info: ManifestInfo = { format: ARCHIVE_FORMAT, trn: source.trn, from, to, scope: source.label, generatedAt: generatedAt.toISOString() };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'einvoice-records-export-'));
  const spills: SpillFile[] = [];
  const spill = async (name: string) => {
    const f = await SpillFile.open(dir, name);
    spills.push(f);
    return f;
  };
  try {
    const sums = await spill('SHA256SUMS');
    const csv = await spill('manifest.csv');
    const json = await spill('manifest.json');
    await csv.write(MANIFEST_CSV_HEADER);
    await json.write(manifestJsonOpening(info));

    // A file's header, bytes and padding. file() is synchronous: its SHA256SUMS line is kept and spilled after the page.
    let sumLines: string[] = [];
    function* file(name: string, data: Buffer, sha256 = createHash('sha256').update(data).digest('hex')): Generator<Buffer> {
      yield tarHeader(name, data.length, mtime);
      yield data;
      yield tarPadding(data.length);
      sumLines.push(sumsLine(sha256, name));
    }
    async function* spilled(name: string, f: SpillFile): AsyncGenerator<Buffer> {
      const sha256 = await f.close();
      yield tarHeader(name, f.size, mtime);
      for await (const chunk of createReadStream(f.path, { highWaterMark: 65_536 })) yield chunk as Buffer;
      yield tarPadding(f.size);
      sumLines.push(sumsLine(sha256, name));
    }
    const flushSums = async () => {
      for (const line of sumLines) await sums.write(line);
      sumLines = [];
    };

    yield* file(README_PATH, Buffer.from(readmeText(info), 'utf8'));
    let minSeq: number | null = null;
    for await (const page of sourcedPages(source, from, to)) {
      for (const inv of page) {
        for (const { path: p, bytes, row } of documentRows(inv)) {
          yield* file(p, bytes, row.sha256);
          await csv.write(manifestCsvRow(row));
          await json.write(manifestJsonRow(row, summary.documents === 0));
          summary.documents++;
        }
        yield* file(evidencePath(inv.documentType, inv._id), Buffer.from(JSON.stringify(evidenceFile(inv), null, 2) + '\n', 'utf8'));
        for (const e of inv.chain) minSeq = minSeq === null ? e.seq : Math.min(minSeq, e.seq);
        summary.invoices++;
      }
      await flushSums();
    }
    await json.write(MANIFEST_JSON_CLOSING);

    // The head after every page was read: every entry an archived evidence file names is at or before it.
    const head = await chainHead(source.trn);
    summary.head = { seq: head.seq, hash: head.hash };
    const chain = await spill('chain.jsonl');
    if (minSeq !== null && head.seq !== null) {
      for await (const entry of chainEntries(source.trn, minSeq, head.seq)) {
        await chain.write(JSON.stringify(entry) + '\n');
        summary.chainEntries++;
      }
    }
    yield* spilled(MANIFEST_CSV, csv);
    yield* spilled(MANIFEST_JSON, json);
    yield* spilled(CHAIN_ENTRIES, chain);
    yield* file(CHAIN_HEAD, Buffer.from(JSON.stringify(head, null, 2) + '\n', 'utf8'));
    await flushSums();
    // SHA256SUMS lists every other file (its own sum would be circular) and comes last.
    await sums.close();
    yield tarHeader(SUMS, sums.size, mtime);
    for await (const chunk of createReadStream(sums.path, { highWaterMark: 65_536 })) yield chunk as Buffer;
    yield tarPadding(sums.size);
    yield TAR_END;
  } finally {
    await Promise.all(spills.map((f) => f.file.close().catch(() => {})));
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export function newSummary(): ExportSummary {
  return { documents: 0, invoices: 0, chainEntries: 0, head: { seq: null, hash: null } };
}

/** One manifest row per hand-over whose XML is kept, with the document's bytes. */
function documentRows(inv: SourcedInvoice): Array<{ path: string; bytes: Buffer; row: ManifestRow }> {
  const out: Array<{ path: string; bytes: Buffer; row: ManifestRow }> = [];
  for (const sub of inv.submissions) {
    const xml = inv.xmlByRun.get(sub.run);
    if (xml === undefined) continue;
    const bytes = Buffer.from(xml, 'utf8');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const facts = documentFacts(xml);
    const entry = inv.chain.find((e) => e.kind === 'handover' && Number(e.data.run) === sub.run);
    const p = documentPath(inv.documentType, inv._id, sub.run);
    out.push({
      path: p,
      bytes,
      row: {
        number: facts.number ?? inv.number,
        issueDate: facts.issueDate ?? inv.issueDate,
        documentType: inv.documentType,
        currency: facts.currency ?? '',
        taxExclusiveAmount: facts.taxExclusiveAmount ?? '',
        taxAmount: facts.taxAmount ?? '',
        payableAmount: facts.payableAmount ?? '',
        status: inv.status,
        ackRef: sub.ackRef ?? inv.ackRef ?? null,
        sha256,
        chainSeq: entry?.seq ?? null,
        invoiceId: inv._id,
        run: sub.run,
        path: p,
      },
    });
  }
  return out;
}

function evidenceFile(inv: SourcedInvoice): EvidenceFile {
  return {
    invoiceId: inv._id,
    number: inv.number,
    issueDate: inv.issueDate,
    documentType: inv.documentType,
    status: inv.status,
    ackRef: inv.ackRef,
    submissions: inv.submissions.map((r) => ({
      documentId: documentIdOf(inv._id, r.run),
      run: r.run,
      submissionId: r.submissionId ?? null,
      documentUuid: r.documentUuid,
      documentSha256: r.documentSha256,
      statuses: Object.entries((r.statusAt ?? {}) as Record<string, string>).map(([status, at]) => ({ status, at })).sort((a, b) => a.at.localeCompare(b.at)),
      mls: r.mls ?? null,
      ackRef: r.ackRef ?? null,
      answers: (r.answers ?? []).map((a) => ({ at: new Date(a.at).toISOString(), source: a.source, body: a.body })),
    })),
    chain: inv.chain,
  };
}
