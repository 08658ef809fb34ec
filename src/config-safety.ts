// What production refuses to start with (NODE_ENV=production or EINVOICE_ENV=production). Every problem is
// returned, not just the first, so an operator fixes the environment in one pass; each names the variable, the
// rule and what to set instead. Pure: src/start-guard.ts prints and exits, the CLI refuses its command.
import { isIP } from 'node:net';
import type { Config } from './config';
import { sameSecret } from './credentials/secrets';
import { forbiddenAddressReason } from './webhooks/url-policy';

/** Which process asks: each is held to what it uses (the CLI signs no tokens and serves no metrics). */
export type StartRole = 'api' | 'worker' | 'cli';

/** HS256 keys shorter than the hash output (32 bytes) are guessable offline from any token (RFC 7518 3.2). */
export const MIN_JWT_SECRET_BYTES = 32;

const GENERATE = `e.g. node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

export function productionProblems(cfg: Config, role: StartRole): string[] {
  if (!cfg.production) return [];
  const problems: string[] = [];
  if (role === 'api') {
    if (cfg.jwtSecretIsRandom) {
      problems.push(`JWT_SECRET is not set: each API process would sign Tenant API tokens with its own random secret; set it to ${MIN_JWT_SECRET_BYTES}+ random bytes, the same for every API process (${GENERATE})`);
    } else if (bytes(cfg.jwtSecret) < MIN_JWT_SECRET_BYTES) {
      problems.push(`JWT_SECRET is ${bytes(cfg.jwtSecret)} bytes: production needs at least ${MIN_JWT_SECRET_BYTES}; set a longer random secret (${GENERATE})`);
    }
    if (cfg.jwtPreviousSecret && bytes(cfg.jwtPreviousSecret) < MIN_JWT_SECRET_BYTES) {
      problems.push(`JWT_PREVIOUS_SECRET is ${bytes(cfg.jwtPreviousSecret)} bytes: tokens it signed stay valid, so it needs at least ${MIN_JWT_SECRET_BYTES} too; unset it or set the previous JWT_SECRET`);
    }
  }
  const servesMetrics = role === 'api' || (role === 'worker' && cfg.workerMetricsPort !== null);
  if (servesMetrics && !cfg.metricsToken) {
    problems.push(`METRICS_TOKEN is not set: /metrics would be open to anyone who reaches the ${role === 'api' ? 'API' : "worker's metrics port"}; set a random token and have the scraper send it as Authorization: Bearer <token>`);
  }
  if (role !== 'cli') {
    const simulator = simulatorAsLiveProvider(cfg);
    if (simulator) {
      problems.push(`PROVIDER_LIVE_URL ${simulator}: live invoices would go to the ASP simulator, not the ASP; set the ASP's production URL (or leave it unset: live submissions are then refused with 503 provider_not_configured)`);
    }
  }
  if (role !== 'cli') problems.push(...sharedProviderSecrets(cfg));
  if (cfg.devAllowPrivateUrls) {
    problems.push('EINVOICE_DEV_ALLOW_PRIVATE_URLS=true is a development setting (webhook and status URLs on http and private addresses); unset it: production sends only to public https URLs');
  }
  return problems;
}

/**
 * Why PROVIDER_LIVE_URL looks like the ASP simulator, or null. The simulator is what PROVIDER_SANDBOX_URL points at
 * in every setup we ship, runs as the `asp-simulator` service in docker-compose.yml, and on this machine's
 * loopback under `npm start`; a real ASP is none of those.
 */
export function simulatorAsLiveProvider(cfg: Pick<Config, 'providerLiveUrl' | 'providerSandboxUrl'>): string | null {
  if (!cfg.providerLiveUrl) return null;
  const live = parse(cfg.providerLiveUrl);
  if (!live) return 'is not an absolute URL';
  const sandbox = cfg.providerSandboxUrl ? parse(cfg.providerSandboxUrl) : null;
  if (sandbox && sandbox.origin === live.origin) return `is the sandbox's (PROVIDER_SANDBOX_URL, ${live.origin})`;
  const host = live.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'asp-simulator') return 'names the asp-simulator service';
  if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && forbiddenAddressReason(host) === 'loopback')) return `is on loopback (${host}), where npm start runs the simulator`;
  return null;
}

/**
 * Live and sandbox must not share a secret: a shared callback secret lets a sandbox-signed callback pass for a live
 * document, and a shared client secret sends the live credential to the sandbox's URL.
 */
export function sharedProviderSecrets(
  cfg: Pick<Config, 'providerCallbackSecret' | 'providerSandboxCallbackSecret' | 'providerClientSecret' | 'providerSandboxClientSecret'>,
): string[] {
  const problems: string[] = [];
  if (cfg.providerCallbackSecret && sameSecret(cfg.providerCallbackSecret, cfg.providerSandboxCallbackSecret ?? '')) {
    problems.push('PROVIDER_CALLBACK_SECRET equals PROVIDER_SANDBOX_CALLBACK_SECRET: a callback signed by the sandbox would pass for a live document; give each mode the secret its own ASP environment signs with');
  }
  if (cfg.providerClientSecret && sameSecret(cfg.providerClientSecret, cfg.providerSandboxClientSecret)) {
    problems.push('PROVIDER_CLIENT_SECRET equals PROVIDER_SANDBOX_CLIENT_SECRET: the live credential would be sent to the sandbox; use the client the ASP issued for each environment');
  }
  return problems;
}

function parse(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
