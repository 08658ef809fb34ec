// The fault suite's stack (npm run test:faults): the API (`src/server.ts`) and the worker (`src/worker.ts`) as real
// child processes, as bench:e2e starts them (scripts/bench/e2e-procs.ts), against the servers the mocha root hooks
// provisioned for the run (fresh, on free ports). The test process keeps the store connection of the root hooks to
// set up partners and count invoices. Each child writes to a log file in a temp dir (printed on failure).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startChild, waitForApi, waitForWorker, type Child } from '../bench/e2e-procs';
import { freePort } from '../infra/net';

// Each child process registers an exit listener (killed with us); a suite restarts more than ten of them.
process.setMaxListeners(Math.max(process.getMaxListeners(), 50));

export interface FaultStack {
  base: string;
  /** The API's admin listener (src/server.ts serves the admin API apart from the public port). */
  adminBase: string;
  port: number;
  env: NodeJS.ProcessEnv;
  logDir: string;
  api: Child;
  worker: Child;
  /** kill -9 of the worker's process group (tsx and the node it runs); resolves once it is gone. */
  killWorker(): Promise<void>;
  /** A new worker process on the same task queue, ready once it polls. */
  startWorker(): Promise<void>;
  /** kill -9 of the API's process group; resolves once it is gone. */
  killApi(): Promise<void>;
  /** A new API process on the same port, ready once /health answers. */
  startApi(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the API on `port` (pick it with freePort() when the ASP simulator must call it back) and a worker, on a
 * task queue of their own, with `extraEnv` on top of the run's (MONGODB_URI, TEMPORAL_ADDRESS from the root hooks).
 */
export async function startFaultStack(extraEnv: NodeJS.ProcessEnv, port?: number): Promise<FaultStack> {
  const apiPort = port ?? (await freePort());
  const adminPort = await freePort();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-faults-'));
  const taskQueue = `einvoice-faults-${randomUUID().slice(0, 8)}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEMPORAL_TASK_QUEUE: taskQueue,
    PORT: String(apiPort),
    ADMIN_PORT: String(adminPort),
    LOG_LEVEL: 'warn',
    WORKER_METRICS_PORT: 'off',
    ...extraEnv,
  };
  const base = `http://127.0.0.1:${apiPort}`;
  let workers = 0;
  let apis = 0;
  const stack: FaultStack = {
    base,
    adminBase: `http://127.0.0.1:${adminPort}`,
    port: apiPort,
    env,
    logDir,
    api: startChild(`api-${++apis}`, 'src/server.ts', env, logDir),
    worker: startChild(`worker-${++workers}`, 'src/worker.ts', env, logDir),
    killWorker: () => killGroup(stack.worker),
    async startWorker() {
      stack.worker = startChild(`worker-${++workers}`, 'src/worker.ts', env, logDir);
      await waitForWorker(env.TEMPORAL_ADDRESS!, taskQueue, stack.worker);
    },
    killApi: () => killGroup(stack.api),
    async startApi() {
      stack.api = startChild(`api-${++apis}`, 'src/server.ts', env, logDir);
      await waitForApi(base, stack.api);
    },
    async stop() {
      await Promise.all([stack.api.stop(), stack.worker.stop()]);
    },
  };
  try {
    await waitForApi(base, stack.api);
    await waitForWorker(env.TEMPORAL_ADDRESS!, taskQueue, stack.worker);
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
}

/** kill -9 of a child's process group; resolves once the whole group is gone (tsx and the node it runs). */
async function killGroup(child: Child): Promise<void> {
  const { proc } = child;
  const gone = new Promise<void>((resolve) => (proc.exitCode !== null || proc.signalCode !== null ? resolve() : proc.once('exit', () => resolve())));
  process.kill(-proc.pid!, 'SIGKILL');
  await gone;
  const groupGone = async () => {
    try {
      process.kill(-proc.pid!, 0);
      return false;
    } catch {
      return true;
    }
  };
  await until(`process group ${proc.pid} gone after SIGKILL`, groupGone, 10_000, 50);
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<JsonResponse> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID(), ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it is true; throws with `what` after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs: number, intervalMs = 1000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export type FaultAnswer = { status: number; headers?: Record<string, string>; body?: string } | null;

/**
 * A reverse proxy in front of another HTTP server (the ASP simulator): `fault()` is asked for each request and
 * either answers it itself (a 5xx, a 429 with Retry-After) or returns null to pass it through.
 */
export async function faultProxy(target: string, fault: (req: http.IncomingMessage) => FaultAnswer): Promise<{ url: string; counts: Map<number, number>; stop(): Promise<void> }> {
  const counts = new Map<number, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = fault(req);
      if (answer) {
        counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
        res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers }).end(answer.body ?? JSON.stringify({ error: 'fault injected' }));
        return;
      }
      counts.set(0, (counts.get(0) ?? 0) + 1); // passed through
      const headers = { ...req.headers };
      delete headers.host;
      fetch(target + (req.url ?? '/'), { method: req.method, headers: headers as Record<string, string>, body: chunks.length ? Buffer.concat(chunks) : undefined })
        .then(async (upstream) => {
          const out: Record<string, string> = {};
          upstream.headers.forEach((v, k) => {
            if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(k)) out[k] = v;
          });
          res.writeHead(upstream.status, out).end(Buffer.from(await upstream.arrayBuffer()));
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    stop: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
