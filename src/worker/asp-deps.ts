// The worker's dependencies: which ASP answers in each mode. Only the worker's entry wires them (src/temporal/
// holds the contract and the client, and imports nothing from activities/ or src/provider).
import type { ActivityDeps } from '../../activities';
import { config, type Config } from '../config';
import { unavailableAsp, type AspClient } from '../provider/asp';
import type { Submission } from '../provider/asp-api';
import { aspHttpClient } from '../provider/asp-http-client';
import { simulatedAsp } from '../provider/simulated-asp';
import { recordAnswer } from '../services/asp-evidence';
import { signalAspVerdict } from '../temporal/client';
import type { AspVerdict } from '../temporal/contract';

/**
 * The worker's dependencies: test mode's built-in ASP, which answers through the invoice workflow's signal
 * (SPEC: test mode never calls a provider); live mode's ASP over HTTP at PROVIDER_LIVE_URL and the Tenant API's
 * sandbox at PROVIDER_SANDBOX_URL, which answer through signed callbacks (POST /v1/provider/callbacks) and polls.
 */
export function defaultActivityDeps(): ActivityDeps {
  return {
    asp: {
      test: simulatedAsp({ ackDelayMs: config().simulatedAspAckDelayMs, notify: recordThenSignal }),
      live: configuredAsp('PROVIDER_LIVE_URL', (cfg) => ({ url: cfg.providerLiveUrl, clientId: cfg.providerClientId, clientSecret: cfg.providerClientSecret })),
      sandbox: configuredAsp('PROVIDER_SANDBOX_URL', (cfg) => ({ url: cfg.providerSandboxUrl, clientId: cfg.providerSandboxClientId, clientSecret: cfg.providerSandboxClientSecret })),
    },
  };
}

/** The simulated ASP's verdict: evidence first (the workflow confirms a signal against it), then the signal. */
async function recordThenSignal(invoiceId: string, verdict: AspVerdict, answer: Submission): Promise<void> {
  await recordAnswer(answer, 'simulated');
  await signalAspVerdict(invoiceId, verdict);
}

/**
 * An ASP over HTTP at a configured URL with that mode's own credentials (the live secret never goes to the
 * sandbox URL), resolved from the configuration at each call (one client, and so one token, per URL and
 * credentials), so a changed configuration needs no new worker. Without a URL the API refuses submissions in
 * that mode, and a delivery that reaches here anyway is refused too.
 */
function configuredAsp(variable: string, settingsOf: (cfg: Config) => { url: string | null; clientId: string; clientSecret: string }): AspClient {
  let current: { key: string; client: AspClient } | null = null;
  const resolve = (): AspClient => {
    const { url, clientId, clientSecret } = settingsOf(config());
    if (!url) return unavailableAsp(`no accredited provider is configured (${variable})`);
    const key = `${url}\u0000${clientId}\u0000${clientSecret}`;
    if (current?.key !== key) current = { key, client: aspHttpClient({ baseUrl: url, clientId, clientSecret }) };
    return current.client;
  };
  return { submit: (doc) => resolve().submit(doc), poll: (req) => resolve().poll(req) };
}
