import { parseArgs } from 'node:util';
import { topUpAmountProblem } from '../domain/credits';
import { ServiceError } from '../domain/errors';
import { AdminError, connectSme, createPartner, updatePartner } from '../services/admin';
import { topUp, type CreditOwner } from '../services/credits';
import { webhookUrlProblem } from '../webhooks/url-policy';
import { UsageError, type CliIo } from './io';
import { printWithServices } from './with-services';

const USAGE = `usage:
  einvoice admin partner:create --name <erpName> --mode test|live [--webhook-url <url>]
  einvoice admin partner:update --partner <partnerId> [--webhook-url <url>] [--rate-limit <perMinute>]
  einvoice admin sme:connect --partner <partnerId> --trn <15 digits> --name <legal name>
  einvoice admin credits:topup --sme <smeId> --amount <credits>`;

/** `einvoice admin ...`: issue credentials. Prints JSON; other tools script against these names and fields. */
export async function adminCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const handler = sub ? SUBCOMMANDS[sub] : undefined;
  if (!handler) throw new UsageError(sub ? `unknown admin command "${sub}"\n${USAGE}` : USAGE);
  const flags = parseFlags(rest, handler.flags);
  const input = handler.check(flags); // argument errors before touching the database
  return printWithServices(io, `einvoice admin ${sub}`, (err): err is Error => err instanceof AdminError || err instanceof ServiceError, () => handler.run(input));
}

type Flags = Record<string, string | undefined>;
interface Subcommand<T> {
  flags: string[];
  check(flags: Flags): T;
  run(input: T): Promise<unknown>;
}

const partnerCreate: Subcommand<{ name: string; mode: 'test' | 'live'; webhookUrl: string | null }> = {
  flags: ['name', 'mode', 'webhook-url'],
  check(f) {
    const name = required(f, 'name');
    const mode = required(f, 'mode');
    if (mode !== 'test' && mode !== 'live') throw new UsageError(`--mode must be test or live, got "${mode}"`);
    return { name, mode, webhookUrl: webhookUrl(f, mode) };
  },
  run: (input) => createPartner(input),
};

const partnerUpdate: Subcommand<{ partnerId: string; webhookUrl?: string; rateLimit?: number }> = {
  flags: ['partner', 'webhook-url', 'rate-limit'],
  check(f) {
    const partnerId = required(f, 'partner');
    let rateLimit: number | undefined;
    if (f['rate-limit'] !== undefined) {
      rateLimit = Number(f['rate-limit']);
      if (!Number.isInteger(rateLimit) || rateLimit < 1) throw new UsageError(`--rate-limit must be a positive integer (requests per minute), got "${f['rate-limit']}"`);
    }
    if (f['webhook-url'] === undefined && rateLimit === undefined) throw new UsageError('nothing to update: pass --webhook-url and/or --rate-limit');
    return { partnerId, webhookUrl: f['webhook-url'], rateLimit };
  },
  run: ({ partnerId, webhookUrl: url, rateLimit }) => updatePartner(partnerId, { webhookUrl: url, rateLimitPerMinute: rateLimit }),
};

const smeConnect: Subcommand<{ partnerId: string; trn: string; name: string }> = {
  flags: ['partner', 'trn', 'name'],
  check(f) {
    const trn = required(f, 'trn');
    if (!/^\d{15}$/.test(trn)) throw new UsageError(`--trn must be exactly 15 digits, got "${trn}"`);
    return { partnerId: required(f, 'partner'), trn, name: required(f, 'name') };
  },
  run: (input) => connectSme(input),
};

/** Adds credits to an SME's balance, prints {"balance"}, and releases its blocked_no_credit invoices. */
const creditsTopup: Subcommand<{ owner: CreditOwner; amount: number }> = {
  flags: ['sme', 'tenant', 'amount'],
  check(f) {
    if (f.tenant !== undefined) throw new UsageError('--tenant: tenants arrive with the Tenant API; top up a Partner SME with --sme <smeId>');
    const smeId = required(f, 'sme');
    const raw = required(f, 'amount');
    const amount = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    const problem = topUpAmountProblem(amount);
    if (problem) throw new UsageError(`--amount: ${problem}, got "${raw}"`);
    return { owner: { kind: 'sme', id: smeId }, amount };
  },
  run: ({ owner, amount }) => topUp(owner, amount),
};

const SUBCOMMANDS: Record<string, Subcommand<any>> = {
  'partner:create': partnerCreate,
  'partner:update': partnerUpdate,
  'sme:connect': smeConnect,
  'credits:topup': creditsTopup,
};

function parseFlags(args: string[], names: string[]): Flags {
  const options = Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Flags;
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
}

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function webhookUrl(flags: Flags, mode: 'test' | 'live'): string | null {
  const url = flags['webhook-url'];
  if (url === undefined) return null;
  const problem = webhookUrlProblem(url, mode);
  if (problem) throw new UsageError(`--webhook-url: ${problem}`);
  return url;
}
