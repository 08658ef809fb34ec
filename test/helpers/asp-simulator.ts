import { resetConfig } from '../../src/config';
import { createAspSimulator, type AspSimulator } from '../../src/provider/simulator';
import { apiBase } from './http';
import { ensureWorker } from './worker';

/** Our OAuth client at the live ASP, and the secret its callbacks are signed with. */
export const SIM_CLIENT = { clientId: 'einvoice-test', clientSecret: 'einvoice-test-secret' };
export const SIM_CALLBACK_SECRET = 'test-callback-secret';
/** The sandbox's own: the live ones never go to the sandbox, and its callbacks speak only for sandbox documents. */
export const SIM_SANDBOX_CLIENT = { clientId: 'einvoice-test-sandbox', clientSecret: 'einvoice-test-sandbox-secret' };
export const SIM_SANDBOX_CALLBACK_SECRET = 'test-sandbox-callback-secret';
/** The simulator's /_sim/* controls want it as a bearer token. */
export const SIM_CONTROL_TOKEN = 'test-sim-control-token';

const SETTINGS = {
  PROVIDER_LIVE_URL: { client: SIM_CLIENT, callbackSecret: SIM_CALLBACK_SECRET, id: 'PROVIDER_CLIENT_ID', secret: 'PROVIDER_CLIENT_SECRET', callback: 'PROVIDER_CALLBACK_SECRET' },
  PROVIDER_SANDBOX_URL: { client: SIM_SANDBOX_CLIENT, callbackSecret: SIM_SANDBOX_CALLBACK_SECRET, id: 'PROVIDER_SANDBOX_CLIENT_ID', secret: 'PROVIDER_SANDBOX_CLIENT_SECRET', callback: 'PROVIDER_SANDBOX_CALLBACK_SECRET' },
} as const;

const ENV: string[] = [...Object.values(SETTINGS).flatMap((s) => [s.id, s.secret, s.callback]), 'ASP_ACK_FALLBACK_MS', 'PROVIDER_LIVE_URL', 'PROVIDER_SANDBOX_URL'];

/**
 * The ASP simulator as the provider of one mode (PROVIDER_LIVE_URL or PROVIDER_SANDBOX_URL) with that mode's own
 * credentials and callback secret, calling back into the test API over real HTTP; the worker picks the
 * configuration up at each call. Undo with stopAspSimulator.
 */
export async function startAspSimulator(urlVariable: 'PROVIDER_LIVE_URL' | 'PROVIDER_SANDBOX_URL'): Promise<AspSimulator> {
  const s = SETTINGS[urlVariable];
  const sim = await createAspSimulator({ clients: [s.client], callbackUrl: `${await apiBase()}/v1/provider/callbacks`, callbackSecret: s.callbackSecret, controlToken: SIM_CONTROL_TOKEN });
  Object.assign(process.env, {
    [urlVariable]: sim.url,
    [s.id]: s.client.clientId,
    [s.secret]: s.client.clientSecret,
    [s.callback]: s.callbackSecret,
    ASP_ACK_FALLBACK_MS: '400', // the polling unit; callbacks normally arrive well before
  });
  resetConfig();
  await ensureWorker();
  return sim;
}

export async function stopAspSimulator(sim: AspSimulator | undefined): Promise<void> {
  for (const name of ENV) delete process.env[name];
  resetConfig();
  await sim?.stop();
}
