// The official PINT-AE Schematron (a directory of its compiled .sef.json files), run in a worker thread with a
// time budget: a document costs far more CPU than the native rules, which must not block the caller's event loop,
// and a pathological one must not hold the caller. Past the budget the caller continues on the native verdict
// and records a warning.
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface SchematronFinding {
  id: string;
  flag: string;
  location: string;
  text: string;
}

export type SchematronOutcome =
  | { kind: 'checked'; fatal: SchematronFinding[]; warning: SchematronFinding[]; ms: number }
  | { kind: 'over_budget'; budgetMs: number }
  | { kind: 'error'; message: string };

interface Job {
  id: number;
  xml: string;
  settle: (outcome: SchematronOutcome) => void;
  startedAt?: number;
}

/** One thread per Schematron directory, one document at a time; jobs queue in order. */
class SchematronThread {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private running: Job | undefined;
  private nextId = 1;

  constructor(private readonly dir: string) {}

  check(xml: string, budgetMs: number): Promise<SchematronOutcome> {
    return new Promise((resolve) => {
      let settled = false;
      const job: Job = {
        id: this.nextId++,
        xml,
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(outcome);
        },
      };
      // The budget covers waiting and running: it is how long the pipeline is willing to wait for this verdict.
      const timer = setTimeout(() => this.expire(job, budgetMs), budgetMs);
      timer.unref();
      this.queue.push(job);
      this.pump();
    });
  }

  private expire(job: Job, budgetMs: number): void {
    job.settle({ kind: 'over_budget', budgetMs });
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (this.running === job) {
      // A transform cannot be interrupted from outside: drop the thread; the next job starts a fresh one.
      this.running = undefined;
      void this.worker?.terminate();
      this.worker = undefined;
      this.pump();
    }
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    const job = this.queue.shift()!;
    this.running = job;
    job.startedAt = Date.now();
    this.thread().postMessage({ id: job.id, xml: job.xml });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(path.join(__dirname, 'thread.cjs'), { workerData: { dir: this.dir } });
    worker.unref();
    worker.on('message', (msg: { id: number; fatal?: SchematronFinding[]; warning?: SchematronFinding[]; error?: string }) => {
      const job = this.running;
      if (!job || job.id !== msg.id) return;
      this.running = undefined;
      job.settle(msg.error ? { kind: 'error', message: msg.error } : { kind: 'checked', fatal: msg.fatal ?? [], warning: msg.warning ?? [], ms: Date.now() - job.startedAt! });
      this.pump();
    });
    worker.on('error', (err) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const job = this.running;
      this.running = undefined;
      job?.settle({ kind: 'error', message: err.message });
      this.pump();
    });
    this.worker = worker;
    return worker;
  }
}

const threads = new Map<string, SchematronThread>();

/** Runs both official Schematron files over xml; never throws, never blocks the event loop longer than a message post. */
export function runOfficialSchematron(xml: string, opts: { dir: string; budgetMs: number }): Promise<SchematronOutcome> {
  let thread = threads.get(opts.dir);
  if (!thread) threads.set(opts.dir, (thread = new SchematronThread(opts.dir)));
  return thread.check(xml, opts.budgetMs);
}
