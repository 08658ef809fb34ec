import { parseArgs } from 'node:util';
import { topUpAmountProblem } from '../domain/credits';
import { connectSme, type SmeConnectInput, createPartner, updatePartner } from '../services/admin';
import { topUp, type CreditOwner } from '../services/credits';
import { webhookUrlProblem } from '../webhooks/url-policy';
import { createTenant, updateTenant, type TenantChanges, type TenantInput } from '../services/tenants';
import { TENANT_MODES, type TenantMode } from '../domain/tenant-invoice-types';
import { type PartyAddress, emirateCode } from '@einvoice/pint-ae';
import { DEFAULT_OVERLAP, parseOverlap } from '../credentials/overlap';
import { cliActor, type AuditActor } from '../services/credential-audit';
import { rotatePartnerSecret, rotatePartnerWebhookSecret, rotateSmeSecret, rotateTenantSecret, rotateTenantWebhookSecret } from '../services/credential-rotation';
import { revokePartner, revokeSme, revokeTenantSecret } from '../services/credential-revocation';
import { isRefusal, usageError, isHelp, type CliIo } from './io';
import { printWithServices } from './with-services';

const USAGE = `usage:
  einvoice admin partner:create --name <erpName> --mode test|live [--webhook-url <url>]
  einvoice admin partner:update --partner <partnerId> [--webhook-url <url>] [--rate-limit <perMinute>]
  einvoice admin sme:connect --partner <partnerId> --trn <15 digits> --name <legal name>
                             [--trade-license <number>] [--address-line1 <street> --city <city> --emirate <emirate>]
  einvoice admin tenant:create --trn <15 digits> --name <legal name> --name-ar <Arabic legal name> --mode test|sandbox|live
                               [--kyb approved|pending] [--status-url <url>] [--trade-license <number>]
                               [--address-line1 <street> --city <city> --emirate <emirate>]
  einvoice admin tenant:update --tenant <tenantId> [--mode test|sandbox|live] [--kyb approved|pending] [--status-url <url>]
                               [--trade-license <number>] [--address-line1 <street> --city <city> --emirate <emirate>]
  einvoice admin credits:topup --sme <smeId> | --tenant <tenantId> --amount <credits>
  einvoice admin partner:rotate-secret --partner <partnerId> [--overlap <duration>]
  einvoice admin partner:rotate-webhook-secret --partner <partnerId> [--overlap <duration>]
  einvoice admin partner:revoke --partner <partnerId>
  einvoice admin sme:rotate-secret --sme <smeId> [--overlap <duration>]
  einvoice admin sme:revoke --sme <smeId>
  einvoice admin tenant:rotate-secret --tenant <tenantId> [--overlap <duration>]
  einvoice admin tenant:rotate-webhook-secret --tenant <tenantId> [--overlap <duration>]
  einvoice admin tenant:revoke-secret --tenant <tenantId>

  Rotation prints the new secret once; the previous one keeps working until previousSecretValidUntil.
  --overlap: 0 (the previous secret stops now), or 30m, 24h, 7d ... up to 30d; default ${DEFAULT_OVERLAP}.
  sme:connect on a revoked SME's TRN (same partner) reissues a secret for the same SME record.`;

/** `einvoice admin ...`: issue credentials. Prints JSON; other tools script against these names and fields. */
export async function adminCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== undefined && isHelp(sub)) {
    io.stdout.write(USAGE + '\n');
    return 0;
  }
  const handler = sub ? SUBCOMMANDS[sub] : undefined;
  if (!handler) throw usageError(sub ? `unknown admin command "${sub}"` : `missing subcommand (${Object.keys(SUBCOMMANDS).join(', ')})`);
  if (rest.some(isHelp)) {
    io.stdout.write(subcommandUsage(sub!) + '\n');
    return 0;
  }
  const flags = parseFlags(rest, handler.flags);
  const input = handler.check(flags); // argument errors before touching the database
  return printWithServices(io, `einvoice admin ${sub}`, isRefusal, () => handler.run(input));
}

