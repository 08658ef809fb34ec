// Progress lines for provisioning: a first build takes minutes, so say what is happening.
export function say(message: string): void {
  process.stderr.write(`[infra] ${message}\n`);
}

/** A provisioning step that failed, with the step's name and what to install to fix it. */
export class ProvisioningError extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly remedy: string,
  ) {
    super(`${step}: ${message}\n  -> ${remedy}`);
    this.name = 'ProvisioningError';
  }
}
