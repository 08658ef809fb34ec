// The entry points' first step: in production, refuse to start with an unsafe configuration (config-safety.ts),
// printing every problem; outside production, start as before but say so when tokens are signed with a random secret.
import { config, type Config } from './config';
import { productionProblems, type StartRole } from './config-safety';
import { logger } from './logger';

export function guardStart(role: Exclude<StartRole, 'cli'>): void {
  let cfg: Config;
  try {
    cfg = config();
  } catch (err) {
    // A malformed variable (e.g. EINVOICE_DEV_ALLOW_PRIVATE_URLS=yes): its one-line message, not a stack trace.
    process.stderr.write(`einvoice ${role}: cannot start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const problems = productionProblems(cfg, role);
  if (problems.length > 0) {
    // Plain lines on stderr for the operator reading the container's output, and one log record for the collector.
    process.stderr.write(`einvoice ${role}: refusing to start in production (NODE_ENV or EINVOICE_ENV is "production"):\n${problems.map((p) => `  - ${p}\n`).join('')}`);
    logger.fatal({ problems }, `${role} refused to start: unsafe production configuration`);
    process.exit(1);
  }
  if (role === 'api' && cfg.jwtSecretIsRandom) {
    logger.warn('JWT_SECRET is not set: Tenant API tokens are signed with a random secret of this process (they stop working when it restarts, and other API processes refuse them); set JWT_SECRET to 32+ random bytes');
  }
}
