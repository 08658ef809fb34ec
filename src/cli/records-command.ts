// `einvoice records ...` (issue 34): verify a seller TRN's evidence chain, purge records past their retention,
// set retention overrides and legal holds. `export` and `verify --archive` are records-export-command.ts's.
import { parseArgs } from 'node:util';
import { cliActor } from '../services/credential-audit';
import { verifyTrnChain } from '../records/chain-verify';
import { purgeRecords } from '../records/records-purge';
import { parseRetentionYears } from '../records/retention';
import { setLegalHold, setRetentionYears, type HoldTarget } from '../records/retention-policy';
import { usageError, isHelp, type CliIo } from './io';
import { withServices } from './with-services';

const TRN = /^\d{15}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const SUBCOMMANDS: Record<string, string> = {
  verify: `einvoice records verify --trn <seller TRN>
      recomputes the TRN's evidence chain from the store: every link and hash, every hand-over's stored XML
      re-hashed (the evidence copy and GET …/document's), every ASP status, time and ackRef, every deletion
      record. Prints {"trn","ok":true,"entries","head"} (exit 0), or the first entry that does not match
      {"ok":false,"seq","kind","invoiceId","number","reason"} (exit 1).`,
  purge: `einvoice records purge --before <YYYY-MM-DD> (--dry-run | --yes) [--trn <seller TRN>]
      removes the invoices, hand-over documents, evidence and deletion records whose retention (default five
      years after the end of the issue date's calendar year; RECORDS_RETENTION_YEARS, per SME/tenant override)
      ended before that date and now, unless under legal hold; each removal is chained first. Never automatic.
      One JSON line per record (would_purge with --dry-run), then {"summary":...}.`,
  retention: `einvoice records retention (--sme <smeId> | --tenant <tenantId>) (--years <N> | --default)
      keeps that seller's records N years (at least 5, e.g. 15 for real estate) after the end of their issue year.`,
  hold: `einvoice records hold (--sme <smeId> | --tenant <tenantId> | --invoice <invoiceId>) (--on | --off)
      a legal hold (an audit or dispute is open): nothing it covers expires or can be removed, by DELETE or purge.`,
};

/** `export` and `verify --archive` (records-export-command.ts, issue 34 point 4), loaded on demand. */
interface ExportModule {
  isRecordsExportCommand(args: string[]): boolean;
  recordsExportCommand(args: string[], io: CliIo): Promise<number>;
  RECORDS_EXPORT_USAGE?: string;
  RECORDS_VERIFY_ARCHIVE_USAGE?: string;
}

/* eslint-disable @typescript-eslint/no-require-imports */
function exportModule(): ExportModule | null {
  try {
    return require('./records-export-command') as ExportModule;
  } catch (err) {
    if ((err as { code?: string }).code === 'MODULE_NOT_FOUND') return null;
    throw err;
  }
}

function exportUsage(): string[] {
  const m = exportModule();
  return m ? [m.RECORDS_EXPORT_USAGE, m.RECORDS_VERIFY_ARCHIVE_USAGE].filter((u): u is string => !!u) : [];
}

export function recordsUsage(): string {
  return `usage: einvoice records <subcommand> ...   (legal records; prints JSON)
${[...Object.values(SUBCOMMANDS), ...exportUsage()].map((u) => `  ${u}`).join('\n')}`;
}

export async function recordsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw usageError(`missing subcommand (${[...Object.keys(SUBCOMMANDS), 'export'].join(', ')})`);
  if (isHelp(sub)) {
    io.stdout.write(recordsUsage() + '\n');
    return 0;
  }
  const exporter = exportModule();
  if (exporter?.isRecordsExportCommand(args)) return exporter.recordsExportCommand(args, io);
  if (!SUBCOMMANDS[sub]) throw usageError(`unknown records command "${sub}"`);
  if (rest.some(isHelp)) {
    io.stdout.write(`usage: ${SUBCOMMANDS[sub]}\n`);
    return 0;
  }
  if (sub === 'verify') return verifyCommand(rest, io);
  if (sub === 'purge') return purgeCommand(rest, io);
  if (sub === 'retention') return retentionCommand(rest, io);
  return holdCommand(rest, io);
}

