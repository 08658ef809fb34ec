import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

/**
 * The ids a log line is about. The API opens one context per request (src/http/request-id.ts) and auth adds the
 * caller; the worker opens one per activity (activities/observability.ts). Every line written inside, by any
 * module through `logger`, carries them (pino `mixin`), so a service's warning names its request and invoice
 * without the logger being passed down.
 */
export interface LogContext {
  requestId?: string;
  partnerId?: string;
  smeId?: string;
  tenantId?: string;
  invoiceId?: string;
  workflowId?: string;
  /** Temporal run id of the workflow. */
  runId?: string;
  activity?: string;
  attempt?: number;
  deliveryId?: string;
}

const contexts = new AsyncLocalStorage<LogContext>();

/** Runs fn with a context of its own: the enclosing one's ids plus these. */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  return contexts.run({ ...contexts.getStore(), ...defined(fields) }, fn);
}

/** Adds ids to the current context (e.g. the partner once authenticated, the invoice once created); a no-op outside one. */
export function addLogContext(fields: LogContext): void {
  const store = contexts.getStore();
  if (store) Object.assign(store, defined(fields));
}

export function currentLogContext(): Readonly<LogContext> {
  return contexts.getStore() ?? {};
}

function defined(fields: LogContext): LogContext {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null && v !== '') out[k] = typeof v === 'object' ? String(v) : v;
  return out as LogContext;
}

/**
 * Never logged: credentials in headers and bodies (a whole `headers` object or a credential field passed by
 * mistake is censored, not printed). Paths are pino's (fast-redact): one level of `*` each.
 */
export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'headers["x-api-secret"]',
  'headers["x-api-key"]',
  'headers["x-erp-partner-secret"]',
  'headers.cookie',
  '*.authorization',
  '*.headers.authorization',
  '*.headers["x-api-secret"]',
  '*.headers["x-api-key"]',
  '*.headers["x-erp-partner-secret"]',
  '*.headers.cookie',
  'clientSecret',
  '*.clientSecret',
  'secret',
  '*.secret',
  'apiSecret',
  '*.apiSecret',
  'connectionSecret',
  '*.connectionSecret',
  'webhookSecret',
  '*.webhookSecret',
  'previousWebhookSecret',
  '*.previousWebhookSecret',
  'password',
  '*.password',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
];

type Tap = (line: string) => void;
const taps = new Set<Tap>();
let out = pino.destination({ fd: 1, sync: true });

/** The CLI's stdout carries the command's JSON: it sends logs to stderr instead. */
export function logToStderr(): void {
  out = pino.destination({ fd: 2, sync: true });
}

/** Writes to stdout (stderr for the CLI); taps (tests reading the log) see each line too. */
const destination = {
  write(line: string): void {
    out.write(line);
    for (const tap of taps) tap(line);
  },
};

/** Every JSON line the process logs from now until the returned stop(), parsed (tests). */
export function tapLogLines(): { lines: Record<string, unknown>[]; stop(): void } {
  const lines: Record<string, unknown>[] = [];
  const tap: Tap = (line) => lines.push(JSON.parse(line) as Record<string, unknown>);
  taps.add(tap);
  return { lines, stop: () => taps.delete(tap) };
}

/** JSON logs; request, caller, invoice and workflow ids come from the current LogContext. */
export const logger = pino(
  {
    level: process.env.LOG_LEVEL || 'info',
    base: { pid: process.pid },
    // A copy: pino merges the line's own fields into the object it gets (they win over the context's).
    mixin: () => ({ ...contexts.getStore() }),
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  },
  destination,
);
