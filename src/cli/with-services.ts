import { config } from '../config';
import { productionProblems } from '../config-safety';
import { connectMongo, disconnectMongo } from '../db/connection';
import { closeTemporalClient } from '../temporal/client';
import type { CliIo } from './io';

/**
 * Connects MongoDB, runs an operator action and prints its result as one JSON line. An expected failure
 * (e.g. an unknown invoice) is one line on stderr and exit 1; connections are closed either way so the
 * command exits promptly.
 */
export async function printWithServices(io: CliIo, label: string, expected: (err: unknown) => err is Error, action: () => Promise<unknown>): Promise<number> {
  return withServices(async () => {
    try {
      io.stdout.write(JSON.stringify(await action()) + '\n');
      return 0;
    } catch (err) {
      if (expected(err)) {
        io.stderr.write(`${label}: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
  });
}

/**
 * Connects MongoDB, runs a command that prints as it goes, and closes MongoDB and Temporal either way. In production
 * it refuses first what the CLI must not run with (the development URL setting: config-safety.ts).
 */
export async function withServices<T>(action: () => Promise<T>): Promise<T> {
  const unsafe = productionProblems(config(), 'cli');
  if (unsafe.length > 0) throw new Error(`refusing to run in production: ${unsafe.join('; ')}`);
  await connectMongo(config().mongodbUri);
  try {
    return await action();
  } finally {
    await closeTemporalClient();
    await disconnectMongo();
  }
}
