// `einvoice records verify --archive <file>`: checks an audit export with nothing but its own bytes. Every file
// against SHA256SUMS; every document's sha256 against its manifest row and its hand-over entry in the chain; the
// manifest's facts against the document itself; manifest.csv against manifest.json; each evidence file's chain
// entries against the chain; the chain's links and hashes up to chain/head.json.
import { createHash } from 'node:crypto';
import {
  ARCHIVE_FORMAT, CHAIN_ENTRIES, CHAIN_HEAD, MANIFEST_COLUMNS, MANIFEST_CSV, MANIFEST_JSON, README_PATH, SUMS,
  csvTexts, documentFacts, parseCsv, type ChainHead, type DocumentFacts, type EvidenceFile, type ManifestRow,
} from './archive-layout';
import { verifyChainSegment, type ChainEntry } from './chain-hash';
import { readTarFile } from './tar-read';

export interface ArchiveVerdict {
  ok: boolean;
  documents: number;
  chainEntries: number;
  head: ChainHead | null;
  /** Documents whose hand-over predates the evidence chain: checked against the manifest and SHA256SUMS only. */
  unchained: number;
  /** What does not match, each naming the file (and the chain seq) at fault; empty when ok. */
  problems: string[];
}

/** Past this many, the rest of the problems are counted, not listed. */
const MAX_LISTED = 50;

