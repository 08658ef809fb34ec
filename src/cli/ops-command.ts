import { parseArgs } from 'node:util';
import { config } from '../config';
import { rerunMigrations } from '../db/migrations';
import { findInvoices, opsRetry, stuckInvoices } from '../services/invoice-ops';
import { reconcileInvoices } from '../services/invoice-reconcile';
import { isRefusal, usageError, isHelp, type CliIo } from './io';
import { printWithServices, withServices } from './with-services';
import { replayWebhookCommand, webhookDeliveriesCommand } from './ops-webhook';

const SUBCOMMANDS: Record<string, string> = {
  retry: `einvoice ops retry <invoiceId>
      restart a failed or stuck invoice's pipeline (rejected, blocked_no_credit or draft: a new run; in the
      pipeline: the running workflow is nudged, or a new one resumes from the stored status)`,
  stuck: `einvoice ops stuck [--older-than <30m>] [--limit <1000>]
      invoices unchanged for longer than --older-than (s, m, h, d; a bare number is minutes; --minutes <N> is an
      alias) in a non-terminal status: Partner drafts that are not held, queued, transformed, validated,
      blocked_no_credit, delivered awaiting the acknowledgement; oldest first, each with its workflow's state
      (running and the status its query answers, completed, terminated, not_found, ...). JSON array.`,
  find: `einvoice ops find --number <invoice number> [--trn <seller TRN>]
      the invoices with that number (and seller TRN), Partner and Tenant API both: ids, owner, mode, status,
      reason, workflow state and where to find it in the Temporal Web UI (set TEMPORAL_UI_URL for a link). JSON array.`,
  reconcile: `einvoice ops reconcile [--dry-run] [--older-than <2m>] [--partner <partnerId> | --tenant <tenantId>]
      invoices whose stored status and workflow disagree, repaired: a new workflow for an invoice in
      queued..delivered with none running, a retry nudge for a workflow waiting on a failure the invoice has
      left, termination of a workflow whose invoice was deleted or is acknowledged. One JSON line per finding,
      then {"summary":...}; progress on stderr. --dry-run prints would_<action> and changes nothing.`,
  'replay-webhook': `einvoice ops replay-webhook <invoiceId>
      send the invoice's last status webhook again (a new delivery)`,
  'webhook-deliveries': `einvoice ops webhook-deliveries <invoiceId>
      every webhook delivery of the invoice, with each attempt`,
  migrate: `einvoice ops migrate
      run the migrations of stored documents again (each runs by itself once, at the first API, worker or CLI
      start after an upgrade; all are idempotent). JSON: what each one changed.`,
};

export const OPS_USAGE = `usage: einvoice ops <subcommand> ...   (support operations; prints JSON)
${Object.values(SUBCOMMANDS)
  .map((u) => `  ${u}`)
  .join('\n')}`;

const subUsage = (sub: string) => `usage: ${SUBCOMMANDS[sub]}`;

