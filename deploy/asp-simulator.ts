// The sandbox ASP (src/provider/simulator) as a container: the same simulator `npm start` runs, listening on all
// interfaces of the container (src/provider/simulator/main.ts binds loopback, which no other container reaches).
//   node --import tsx deploy/asp-simulator.ts      (ASP_SIM_PORT, ASP_SIM_CLIENT_ID, ASP_SIM_CLIENT_SECRET,
//                                                   ASP_SIM_CALLBACK_URL, ASP_SIM_CALLBACK_SECRET,
//                                                   ASP_SIM_CONTROL_TOKEN)
// It is the sandbox only: give it the PROVIDER_SANDBOX_* credentials, never the live ones. Its /_sim/* controls
// (scenarios) want ASP_SIM_CONTROL_TOKEN as a bearer token and are off (404) without it; /_sim/health is open.
import { logger } from '../src/logger';
import { createAspSimulator } from '../src/provider/simulator';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set (the service's PROVIDER_* counterpart)`);
  return value;
}

async function main(): Promise<void> {
  const env = process.env;
  const sim = await createAspSimulator({
    host: env.ASP_SIM_HOST || '0.0.0.0',
    port: Number(env.ASP_SIM_PORT || 4010),
    clients: [{ clientId: required('ASP_SIM_CLIENT_ID'), clientSecret: required('ASP_SIM_CLIENT_SECRET') }],
    callbackUrl: env.ASP_SIM_CALLBACK_URL || undefined,
    callbackSecret: required('ASP_SIM_CALLBACK_SECRET'),
    controlToken: env.ASP_SIM_CONTROL_TOKEN || null,
  });
  logger.info({ port: sim.port, callbackUrl: env.ASP_SIM_CALLBACK_URL || null, controls: env.ASP_SIM_CONTROL_TOKEN ? 'on' : 'off' }, 'ASP simulator listening');
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
