import { randomBytes } from 'node:crypto';
import { DEFAULT_RETENTION_YEARS, parseRetentionYears } from './records/retention';
// Every environment variable the service reads, parsed once, with defaults.
export interface Config {
  port: number;
  mongodbUri: string;
  temporalAddress: string;
  temporalNamespace: string;
  temporalTaskQueue: string;
  providerLiveUrl: string | null;
  /** Our credentials at the live ASP (its OAuth client); never sent to the sandbox. */
  providerClientId: string;
  providerClientSecret: string;
  /** The live ASP signs its status callbacks with this secret (X-ASP-Signature): accepted only for live documents. */
  providerCallbackSecret: string | null;
  adminToken: string | null;
  /** The admin API's own listener, never the public port (loopback unless told otherwise). */
  adminPort: number;
  adminHost: string;
  /** X-Forwarded-For entries to trust, counted from the right (TRUST_PROXY: false = 0, true = 1, or a number). */
  trustProxyHops: number;
  /** Failed authentications one client address may make per window; past it every attempt is 429 unchecked. */
  authFailureLimit: number;
  authFailureWindowMs: number;
  /** Node's HTTP server limits for the API and admin listeners (src/http/server-limits.ts). */
  httpHeadersTimeoutMs: number;
  httpRequestTimeoutMs: number;
  httpKeepAliveTimeoutMs: number;
  httpMaxConnections: number;
  /** Signs the Tenant API's bearer tokens (HS256). Unset: a random secret per process (tokens die with it). */
  jwtSecret: string;
  /** JWT_SECRET was unset and `jwtSecret` is this process's random one (refused in production, warned elsewhere). */
  jwtSecretIsRandom: boolean;
  /** The secret before the last JWT rotation: tokens it signed keep verifying until they expire; never signs. */
  jwtPreviousSecret: string | null;
  /** NODE_ENV=production or EINVOICE_ENV=production: the API and the worker refuse unsafe settings (config-safety.ts). */
  production: boolean;
  /** Development only (`npm start`, the tests): webhook and status URLs may use http and private or loopback addresses. */
  devAllowPrivateUrls: boolean;
  /** The ASP's sandbox (Tenant API sandbox mode); `npm start` points it at the local ASP simulator. */
  providerSandboxUrl: string | null;
  /** Our credentials at the ASP's sandbox: their own, so the live client secret never goes to the sandbox URL. */
  providerSandboxClientId: string;
  providerSandboxClientSecret: string;
  /** The sandbox signs its callbacks with this secret: it is accepted only for sandbox documents. */
  providerSandboxCallbackSecret: string | null;
  /** Waits before each webhook retry, in milliseconds. */
  webhookRetryScheduleMs: number[];
  pintAeSchematronDir: string | null;
  /** Time budget for the official Schematron pass, in milliseconds. */
  schematronBudgetMs: number;
  defaultRateLimitPerMinute: number;
  /** Test mode: how long the simulated ASP takes to acknowledge a delivered invoice, in milliseconds. */
  simulatedAspAckDelayMs: number;
  /** How long an invoice workflow waits for the ASP's callback before its first poll, in milliseconds (the ASP schedule's unit). */
  aspAckFallbackMs: number;
  /** Set: /metrics (API and worker) wants `Authorization: Bearer <token>`. Unset: open. */
  metricsToken: string | null;
  /** The worker's own /metrics port (its business metrics and the Temporal SDK's); null: not served. */
  workerMetricsPort: number | null;
  /** The interface the worker's /metrics listens on; loopback unless told otherwise (e.g. 0.0.0.0 in a container). */
  workerMetricsHost: string;
  /** Years tax records are kept after the end of their issue date's calendar year (src/records/retention.ts). */
  recordsRetentionYears: number;
}

