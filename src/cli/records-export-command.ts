// `einvoice records export` and `einvoice records verify --archive` (issue 34 point 4): the audit export of a
// seller TRN's period, and its check from the archive alone. `records verify --trn` and `records purge` are
// src/cli/records-command.ts's (the chain's own checks), which hands these two over.
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { TRN_PATTERN } from '../domain/trn';
import { verifyArchive } from '../records/archive-verify';
import { exportArchive, newSummary } from '../records/export-archive';
import { resolveExportPeriod } from '../records/export-period';
import { trnSource } from '../records/export-source';
import { usageError, isHelp, type CliIo } from './io';
import { withServices } from './with-services';

export const RECORDS_EXPORT_USAGE = `einvoice records export --trn <seller TRN> --from <YYYY-MM-DD> --to <YYYY-MM-DD> --out <file.tar> [--mode live|sandbox|test]
      one tar archive of every document handed over to the ASP with an issue date in the period, for every SME
      and tenant issuing under the TRN (invoices of --mode, default live): each document exactly as sent, its
      evidence, a manifest (CSV and JSON) and the evidence chain up to its head. At most 366 days per archive.
      Prints {"out", "documents", "invoices", "chainEntries", "head"}.`;
export const RECORDS_VERIFY_ARCHIVE_USAGE = `einvoice records verify --archive <file.tar>
      checks an export with nothing but its own bytes: every document against the manifest and its hand-over
      entry, the chain's links up to its head, SHA256SUMS. Prints {"ok", "documents", "chainEntries", "head",
      "unchained", "problems"}; exit 1 when anything does not match.`;

const MODES = ['live', 'sandbox', 'test'];

/** Whether `args` (after `records`) are this module's: `export ...` or `verify --archive ...`. */
export const isRecordsExportCommand = (args: string[]): boolean => args[0] === 'export' || (args[0] === 'verify' && args.some((a) => a === '--archive' || a.startsWith('--archive=')));

/** `einvoice records export|verify --archive ...` (args start with the subcommand). */
export async function recordsExportCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const usage = sub === 'export' ? RECORDS_EXPORT_USAGE : RECORDS_VERIFY_ARCHIVE_USAGE;
  if (rest.some(isHelp)) {
    io.stdout.write(`usage: ${usage}\n`);
    return 0;
  }
  return sub === 'export' ? exportCommand(rest, io) : verifyArchiveCommand(rest, io);
}

function flags<T extends Record<string, 'string'>>(args: string[], options: T): { [K in keyof T]?: string } {
  try {
    const { values } = parseArgs({ args, options: Object.fromEntries(Object.entries(options).map(([k, type]) => [k, { type }])), strict: true, allowPositionals: false });
    return values as { [K in keyof T]?: string };
  } catch (err) {
    throw usageError((err as Error).message.split('\n')[0]);
  }
}

async function exportCommand(args: string[], io: CliIo): Promise<number> {
  const f = flags(args, { trn: 'string', from: 'string', to: 'string', out: 'string', mode: 'string' });
  if (!f.trn) throw usageError('--trn is required: the seller TRN whose records to export (15 digits)');
  if (!TRN_PATTERN.test(f.trn)) throw usageError(`--trn ${f.trn} is not a TRN: send the seller's TRN, exactly 15 digits`);
  if (!f.out) throw usageError('--out is required: the file to write the archive to (e.g. records.tar)');
  const mode = f.mode ?? 'live';
  if (!MODES.includes(mode)) throw usageError(`--mode ${mode} is not one of ${MODES.join(', ')}`);
  const period = resolveExportPeriod({ from: f.from, to: f.to }, { from: '--from', to: '--to' });
  if (!period.value) throw usageError(period.errors.map((e) => e.message).join('; '));
  const { from, to } = period.value;
  const out = f.out;
  return withServices(async () => {
    const source = await trnSource(f.trn!, mode);
    if (!source.owners.length) {
      io.stderr.write(`einvoice records export: no SME or tenant has TRN ${f.trn}: check the TRN (einvoice ops find --number <an invoice number> shows an invoice's seller TRN)\n`);
      return 1;
    }
    // Written beside the target and renamed when complete: a failed export never leaves a file that looks whole.
    const partial = `${out}.partial`;
    const summary = newSummary();
    try {
      await pipeline(Readable.from(exportArchive(source, from, to, summary)), createWriteStream(partial));
      await fs.rename(partial, out);
    } catch (err) {
      await fs.rm(partial, { force: true });
      throw err;
    }
    io.stdout.write(JSON.stringify({ out, ...summary }) + '\n');
    return 0;
  });
}

async function verifyArchiveCommand(args: string[], io: CliIo): Promise<number> {
  const f = flags(args, { archive: 'string' });
  if (!f.archive) throw usageError('--archive is required: the export file to check');
  try {
    await fs.access(f.archive);
  } catch {
    io.stderr.write(`einvoice records verify: cannot read ${f.archive}: send the path of an archive made by einvoice records export or GET /v1/partner/records\n`);
    return 1;
  }
  const verdict = await verifyArchive(f.archive);
  io.stdout.write(JSON.stringify(verdict) + '\n');
  return verdict.ok ? 0 : 1;
}

