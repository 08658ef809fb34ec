import { resetConfig } from '../../src/config';

/**
 * Runs `fn` with EINVOICE_DEV_ALLOW_PRIVATE_URLS set to `allow` (undefined: unset), then restores it. The root hooks
 * turn the setting on for the whole run (the tests' receivers listen on 127.0.0.1); refusal tests turn it off here.
 * The API under test, the in-process worker and a spawned CLI all read it from this process's environment.
 */
export async function withDevUrls<T>(allow: boolean | undefined, fn: () => T | Promise<T>): Promise<T> {
  const saved = process.env.EINVOICE_DEV_ALLOW_PRIVATE_URLS;
  setEnv(allow === undefined ? undefined : String(allow));
  try {
    return await fn();
  } finally {
    setEnv(saved);
  }
}

function setEnv(value: string | undefined): void {
  if (value === undefined) delete process.env.EINVOICE_DEV_ALLOW_PRIVATE_URLS;
  else process.env.EINVOICE_DEV_ALLOW_PRIVATE_URLS = value;
  resetConfig();
}