/** 30 s, 2 min, 10 min, 30 min, 1 h, 3 h: the product owner's "30 s to 3 h" webhook backoff. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000];

const processJwtSecret = randomBytes(32).toString('base64url');

function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: int(env, 'PORT', 3000),
    mongodbUri: env.MONGODB_URI || 'mongodb://127.0.0.1:27017/einvoice',
    temporalAddress: env.TEMPORAL_ADDRESS || '127.0.0.1:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    temporalTaskQueue: env.TEMPORAL_TASK_QUEUE || 'einvoice',
    providerLiveUrl: env.PROVIDER_LIVE_URL || null,
    providerClientId: env.PROVIDER_CLIENT_ID || '',
    providerClientSecret: env.PROVIDER_CLIENT_SECRET || '',
    providerCallbackSecret: env.PROVIDER_CALLBACK_SECRET || null,
    adminToken: env.ADMIN_TOKEN || null,
    adminPort: int(env, 'ADMIN_PORT', 3001),
    adminHost: env.ADMIN_HOST || '127.0.0.1',
    trustProxyHops: proxyHops(env.TRUST_PROXY),
    authFailureLimit: int(env, 'AUTH_FAILURE_LIMIT', 30),
    authFailureWindowMs: int(env, 'AUTH_FAILURE_WINDOW_MS', 15 * 60_000),
    // Slow-header clients get 20 s; a whole request 5 min: a 5 MB upload (the largest: CSV, XML) at ~140 kbit/s.
    httpHeadersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', 20_000),
    httpRequestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', 300_000),
    // Longer than a load balancer's idle timeout (60 s on the common ones), so the balancer closes first.
    httpKeepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000),
    httpMaxConnections: int(env, 'HTTP_MAX_CONNECTIONS', 1024),
    jwtSecret: env.JWT_SECRET || processJwtSecret,
    jwtSecretIsRandom: !env.JWT_SECRET,
    jwtPreviousSecret: env.JWT_PREVIOUS_SECRET || null,
    production: env.NODE_ENV === 'production' || env.EINVOICE_ENV === 'production',
    devAllowPrivateUrls: flag(env, 'EINVOICE_DEV_ALLOW_PRIVATE_URLS'),
    providerSandboxUrl: env.PROVIDER_SANDBOX_URL || null,
    providerSandboxClientId: env.PROVIDER_SANDBOX_CLIENT_ID || '',
    providerSandboxClientSecret: env.PROVIDER_SANDBOX_CLIENT_SECRET || '',
    providerSandboxCallbackSecret: env.PROVIDER_SANDBOX_CALLBACK_SECRET || null,
    webhookRetryScheduleMs: schedule(env.WEBHOOK_RETRY_SCHEDULE),
    pintAeSchematronDir: env.PINT_AE_SCHEMATRON_DIR || null,
    schematronBudgetMs: int(env, 'PINT_AE_SCHEMATRON_BUDGET_MS', 10_000),
    defaultRateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 600),
    simulatedAspAckDelayMs: int(env, 'SIMULATED_ASP_ACK_DELAY_MS', 300),
    aspAckFallbackMs: int(env, 'ASP_ACK_FALLBACK_MS', 30_000),
    metricsToken: env.METRICS_TOKEN || null,
    workerMetricsPort: !env.WORKER_METRICS_PORT || env.WORKER_METRICS_PORT === 'off' ? null : int(env, 'WORKER_METRICS_PORT', 9464),
    workerMetricsHost: env.WORKER_METRICS_HOST || '127.0.0.1',
    recordsRetentionYears: env.RECORDS_RETENTION_YEARS ? parseRetentionYears(env.RECORDS_RETENTION_YEARS, 'RECORDS_RETENTION_YEARS') : DEFAULT_RETENTION_YEARS,
  };
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** "true" or "false" (unset or empty: false); anything else is refused rather than guessed. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new Error(`${name} must be "true" or "false", got "${raw}"`);
}

/** TRUST_PROXY: unset or "false" trusts no X-Forwarded-For; "true" one proxy hop; a number that many hops. */
export function proxyHops(raw: string | undefined): number {
  if (raw === undefined || raw === '' || raw === 'false') return 0;
  if (raw === 'true') return 1;
  if (/^\d+$/.test(raw)) return Number(raw);
  throw new Error(`TRUST_PROXY must be "false", "true" (one proxy) or the number of proxies in front of the API, got "${raw}"`);
}

/** "30s,2m,10m" or "30000,120000" (plain numbers are milliseconds). */
export function schedule(raw: string | undefined): number[] {
  if (!raw) return DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS;
  return raw.split(',').map((part) => {
    const m = /^\s*(\d+)\s*(ms|s|m|h)?\s*$/.exec(part);
    if (!m) throw new Error(`WEBHOOK_RETRY_SCHEDULE: cannot read "${part}" (use e.g. 30s,2m,10m,30m,1h,3h)`);
    const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 'ms') as 'ms' | 's' | 'm' | 'h'];
    return Number(m[1]) * unit;
  });
}

let cached: Config | undefined;
/** The process-wide configuration (tests reset it after changing the environment). */
export function config(): Config {
  return (cached ??= loadConfig());
}
export function resetConfig(): void {
  cached = undefined;
}
