// "Is a provider configured for this mode?", asked the one way by both surfaces before anything is stored
// (DESIGN: live without an accredited provider refuses submissions rather than queueing them blindly). Test mode
// always has one: the built-in simulator.
import { config, type Config } from '../config';
import { ServiceError } from '../domain/errors';

/** What each mode that needs an outside provider reads, and how its refusal reads. */
const NEEDS: Record<string, { setting: string; url: (cfg: Config) => string | null; refused: string }> = {
  live: { setting: 'PROVIDER_LIVE_URL', url: (cfg) => cfg.providerLiveUrl, refused: 'Live submissions are refused: this installation has no accredited provider configured' },
  sandbox: { setting: 'PROVIDER_SANDBOX_URL', url: (cfg) => cfg.providerSandboxUrl, refused: 'Sandbox submissions are refused: this installation has no sandbox provider configured' },
};

/** The setting this mode lacks (PROVIDER_LIVE_URL, PROVIDER_SANDBOX_URL), or null when it can deliver. */
export function missingProviderSetting(mode: string, cfg: Config = config()): string | null {
  const need = NEEDS[mode];
  return need && !need.url(cfg) ? need.setting : null;
}

/** 503 provider_not_configured when this mode has nowhere to deliver; nothing is stored before it is asked. */
export function assertProviderConfigured(mode: string): void {
  const missing = missingProviderSetting(mode);
  if (missing) {
    throw new ServiceError(503, 'provider_not_configured', 'Provider not configured', `${NEEDS[mode].refused} (${missing}). Nothing was stored; try again once it is configured.`);
  }
}