export async function verifyArchive(path: string): Promise<ArchiveVerdict> {
  const problems: string[] = [];
  const problem = (text: string) => problems.push(text);
  const shaOf = new Map<string, string>();
  const factsOf = new Map<string, DocumentFacts>();
  const evidenceSeqs = new Map<number, { hash: string; file: string }>();
  let manifest: { format?: string; trn?: string; documents?: ManifestRow[] } | null = null;
  let csv: string[][] | null = null;
  let sums: string | null = null;
  let head: ChainHead | null = null;
  const chain = new Map<number, ChainEntry>();
  let chainCount = 0;
  let lastEntry: ChainEntry | null = null;
  let chainBroken = false;

  for await (const item of readTarFile(path)) {
    if (item.kind === 'bad') {
      problem(`archive: at byte ${item.offset}: ${item.reason}`);
      break;
    }
    const { name, data } = item;
    if (shaOf.has(name)) problem(`${name}: appears twice in the archive`);
    shaOf.set(name, createHash('sha256').update(data).digest('hex'));
    const text = () => data.toString('utf8');
    const json = <T>(): T | null => {
      try {
        return JSON.parse(text()) as T;
      } catch {
        problem(`${name}: is not valid JSON`);
        return null;
      }
    };
    if (name.endsWith('.xml')) factsOf.set(name, documentFacts(text()));
    else if (name.endsWith('/evidence.json')) {
      const ev = json<EvidenceFile>();
      for (const e of ev?.chain ?? []) evidenceSeqs.set(e.seq, { hash: e.hash, file: name });
    } else if (name === MANIFEST_JSON) manifest = json();
    else if (name === MANIFEST_CSV) csv = parseCsv(text());
    else if (name === SUMS) sums = text();
    else if (name === CHAIN_HEAD) head = json<ChainHead>();
    else if (name === CHAIN_ENTRIES) {
      for (const [i, line] of text().split('\n').entries()) {
        if (!line) continue;
        let entry: ChainEntry;
        try {
          entry = JSON.parse(line) as ChainEntry;
        } catch {
          problem(`${CHAIN_ENTRIES}: line ${i + 1} is not valid JSON`);
          chainBroken = true;
          break;
        }
        // Link by link, so memory holds what the cross-checks need, not a second copy of the chain's text.
        const verdict = chainBroken ? null : lastEntry && entry.seq !== lastEntry.seq + 1
          ? ({ ok: false, seq: entry.seq, reason: `sequence gap: entry ${entry.seq} follows ${lastEntry.seq}` } as const)
          : verifyChainSegment([entry], lastEntry ? lastEntry.hash : entry.prevHash);
        if (verdict && !verdict.ok) {
          problem(`${CHAIN_ENTRIES}: entry seq ${verdict.seq}: ${verdict.reason}`);
          chainBroken = true;
        }
        chain.set(entry.seq, entry);
        lastEntry = entry;
        chainCount++;
      }
    } else if (name !== README_PATH) problem(`${name}: a file this archive format does not hold`);
  }

  // SHA256SUMS: every file but itself, each once, each matching.
  const listed = new Map<string, string>();
  if (sums === null) problem(`${SUMS}: missing`);
  for (const line of (sums ?? '').split('\n')) {
    if (!line) continue;
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!m) problem(`${SUMS}: line "${line.slice(0, 80)}" is not "<sha256>  <path>"`);
    else listed.set(m[2], m[1]);
  }
  for (const [name, sha] of shaOf) {
    if (name === SUMS) continue;
    const want = listed.get(name);
    if (sums !== null && want === undefined) problem(`${name}: not listed in ${SUMS}`);
    else if (want !== undefined && want !== sha) problem(`${name}: its bytes hash to ${sha}, ${SUMS} says ${want} (file altered)`);
  }
  for (const name of listed.keys()) if (!shaOf.has(name)) problem(`${name}: listed in ${SUMS} but missing from the archive`);

  // The chain segment ends at the head.
  const h = head as ChainHead | null;
  if (!h) problem(`${CHAIN_HEAD}: missing`);
  else if (lastEntry && (lastEntry.seq !== h.seq || lastEntry.hash !== h.hash)) problem(`${CHAIN_ENTRIES}: ends at seq ${lastEntry.seq} hash ${lastEntry.hash}, ${CHAIN_HEAD} says seq ${h.seq} hash ${h.hash}`);
  for (const [seq, ev] of evidenceSeqs) {
    const entry = chain.get(seq);
    if (!entry) problem(`${ev.file}: names chain entry seq ${seq}, which ${CHAIN_ENTRIES} lacks`);
    else if (entry.hash !== ev.hash) problem(`${ev.file}: chain entry seq ${seq} has hash ${ev.hash}, ${CHAIN_ENTRIES} has ${entry.hash}`);
  }

  // The manifest: its format, csv = json, each row against its document and its hand-over entry.
  const m = manifest as { format?: string; trn?: string; documents?: ManifestRow[] } | null;
  const rows = m?.documents ?? [];
  if (!m) problem(`${MANIFEST_JSON}: missing`);
  else if (m.format !== ARCHIVE_FORMAT) problem(`${MANIFEST_JSON}: format "${m.format}" is not ${ARCHIVE_FORMAT}`);
  if (h && m && h.trn !== m.trn) problem(`${CHAIN_HEAD}: TRN ${h.trn} is not the manifest's ${m.trn}`);
  const csvRows = csv as string[][] | null;
  if (!csvRows) problem(`${MANIFEST_CSV}: missing`);
  else {
    if (csvRows[0]?.join(',') !== MANIFEST_COLUMNS.join(',')) problem(`${MANIFEST_CSV}: header is not ${MANIFEST_COLUMNS.join(',')}`);
    if (csvRows.length - 1 !== rows.length) problem(`${MANIFEST_CSV}: ${csvRows.length - 1} rows, ${MANIFEST_JSON} has ${rows.length}`);
    rows.forEach((row, i) => {
      const a = csvRows[i + 1]?.join('\u0000');
      if (a !== undefined && a !== csvTexts(row).join('\u0000')) problem(`${MANIFEST_CSV}: row ${i + 1} (${row.number}) differs from ${MANIFEST_JSON}`);
    });
  }
  let unchained = 0;
  const inManifest = new Set<string>();
  for (const row of rows) {
    inManifest.add(row.path);
    const sha = shaOf.get(row.path);
    if (sha === undefined) {
      problem(`${row.path}: in the manifest (${row.number}) but not in the archive`);
      continue;
    }
    if (sha !== row.sha256) problem(`${row.path}: its bytes hash to ${sha}, the manifest says ${row.sha256} (document altered)`);
    const facts = factsOf.get(row.path)!;
    for (const key of ['number', 'issueDate', 'currency', 'taxExclusiveAmount', 'taxAmount', 'payableAmount'] as const) {
      const want = facts[key] ?? (key === 'number' || key === 'issueDate' ? null : '');
      if (want !== null && String(row[key]) !== want) problem(`${row.path}: manifest ${key} "${row[key]}" but the document says "${want}"`);
    }
    if (row.chainSeq === null) {
      unchained++;
      continue;
    }
    const entry = chain.get(row.chainSeq);
    if (!entry) problem(`${row.path}: hand-over entry seq ${row.chainSeq} is not in ${CHAIN_ENTRIES}`);
    else if (entry.kind !== 'handover' || entry.invoiceId !== row.invoiceId || Number(entry.data.run) !== row.run) problem(`${row.path}: chain entry seq ${row.chainSeq} is not the hand-over of invoice ${row.invoiceId} run ${row.run}`);
    else if (entry.data.sha256 !== sha) problem(`${row.path}: its bytes hash to ${sha}, its hand-over entry seq ${row.chainSeq} recorded ${String(entry.data.sha256)} (document altered)`);
  }
  for (const name of factsOf.keys()) if (!inManifest.has(name)) problem(`${name}: a document the manifest does not list`);

  const listedProblems = problems.length > MAX_LISTED ? [...problems.slice(0, MAX_LISTED), `... and ${problems.length - MAX_LISTED} more`] : problems;
  return { ok: problems.length === 0, documents: rows.length, chainEntries: chainCount, head: h, unchained, problems: listedProblems };
}
