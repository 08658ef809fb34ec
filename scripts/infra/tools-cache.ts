import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

/** Binaries we build live outside the repo so every clone and every run reuses them. */
export const TOOLS_CACHE = process.env.EINVOICE_TOOLS_CACHE || path.join(os.homedir(), '.cache', 'einvoice-tools');

export function toolDir(name: string, version: string): string {
  return path.join(TOOLS_CACHE, `${name}-${version}`);
}

/** Absolute path of `cmd` on PATH, or null. */
export function onPath(cmd: string): string | null {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const candidate = path.join(dir, cmd);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      /* not here */
    }
  }
  return null;
}

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Runs a build command with inherited output (so progress shows), returns its exit status. */
export function runVisible(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): number {
  const result = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (result.error) return -1;
  return result.status ?? -1;
}
