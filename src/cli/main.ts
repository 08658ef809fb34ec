import fs from 'node:fs/promises';
import { UsageError, type CliIo } from './io';

const USAGE = `usage: einvoice <command>
  render BODY.json          print the PINT-AE XML for a Partner InvoiceCreateBody
  validate DOC.xml          apply the native PINT-AE rules to a UBL document
  admin <subcommand> ...    partner:create | partner:update | sme:connect | credits:topup
  ops <subcommand> ...      retry <invoiceId> | stuck [--minutes N] | replay-webhook <invoiceId> | webhook-deliveries <invoiceId>`;

type Command = (args: string[], io: CliIo) => Promise<number>;

// Loaded on demand (require, so it works under tsx's CommonJS hook) so `einvoice render` does not pay for
// mongoose and Temporal.
/* eslint-disable @typescript-eslint/no-require-imports */
const COMMANDS: Record<string, () => Command> = {
  render: () => (require('./render-command') as typeof import('./render-command')).renderCommand,
  validate: () => (require('./validate-command') as typeof import('./validate-command')).validateCommand,
  admin: () => (require('./admin-command') as typeof import('./admin-command')).adminCommand,
  ops: () => (require('./ops-command') as typeof import('./ops-command')).opsCommand,
};

export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const [name, ...args] = argv;
  const load = name ? COMMANDS[name] : undefined;
  if (!load) {
    io.stderr.write((name && name !== '--help' ? `einvoice: unknown command "${name}"\n` : '') + USAGE + '\n');
    return 2;
  }
  try {
    return await load()(args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`einvoice ${name}: ${err.message}\n`);
      return 2;
    }
    io.stderr.write(`einvoice ${name}: ${(err as Error).message}\n`);
    return 1;
  }
}

function defaultIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, readFile: (p) => fs.readFile(p, 'utf8') };
}
