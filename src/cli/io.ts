import { isServiceError, ServiceError } from '../domain/errors';

/** Streams and file access injected into CLI commands, so tests run them in-process. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  readFile: (path: string) => Promise<string>;
}

/** The kind of a mistake in the command line: printed as one line, exit code 2. */
export const USAGE_ERROR = 'usage_error';

/** A mistake in the command line (the message names it): printed as one line, exit code 2. */
export function usageError(message: string): ServiceError {
  return new ServiceError(400, USAGE_ERROR, 'Usage', message);
}

/** A refusal a command prints as one line with exit code 1: any ServiceError but a usage mistake (exit 2). */
export function isRefusal(err: unknown): err is ServiceError {
  return isServiceError(err) && err.code !== USAGE_ERROR;
}

/** `--help` or `-h`: the command prints its usage on stdout and exits 0. */
export const isHelp = (arg: string): boolean => arg === '--help' || arg === '-h';
