import fs from 'node:fs/promises';
import { isServiceError } from '../domain/errors';
import { USAGE_ERROR, isHelp, type CliIo } from './io';

const USAGE = `usage: einvoice <command> ...   (einvoice <command> --help for each command's usage)
  render BODY.json          print the PINT-AE XML for a Partner InvoiceCreateBody
  validate DOC.xml          apply the native PINT-AE rules to a UBL document
  admin <subcommand> ...    partner:create | partner:update | sme:connect | tenant:create | tenant:update | credits:topup
                            *:rotate-secret | *:rotate-webhook-secret | sme:revoke | tenant:revoke-secret | partner:revoke
  ops <subcommand> ...      retry | stuck | find | reconcile | replay-webhook | webhook-deliveries
  records <subcommand> ...  verify | purge | retention | hold | export (legal records, issue 34)

Admin and ops commands connect to MONGODB_URI and TEMPORAL_ADDRESS as the API does, and print JSON.
Exit status: 0 done, 1 refused or failed (one line on stderr), 2 bad arguments (one line on stderr).`;

type Command = (args: string[], io: CliIo) => Promise<number>;

// Loaded on demand (require, so it works under tsx's CommonJS hook) so `einvoice render` does not pay for
// mongoose and Temporal.
/* eslint-disable @typescript-eslint/no-require-imports */
const COMMANDS: Record<string, () => Command> = {
  render: () => (require('./render-command') as typeof import('./render-command')).renderCommand,
  validate: () => (require('./validate-command') as typeof import('./validate-command')).validateCommand,
  admin: () => (require('./admin-command') as typeof import('./admin-command')).adminCommand,
  ops: () => (require('./ops-command') as typeof import('./ops-command')).opsCommand,
  records: () => (require('./records-command') as typeof import('./records-command')).recordsCommand,
};

export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const [name, ...args] = argv;
  if (name !== undefined && isHelp(name)) {
    io.stdout.write(USAGE + '\n');
    return 0;
  }
  const load = name ? COMMANDS[name] : undefined;
  if (!load) {
    const problem = name ? `unknown command "${name}"` : `missing command (${Object.keys(COMMANDS).join(', ')})`;
    io.stderr.write(`einvoice: ${problem}; einvoice --help for usage\n`);
    return 2;
  }
  try {
    return await load()(args, io);
  } catch (err) {
    if (isServiceError(err, USAGE_ERROR)) {
      // One line: the problem, then where the usage is (the command's --help prints it on stdout).
      io.stderr.write(`einvoice ${name}: ${err.message.split('\n')[0]}; einvoice ${name} --help for usage\n`);
      return 2;
    }
    io.stderr.write(`einvoice ${name}: ${(err as Error).message}\n`);
    return 1;
  }
}

function defaultIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, readFile: (p) => fs.readFile(p, 'utf8') };
}
