// The API and worker child processes of bench:e2e: start with output captured to files, readiness, stop, and
// the warnings/errors each wrote while a phase ran.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { waitUntil } from '../infra/net';

const ROOT = path.resolve(__dirname, '..', '..');

export interface Child {
  name: string;
  proc: ChildProcess;
  logFile: string;
  /** Rejects when the process exits before stop() was called. */
  died: Promise<never>;
  stop(): Promise<void>;
}

/** `tsx <entry>` in its own process group (tsx runs node as its child), stdout and stderr into `<logDir>/<name>.log`. */
/** tsx, or with node flags (a CPU profile) node itself with tsx's loader: tsx would not pass them through. Both on
 *  this process's Node (tsx's bin would take the first `node` on PATH). */
function command(entry: string, nodeArgs: string[]): [string, string[]] {
  if (!nodeArgs.length) return [process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), entry]];
  return [process.execPath, [...nodeArgs, '--require', 'tsx/cjs', entry]];
}

export function startChild(name: string, entry: string, env: NodeJS.ProcessEnv, logDir: string, nodeArgs: string[] = []): Child {
  const logFile = path.join(logDir, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const proc = spawn(...command(entry, nodeArgs), { cwd: ROOT, env, stdio: ['ignore', out, out], detached: true });
  fs.closeSync(out);
  let stopping = false;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const died = new Promise<never>((_, reject) =>
    proc.once('exit', (code, signal) => {
      if (!stopping) reject(new Error(`${name} exited unexpectedly (code ${code}, signal ${signal}); log ${logFile}:\n${tail(logFile)}`));
    }),
  );
  died.catch(() => {}); // observed by whoever races it
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-proc.pid!, signal); // tsx and the node it runs
    } catch {
      /* already gone */
    }
  };
  process.once('exit', () => proc.exitCode === null && proc.signalCode === null && group('SIGKILL'));
  return {
    name,
    proc,
    logFile,
    died,
    async stop() {
      stopping = true;
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      group('SIGTERM');
      const timer = setTimeout(() => group('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function waitForApi(base: string, child: Child): Promise<void> {
  const up = await Promise.race([waitUntil(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok === true, 60_000, 250), child.died]);
  if (!up) throw new Error(`API did not answer ${base}/healthz within 60 s:\n${tail(child.logFile)}`);
}

/**
 * The worker logs 'worker started' at info level, which LOG_LEVEL=warn hides: so it is also ready once
 * Temporal lists a poller on its task queue for both workflow and activity tasks.
 */
export async function waitForWorker(address: string, taskQueue: string, child: Child): Promise<void> {
  const connection = await Connection.connect({ address });
  const types = temporal.api.enums.v1.TaskQueueType;
  const polled = async (type: temporal.api.enums.v1.TaskQueueType) =>
    ((await connection.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: taskQueue }, taskQueueType: type })).pollers ?? []).length > 0;
  try {
    const check = async () => fs.readFileSync(child.logFile, 'utf8').includes('worker started') || ((await polled(types.TASK_QUEUE_TYPE_WORKFLOW)) && (await polled(types.TASK_QUEUE_TYPE_ACTIVITY)));
    const up = await Promise.race([waitUntil(check, 120_000, 500), child.died]);
    if (!up) throw new Error(`worker did not poll ${taskQueue} within 120 s:\n${tail(child.logFile)}`);
  } finally {
    await connection.close();
  }
}

function tail(file: string, lines = 20): string {
  return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

export function logSize(child: Child): number {
  return fs.statSync(child.logFile).size;
}

export interface LogIssues {
  entries: number;
  activityFailures: number;
  storageActivityFailures: number;
  samples: string[];
}

// A pino JSON line, or a Temporal SDK line: the TypeScript DefaultLogger's `<date> [WARN] ...` or the Rust core's
// `<date>  WARN temporalio_sdk_core...` (ANSI colours removed first).
const ENTRY_START = /^(\{|\d{4}-\d\d-\d\dT)/;
const ANSI = /\x1b\[[0-9;]*m/g;
const ISSUE = /"level":(4|5|6)0\b|\[(WARN|ERROR)\]|^\S+Z\s+(WARN|ERROR)\b|activity.*fail|SQLITE_BUSY|ECONNRESET/i;
const ACTIVITY_FAILURE = /activity.*fail/i;
const STORAGE = /SQLITE|Mongo|ferret|postgres|ECONNRESET|ECONNREFUSED|E11000|WriteConflict|pool cleared|socket/i;

/** Warnings and errors the children wrote since the given log offsets (multi-line entries count once). */
export function logIssuesSince(children: Child[], offsets: number[]): LogIssues {
  const result: LogIssues = { entries: 0, activityFailures: 0, storageActivityFailures: 0, samples: [] };
  const kinds = new Map<string, { text: string; count: number }>(); // in order of first appearance
  children.forEach((child, i) => {
    const fd = fs.openSync(child.logFile, 'r');
    const buf = Buffer.alloc(Math.max(0, logSize(child) - offsets[i]));
    fs.readSync(fd, buf, 0, buf.length, offsets[i]);
    fs.closeSync(fd);
    const entries: string[] = [];
    for (const line of buf.toString('utf8').replace(ANSI, '').split('\n')) {
      if (ENTRY_START.test(line) || entries.length === 0) entries.push(line);
      else entries[entries.length - 1] += `\n${line}`;
    }
    for (const e of entries.filter((x) => ISSUE.test(x))) {
      result.entries++;
      if (ACTIVITY_FAILURE.test(e)) result.activityFailures++;
      if (ACTIVITY_FAILURE.test(e) && STORAGE.test(e)) result.storageActivityFailures++;
      const text = `[${child.name}] ${summary(e).slice(0, 300)}`;
      const key = text.replace(/[0-9a-f-]{36}|\d+/g, '#');
      kinds.set(key, { text: kinds.get(key)?.text ?? text, count: (kinds.get(key)?.count ?? 0) + 1 });
    }
  });
  result.samples = [...kinds.values()].slice(0, 3).map((k) => `${k.count} x ${k.text}`);
  return result;
}

/** One line: a pino entry's msg and err.message, or a Temporal SDK entry's first line, activity type and error line. */
function summary(entry: string): string {
  const lines = entry.split('\n');
  try {
    const j = JSON.parse(lines[0]) as { level?: number; msg?: string; err?: { message?: string } };
    return `level ${j.level} ${j.msg ?? ''}${j.err?.message ? `: ${j.err.message}` : ''}`;
  } catch {
    const activity = /activityType: '([^']+)'/.exec(entry)?.[1];
    const at = lines.findIndex((l, i) => i > 0 && /error|Error:/.test(l));
    const error = at < 0 ? undefined : `${lines[at].trim()}${lines[at].endsWith(':') ? ` ${lines[at + 1]?.trim()}` : ''}`;
    const text = [lines[0].replace(/^\S+\s+/, '').replace(/ \{$/, ''), activity, error].filter(Boolean).join(' | ');
    return text.replace(/\[[\w.]+\.go:\d+ [^\]]*\] ?/g, ''); // FerretDB's Go call chain
  }
}
