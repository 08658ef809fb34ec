import fs from 'node:fs';
import path from 'node:path';
import { TOOLS_CACHE } from './tools-cache';

// The ecosystem downloads need internet; on a closed machine each attempt costs seconds of retries.
// Remember a failure for a day so the second run starts in seconds, as the cache promises.
const DAY_MS = 24 * 3_600_000;

function marker(name: string): string {
  return path.join(TOOLS_CACHE, `${name}.download-failed`);
}

export function downloadRecentlyFailed(name: string): boolean {
  if (process.env.EINVOICE_SKIP_DOWNLOADS === '1') return true;
  try {
    return Date.now() - fs.statSync(marker(name)).mtimeMs < DAY_MS;
  } catch {
    return false;
  }
}

export function rememberDownloadFailure(name: string): void {
  fs.mkdirSync(TOOLS_CACHE, { recursive: true });
  fs.writeFileSync(marker(name), new Date().toISOString() + '\n');
}

/** Runs fn with console.warn/error/log muted: libraries print their own stack traces on a failed download. */
export async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const saved = { warn: console.warn, error: console.error, log: console.log };
  console.warn = console.error = console.log = () => {};
  try {
    return await fn();
  } finally {
    Object.assign(console, saved);
  }
}