function flags<T extends Record<string, 'string' | 'boolean'>>(args: string[], types: T): { [K in keyof T]?: T[K] extends 'boolean' ? boolean : string } {
  try {
    const options = Object.fromEntries(Object.entries(types).map(([n, type]) => [n, { type }]));
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as never;
  } catch (err) {
    throw usageError((err as Error).message.split('\n')[0]);
  }
}

async function verifyCommand(args: string[], io: CliIo): Promise<number> {
  const f = flags(args, { trn: 'string' });
  if (!f.trn) throw usageError('--trn is required: the seller TRN whose chain to verify (15 digits), or --archive <file> for an export');
  if (!TRN.test(f.trn)) throw usageError(`--trn must be exactly 15 digits, got "${f.trn}"`);
  const trn = f.trn;
  return withServices(async () => {
    const report = await verifyTrnChain(trn);
    io.stdout.write(JSON.stringify(report) + '\n');
    if (report.ok) return 0;
    io.stderr.write(`einvoice records verify: entry ${report.seq} (${report.kind ?? '?'} of invoice ${report.number ?? '?'}) does not match: ${report.reason}\n`);
    return 1;
  });
}

async function purgeCommand(args: string[], io: CliIo): Promise<number> {
  const f = flags(args, { before: 'string', 'dry-run': 'boolean', yes: 'boolean', trn: 'string' });
  if (f.trn !== undefined && !TRN.test(f.trn)) throw usageError(`--trn must be exactly 15 digits, got "${f.trn}"`);
  if (!f.before) throw usageError('--before <YYYY-MM-DD> is required: records whose retention ended before that date are purged');
  if (!DATE.test(f.before) || Number.isNaN(Date.parse(`${f.before}T00:00:00Z`))) throw usageError(`--before must be a date YYYY-MM-DD, got "${f.before}"`);
  if (f['dry-run'] === f.yes) throw usageError('pass exactly one of --dry-run (list what would go) or --yes (remove it)');
  const before = new Date(`${f.before}T00:00:00Z`);
  const by = `einvoice records purge (${cliActor().name})`;
  return withServices(async () => {
    const summary = await purgeRecords({ before, dryRun: f['dry-run'] === true, trn: f.trn, by, onRecord: (r) => io.stdout.write(JSON.stringify(r) + '\n') });
    io.stdout.write(JSON.stringify({ summary }) + '\n');
    return 0;
  });
}

function owner(f: { sme?: string; tenant?: string; invoice?: string }, allowInvoice: boolean): HoldTarget {
  const kinds: ('sme' | 'tenant' | 'invoice')[] = allowInvoice ? ['sme', 'tenant', 'invoice'] : ['sme', 'tenant'];
  const given = kinds.filter((k) => f[k] !== undefined);
  if (given.length !== 1) throw usageError(`pass exactly one of ${allowInvoice ? '--sme, --tenant or --invoice' : '--sme or --tenant'}`);
  const k = given[0];
  return { [k]: f[k] as string } as HoldTarget;
}

async function retentionCommand(args: string[], io: CliIo): Promise<number> {
  const f = flags(args, { sme: 'string', tenant: 'string', years: 'string', default: 'boolean' });
  const target = owner(f, false) as { sme: string } | { tenant: string };
  if ((f.years === undefined) === (f.default !== true)) throw usageError('pass exactly one of --years <N> or --default');
  let years: number | null = null;
  if (f.years !== undefined) {
    try {
      years = parseRetentionYears(f.years, '--years');
    } catch (err) {
      throw usageError((err as Error).message);
    }
  }
  return withServices(async () => {
    if (!(await setRetentionYears(target, years))) return notFound(io, target);
    io.stdout.write(JSON.stringify({ ...target, retentionYears: years }) + '\n');
    return 0;
  });
}

async function holdCommand(args: string[], io: CliIo): Promise<number> {
  const f = flags(args, { sme: 'string', tenant: 'string', invoice: 'string', on: 'boolean', off: 'boolean' });
  const target = owner(f, true);
  if ((f.on === true) === (f.off === true)) throw usageError('pass exactly one of --on or --off');
  return withServices(async () => {
    if (!(await setLegalHold(target, f.on === true))) return notFound(io, target);
    io.stdout.write(JSON.stringify({ ...target, legalHold: f.on === true }) + '\n');
    return 0;
  });
}

function notFound(io: CliIo, target: HoldTarget): number {
  const [kind, id] = Object.entries(target)[0];
  io.stderr.write(`einvoice records: no ${kind} ${id}\n`);
  return 1;
}
