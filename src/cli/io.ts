/** Streams and file access injected into CLI commands, so tests run them in-process. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  readFile: (path: string) => Promise<string>;
}

/** A mistake in the command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** `--help` or `-h`: the command prints its usage on stdout and exits 0. */
export const isHelp = (arg: string): boolean => arg === '--help' || arg === '-h';
