import { parseArgs } from 'node:util';
import { OpsError, opsRetry, stuckInvoices } from '../services/invoice-ops';
import { UsageError, type CliIo } from './io';
import { printWithServices } from './with-services';
import { replayWebhookCommand, webhookDeliveriesCommand } from './ops-webhook';

const USAGE = `usage:
  einvoice ops retry <invoiceId>        restart a failed or stuck invoice's pipeline
  einvoice ops stuck [--minutes <N>]    list invoices in draft/queued/transformed/validated for more than N minutes (default 30)
  einvoice ops replay-webhook <invoiceId>        send the invoice's last status webhook again (a new delivery)
  einvoice ops webhook-deliveries <invoiceId>    every webhook delivery of the invoice, with each attempt`;

/** `einvoice ops ...`: support operations. Prints JSON. (`ops replay-webhook` is registered by the webhooks part.) */
export async function opsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'retry') {
    const [invoiceId, ...extra] = rest;
    if (!invoiceId || extra.length) throw new UsageError(USAGE);
    return printWithServices(io, 'einvoice ops', isOpsError, () => opsRetry(invoiceId));
  }
  if (sub === 'stuck') {
    const minutes = parseMinutes(rest);
    return printWithServices(io, 'einvoice ops', isOpsError, () => stuckInvoices(minutes));
  }
  if (sub === 'replay-webhook') return replayWebhookCommand(rest, io);
  if (sub === 'webhook-deliveries') return webhookDeliveriesCommand(rest, io);
  throw new UsageError(sub ? `unknown ops command "${sub}"\n${USAGE}` : USAGE);
}

function parseMinutes(args: string[]): number {
  let values: { minutes?: string };
  try {
    values = parseArgs({ args, options: { minutes: { type: 'string' } }, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  const minutes = Number(values.minutes ?? 30);
  if (!Number.isInteger(minutes) || minutes < 0) throw new UsageError(`--minutes must be a non-negative integer, got "${values.minutes}"`);
  return minutes;
}

const isOpsError = (err: unknown): err is OpsError => err instanceof OpsError;
