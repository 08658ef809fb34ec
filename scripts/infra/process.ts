import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

export interface ManagedProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a long-running server process whose output goes to a log file (shown on failure),
 * and a stop() that signals it and waits for it to exit.
 */
export function startLogged(cmd: string, args: string[], logFile: string, env?: NodeJS.ProcessEnv): ManagedProcess {
  const out = fs.openSync(logFile, 'a');
  // Own process group: a terminal Ctrl-C reaches us, and we stop servers after the processes using them.
  const child = spawn(cmd, args, { stdio: ['ignore', out, out], env: env ?? process.env, detached: true });
  fs.closeSync(out);
  killOnExit(child);
  return { child, stop: () => stopChild(child) };
}

/**
 * The environment of the Go servers we start (FerretDB, the Temporal dev server): one Go scheduler thread
 * (GOMAXPROCS=1) unless the caller set GOMAXPROCS. Measured in bench:e2e on the 2-core VMs, both spend less CPU per
 * invoice so (figures: docs/performance.md); with a scheduler thread per core, Go's idle
 * threads spin, steal work and wake each other across cores, and each wake-up is a costly context switch on a
 * virtual machine. Neither server needs more than a core here.
 */
export function goServerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return env.GOMAXPROCS ? env : { ...env, GOMAXPROCS: '1' };
}

/**
 * FerretDB's environment: goServerEnv, and GOGC=400 unless the caller set GOGC. Go's collector was about a fifth of
 * FerretDB's CPU in a bench:e2e burst (`perf record`): every command decodes and re-encodes whole documents, so it
 * allocates a lot and keeps little. Collecting four times less often lowers FerretDB's CPU per invoice for a little
 * more memory. Not for the Temporal dev server: the same setting changed nothing there and grew its memory (figures:
 * docs/performance.md).
 */
export function ferretDbEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const go = goServerEnv(env);
  return go.GOGC ? go : { ...go, GOGC: '400' };
}

export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export function tail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** If this process exits without stopping a child (crash, process.exit), do not leave it orphaned. */
export function killOnExit(child: ChildProcess): void {
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', kill);
  child.once('exit', () => process.removeListener('exit', kill));
}
