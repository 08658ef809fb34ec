// Starts the ASP simulator from the environment and prints `{"url": ...}` on one line, so a launcher
// (npm start) can point PROVIDER_SANDBOX_URL at it:  tsx src/provider/simulator/main.ts
import { logger } from '../../logger';
import { createAspSimulator } from '.';

async function main(): Promise<void> {
  const env = process.env;
  const clientId = env.ASP_SIM_CLIENT_ID || 'einvoice-sandbox';
  const clientSecret = env.ASP_SIM_CLIENT_SECRET || 'einvoice-sandbox-secret';
  const sim = await createAspSimulator({
    port: env.ASP_SIM_PORT ? Number(env.ASP_SIM_PORT) : 0,
    clients: [{ clientId, clientSecret }],
    callbackUrl: env.ASP_SIM_CALLBACK_URL || undefined,
    callbackSecret: env.ASP_SIM_CALLBACK_SECRET || 'einvoice-sandbox-callback-secret',
    // the /_sim/* controls: off (404) unless a token is given
    controlToken: env.ASP_SIM_CONTROL_TOKEN || null,
  });
  process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void sim.stop().then(() => process.exit(0));
    });
  }
}

main().catch((err: unknown) => {
  logger.error({ err }, 'ASP simulator failed to start');
  process.exit(1);
});
