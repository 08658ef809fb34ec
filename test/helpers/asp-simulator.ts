import { resetConfig } from '../../src/config';
import { createAspSimulator, type AspSimulator } from '../../src/provider/simulator';
import { apiBase } from './http';
import { ensureWorker } from './worker';

/** Our OAuth client at the simulator, and the secret its callbacks are signed with. */
export const SIM_CLIENT = { clientId: 'einvoice-test', clientSecret: 'einvoice-test-secret' };
export const SIM_CALLBACK_SECRET = 'test-callback-secret';

const ENV = ['PROVIDER_CLIENT_ID', 'PROVIDER_CLIENT_SECRET', 'PROVIDER_CALLBACK_SECRET', 'ASP_ACK_FALLBACK_MS'];

/**
 * The ASP simulator as the provider of one mode (PROVIDER_LIVE_URL or PROVIDER_SANDBOX_URL), calling back into the
 * test API over real HTTP; the worker picks the configuration up at each call. Undo with stopAspSimulator.
 */
export async function startAspSimulator(urlVariable: 'PROVIDER_LIVE_URL' | 'PROVIDER_SANDBOX_URL'): Promise<AspSimulator> {
  const sim = await createAspSimulator({ clients: [SIM_CLIENT], callbackUrl: `${await apiBase()}/v1/provider/callbacks`, callbackSecret: SIM_CALLBACK_SECRET });
  Object.assign(process.env, {
    [urlVariable]: sim.url,
    PROVIDER_CLIENT_ID: SIM_CLIENT.clientId,
    PROVIDER_CLIENT_SECRET: SIM_CLIENT.clientSecret,
    PROVIDER_CALLBACK_SECRET: SIM_CALLBACK_SECRET,
    ASP_ACK_FALLBACK_MS: '400', // the polling unit; callbacks normally arrive well before
  });
  resetConfig();
  await ensureWorker();
  return sim;
}

export async function stopAspSimulator(sim: AspSimulator | undefined): Promise<void> {
  for (const name of [...ENV, 'PROVIDER_LIVE_URL', 'PROVIDER_SANDBOX_URL']) delete process.env[name];
  resetConfig();
  await sim?.stop();
}