/** The lines of USAGE for one subcommand (its first line and the continuation lines under it). */
function subcommandUsage(sub: string): string {
  const lines = USAGE.split('\n').slice(1);
  const start = lines.findIndex((l) => l.trimStart().startsWith(`einvoice admin ${sub} `));
  const end = lines.findIndex((l, i) => i > start && (l.trimStart().startsWith('einvoice admin ') || l.trim() === ''));
  return ['usage:', ...lines.slice(start, end === -1 ? undefined : end)].join('\n');
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
    if (mode !== 'test' && mode !== 'live') throw usageError(`--mode must be test or live, got "${mode}"`);
    return { name, mode, webhookUrl: webhookUrl(f) };
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
      if (!Number.isInteger(rateLimit) || rateLimit < 1) throw usageError(`--rate-limit must be a positive integer (requests per minute), got "${f['rate-limit']}"`);
    }
    if (f['webhook-url'] === undefined && rateLimit === undefined) throw usageError('nothing to update: pass --webhook-url and/or --rate-limit');
    return { partnerId, webhookUrl: f['webhook-url'], rateLimit };
  },
  run: ({ partnerId, webhookUrl: url, rateLimit }) => updatePartner(partnerId, { webhookUrl: url, rateLimitPerMinute: rateLimit }),
};

/** Prints {"smeId","partnerId","trn","connectionSecret","tradeLicenseNumber","address"}. */
const smeConnect: Subcommand<SmeConnectInput> = {
  flags: ['partner', 'trn', 'name', 'trade-license', 'address-line1', 'city', 'emirate'],
  check(f) {
    const trn = required(f, 'trn');
    if (!/^\d{15}$/.test(trn)) throw usageError(`--trn must be exactly 15 digits, got "${trn}"`);
    const tradeLicenseNumber = f['trade-license']?.trim() || undefined;
    return { partnerId: required(f, 'partner'), trn, name: required(f, 'name'), tradeLicenseNumber, address: addressOption(f) };
  },
  run: (input) => connectSme(input),
};

/** Adds credits to an SME's or a tenant's balance, prints {"balance"}, and releases its blocked_no_credit invoices. */
const creditsTopup: Subcommand<{ owner: CreditOwner; amount: number }> = {
  flags: ['sme', 'tenant', 'amount'],
  check(f) {
    if ((f.sme === undefined) === (f.tenant === undefined)) throw usageError('pass exactly one of --sme <smeId> or --tenant <tenantId>');
    const owner: CreditOwner = f.sme !== undefined ? { kind: 'sme', id: required(f, 'sme') } : { kind: 'tenant', id: required(f, 'tenant') };
    const raw = required(f, 'amount');
    const amount = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    const problem = topUpAmountProblem(amount);
    if (problem) throw usageError(`--amount: ${problem}, got "${raw}"`);
    return { owner, amount };
  },
  run: ({ owner, amount }) => topUp(owner, amount),
};

const TENANT_FLAGS = ['mode', 'kyb', 'status-url', 'address-line1', 'city', 'emirate', 'trade-license'];

/** The tenant options shared by create and update, checked before the database is touched. */
function tenantOptions(f: Flags): TenantChanges {
  const mode = f.mode;
  if (mode !== undefined && !(TENANT_MODES as readonly string[]).includes(mode)) throw usageError(`--mode must be test, sandbox or live, got "${mode}"`);
  const kyb = f.kyb;
  if (kyb !== undefined && kyb !== 'approved' && kyb !== 'pending') throw usageError(`--kyb must be approved or pending, got "${kyb}"`);
  return { mode: mode as TenantMode | undefined, kyb, statusUrl: f['status-url'], address: addressOption(f), tradeLicenseNumber: f['trade-license'] };
}

/** --address-line1, --city, --emirate: all three or none (tenants and SMEs alike). */
function addressOption(f: Flags): PartyAddress | undefined {
  const addressFlags = [f['address-line1'], f.city, f.emirate];
  if (!addressFlags.some((v) => v !== undefined)) return undefined;
  if (addressFlags.some((v) => !v?.trim())) throw usageError('the seller address needs all of --address-line1, --city and --emirate');
  if (!emirateCode(f.emirate)) throw usageError(`--emirate: "${f.emirate}" is not an emirate (Abu Dhabi, Dubai, Sharjah, Ajman, Umm Al Quwain, Ras Al Khaimah, Fujairah)`);
  return { line1: f['address-line1']!, city: f.city!, emirate: f.emirate!, country: 'AE' };
}