/** `einvoice ops ...`: support operations. Prints JSON. */
export async function opsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || isHelp(sub)) {
    if (sub === undefined) throw usageError(`missing subcommand (${Object.keys(SUBCOMMANDS).join(', ')})`);
    io.stdout.write(OPS_USAGE + '\n');
    return 0;
  }
  if (!SUBCOMMANDS[sub]) throw usageError(`unknown ops command "${sub}"`);
  if (rest.some(isHelp)) {
    io.stdout.write(subUsage(sub) + '\n');
    return 0;
  }
  if (sub === 'retry') {
    const [invoiceId, ...extra] = rest;
    if (!invoiceId || extra.length) throw usageError(subUsage(sub));
    return printWithServices(io, 'einvoice ops', isRefusal, () => opsRetry(invoiceId));
  }
  if (sub === 'stuck') {
    const f = flags(rest, { 'older-than': 'string', minutes: 'string', limit: 'string' });
    if (f['older-than'] !== undefined && f.minutes !== undefined) throw usageError('pass --older-than or --minutes, not both');
    const minutes = f.minutes !== undefined ? nonNegativeInt('--minutes', f.minutes) : duration('--older-than', f['older-than'] ?? '30m');
    const limit = f.limit === undefined ? 1000 : positiveInt('--limit', f.limit);
    return printWithServices(io, 'einvoice ops', isRefusal, async () => {
      const found = await stuckInvoices(minutes, { limit, onProgress: progress(io, 'stuck', 'workflows looked up') });
      if (found.length === limit) io.stderr.write(`einvoice ops stuck: showing the oldest ${limit}; pass --limit for more\n`);
      return found;
    });
  }
  if (sub === 'migrate') {
    if (rest.length) throw usageError(subUsage(sub));
    return printWithServices(io, 'einvoice ops', isRefusal, () => rerunMigrations());
  }
  if (sub === 'find') {
    const f = flags(rest, { number: 'string', trn: 'string' });
    const number = f.number?.trim();
    if (!number) throw usageError(`--number is required\n${subUsage(sub)}`);
    if (f.trn !== undefined && !/^\d{15}$/.test(f.trn)) throw usageError(`--trn must be exactly 15 digits, got "${f.trn}"`);
    return printWithServices(io, 'einvoice ops', isRefusal, () =>
      findInvoices({ number, trn: f.trn }, { namespace: config().temporalNamespace, webUiUrl: process.env.TEMPORAL_UI_URL || undefined }),
    );
  }
  if (sub === 'reconcile') {
    const f = flags(rest, { 'dry-run': 'boolean', 'older-than': 'string', partner: 'string', tenant: 'string' });
    if (f.partner !== undefined && f.tenant !== undefined) throw usageError('pass --partner or --tenant, not both');
    const olderThanMinutes = duration('--older-than', (f['older-than'] as string | undefined) ?? '2m');
    return withServices(async () => {
      const summary = await reconcileInvoices({
        dryRun: f['dry-run'] === true,
        olderThanMinutes,
        partnerId: f.partner as string | undefined,
        tenantId: f.tenant as string | undefined,
        onAction: (a) => io.stdout.write(JSON.stringify(a) + '\n'),
        onProgress: (m) => io.stderr.write(`einvoice ops reconcile: ${m}\n`),
      });
      io.stdout.write(JSON.stringify({ summary }) + '\n');
      return summary.failed > 0 ? 1 : 0;
    });
  }
  if (sub === 'replay-webhook') return replayWebhookCommand(rest, io);
  return webhookDeliveriesCommand(rest, io);
}

type FlagTypes = Record<string, 'string' | 'boolean'>;

function flags<T extends FlagTypes>(args: string[], types: T): { [K in keyof T]?: T[K] extends 'boolean' ? boolean : string } {
  const options = Object.fromEntries(Object.entries(types).map(([n, type]) => [n, { type }]));
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as never;
  } catch (err) {
    throw usageError((err as Error).message.split('\n')[0]);
  }
}

const UNITS: Record<string, number> = { s: 1 / 60, m: 1, h: 60, d: 24 * 60 };

/** "30m", "45s", "2h", "1d", or a bare number of minutes; in minutes. */
export function duration(flag: string, value: string): number {
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(value.trim());
  if (!m) throw usageError(`${flag} must be a duration such as 45s, 30m, 2h or 1d, got "${value}"`);
  return Number(m[1]) * UNITS[m[2] || 'm'];
}

function nonNegativeInt(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) throw usageError(`${flag} must be a non-negative integer, got "${value}"`);
  return n;
}

function positiveInt(flag: string, value: string): number {
  const n = nonNegativeInt(flag, value);
  if (n < 1) throw usageError(`${flag} must be at least 1, got "${value}"`);
  return n;
}

/** Progress on stderr for long runs: every 100 look-ups once there are more than 100. */
function progress(io: CliIo, sub: string, what: string) {
  return (done: number, total: number) => {
    if (total > 100 && (done % 100 === 0 || done === total)) io.stderr.write(`einvoice ops ${sub}: ${done}/${total} ${what}\n`);
  };
}