/** Prints {"tenantId","clientId","clientSecret","mode","webhookSecret"}: other tools script against these names. */
const tenantCreate: Subcommand<TenantInput> = {
  flags: ['trn', 'name', 'name-ar', ...TENANT_FLAGS],
  check(f) {
    const trn = required(f, 'trn');
    if (!/^\d{15}$/.test(trn)) throw usageError(`--trn must be exactly 15 digits, got "${trn}"`);
    const options = tenantOptions(f);
    if (!options.mode) throw usageError('--mode is required (test, sandbox or live)');
    return { trn, name: required(f, 'name'), nameArabic: required(f, 'name-ar'), ...options, mode: options.mode };
  },
  run: (input) => createTenant(input),
};

const tenantUpdate: Subcommand<{ tenantId: string; changes: ReturnType<typeof tenantOptions> }> = {
  flags: ['tenant', ...TENANT_FLAGS],
  check(f) {
    const tenantId = required(f, 'tenant');
    const changes = tenantOptions(f);
    if (Object.values(changes).every((v) => v === undefined)) throw usageError('nothing to update: pass --mode, --kyb, --status-url, --trade-license or the address flags');
    return { tenantId, changes };
  },
  run: ({ tenantId, changes }) => updateTenant(tenantId, changes),
};

/** `--overlap`, checked before the database is touched; the default when absent. */
function overlapMs(f: Flags): number {
  const parsed = parseOverlap(f.overlap ?? DEFAULT_OVERLAP);
  if ('problem' in parsed) throw usageError(`--overlap: ${parsed.problem}`);
  return parsed.ms;
}

/** A rotation: `--<flag> <id> [--overlap <duration>]`, run as the OS user (the audit log's actor). */
function rotation<T>(flag: string, rotate: (id: string, opts: { overlapMs: number; actor: AuditActor }) => Promise<T>): Subcommand<{ id: string; overlapMs: number }> {
  return {
    flags: [flag, 'overlap'],
    check: (f) => ({ id: required(f, flag), overlapMs: overlapMs(f) }),
    run: ({ id, overlapMs: ms }) => rotate(id, { overlapMs: ms, actor: cliActor() }),
  };
}

/** A revocation: `--<flag> <id>`. */
function revocation<T>(flag: string, revoke: (id: string, actor: AuditActor) => Promise<T>): Subcommand<{ id: string }> {
  return { flags: [flag], check: (f) => ({ id: required(f, flag) }), run: ({ id }) => revoke(id, cliActor()) };
}

const SUBCOMMANDS: Record<string, Subcommand<any>> = {
  'tenant:create': tenantCreate,
  'tenant:update': tenantUpdate,
  'partner:create': partnerCreate,
  'partner:update': partnerUpdate,
  'sme:connect': smeConnect,
  'credits:topup': creditsTopup,
  'partner:rotate-secret': rotation('partner', rotatePartnerSecret),
  'partner:rotate-webhook-secret': rotation('partner', rotatePartnerWebhookSecret),
  'partner:revoke': revocation('partner', revokePartner),
  'sme:rotate-secret': rotation('sme', rotateSmeSecret),
  'sme:revoke': revocation('sme', revokeSme),
  'tenant:rotate-secret': rotation('tenant', rotateTenantSecret),
  'tenant:rotate-webhook-secret': rotation('tenant', rotateTenantWebhookSecret),
  'tenant:revoke-secret': revocation('tenant', revokeTenantSecret),
};

function parseFlags(args: string[], names: string[]): Flags {
  const options = Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Flags;
  } catch (err) {
    throw usageError((err as Error).message.split('\n')[0]);
  }
}

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (value === undefined || value.trim() === '') throw usageError(`--${name} is required`);
  return value;
}

/** Checked here too (same policy, EINVOICE_DEV_ALLOW_PRIVATE_URLS of this process) so a refusal is a usage error. */
function webhookUrl(flags: Flags): string | null {
  const url = flags['webhook-url'];
  if (url === undefined) return null;
  const problem = webhookUrlProblem(url);
  if (problem) throw usageError(`--webhook-url: ${problem}`);
  return url;
}
