// `npm start`: the whole local stack in one command. Starts (or reuses) Temporal with its Web UI and a
// MongoDB-compatible server, then the worker and the API as child processes, seeds a test partner once,
// and prints credentials and ready-to-paste curl commands. Ctrl-C stops what this process started, only that.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DATA_DIR, provisionInfra, ProvisioningError, type Infra } from '../scripts/infra';
import { killOnExit, stopChild } from '../scripts/infra/process';
import { waitUntil } from '../scripts/infra/net';
import { connectMongo, disconnectMongo } from './db/connection';
import { seedOnce, type SeedCredentials } from './dev/seed';
import { createAspSimulator, type AspSimulator } from './provider/simulator';
import { PARTNER_WEBHOOK_PATH, startDevReceiver, TENANT_STATUS_PATH, type DevReceiver } from './dev/webhook-receiver';

const ROOT = path.resolve(__dirname, '..');

async function main(): Promise<void> {
  // The seeded partner's webhook URL and the tenant's status URL are this machine's http://127.0.0.1 receiver:
  // the development setting allows them, here (the seed) and in the API and worker children (their env below).
  process.env.EINVOICE_DEV_ALLOW_PRIVATE_URLS = 'true';
  const port = Number(process.env.PORT || 3000);
  const infra = await provisionInfra('dev');
  // The sandbox ASP: the simulator, over real HTTP, with signed callbacks to the API (the Tenant API's sandbox
  // mode delivers to PROVIDER_SANDBOX_URL). Sandbox credentials only: it is never the live provider.
  const sandbox = await createAspSimulator({
    port: Number(process.env.ASP_SIM_PORT || 0),
    clients: [{ clientId: SANDBOX.clientId, clientSecret: SANDBOX.clientSecret }],
    callbackUrl: `http://127.0.0.1:${port}/v1/provider/callbacks`,
    callbackSecret: SANDBOX.callbackSecret,
    controlToken: SANDBOX.controlToken,
  });
  const children: ChildProcess[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping...');
    await Promise.all(children.map((c) => stopChild(c)));
    await sandbox.stop();
    await receiver.stop();
    await infra.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    MONGODB_URI: infra.mongo.uri,
    TEMPORAL_ADDRESS: infra.temporal.address,
    PROVIDER_SANDBOX_URL: sandbox.url,
    PROVIDER_SANDBOX_CLIENT_ID: SANDBOX.clientId,
    PROVIDER_SANDBOX_CLIENT_SECRET: SANDBOX.clientSecret,
    PROVIDER_SANDBOX_CALLBACK_SECRET: SANDBOX.callbackSecret,
  };
  // The seeded partner's webhook URL and the seeded tenant's status URL: one local receiver prints each event it
  // receives as `[webhook] …` / `[status-update] …`, with its signature checked against that owner's secret.
  let partnerSecret: string | null = null;
  let tenantSecret: string | null = null;
  const receiver = await startDevReceiver({
    port: Number(process.env.WEBHOOK_RECEIVER_PORT || process.env.STATUS_RECEIVER_PORT || 0),
    routes: {
      [PARTNER_WEBHOOK_PATH]: { label: 'webhook', secret: () => partnerSecret },
      [TENANT_STATUS_PATH]: { label: 'status-update', secret: () => tenantSecret },
    },
    print: (line) => process.stdout.write(`${line}\n`),
  });
  await connectMongo(infra.mongo.uri);
  const creds = await seedOnce(DATA_DIR, { webhookUrl: receiver.url(PARTNER_WEBHOOK_PATH), statusUrl: receiver.url(TENANT_STATUS_PATH) });
  partnerSecret = creds.webhookSecret;
  tenantSecret = creds.tenant?.webhookSecret ?? null;
  await disconnectMongo();

  for (const [name, entry] of [['worker', 'src/worker.ts'], ['api', 'src/server.ts']] as const) {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    prefixOutput(child, name);
    killOnExit(child);
    child.once('exit', (code, signal) => {
      if (!stopping) {
        console.error(`[${name}] exited (${signal ?? code}); stopping the stack`);
        void stop(1);
      }
    });
    children.push(child);
  }
  const up = await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok === true, 60_000, 300);
  if (!up) {
    console.error(`The API did not answer on port ${port} within 60 s; see the [api] lines above.`);
    return stop(1);
  }
  printWelcome(infra, port, creds, sandbox, receiver);
}

/** Development credentials between the service and its local sandbox ASP; a real provider issues its own. */
const SANDBOX = {
  clientId: 'einvoice-sandbox',
  clientSecret: 'einvoice-sandbox-secret',
  callbackSecret: 'einvoice-sandbox-callback-secret',
  // the /_sim/* controls (steer sandbox outcomes): this start's own token unless one is given
  controlToken: process.env.ASP_SIM_CONTROL_TOKEN || randomBytes(18).toString('base64url'),
};

function prefixOutput(child: ChildProcess, name: string): void {
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
}

function printWelcome(infra: Infra, port: number, c: SeedCredentials, sandbox: AspSimulator, receiver: DevReceiver): void {
  const base = `http://localhost:${port}`;
  const auth = `-H 'X-API-Key: ${c.apiKey}' -H 'X-API-Secret: ${c.apiSecret}'`;
  console.log(`
Invoice Submission Service is up.
  API            ${base}   (health: ${base}/healthz, readiness: ${base}/readyz)
  Admin API      ${adminLine()}
  Temporal       ${infra.temporal.address}${infra.temporal.started ? '' : ' (reused)'}
  Temporal UI    ${infra.temporal.uiUrl ?? 'http://localhost:8233 (reused server: its own UI)'}
  MongoDB        ${infra.mongo.uri}${infra.mongo.started ? ` (${path.basename(infra.mongo.how)})` : ' (reused)'}
  Sandbox ASP    ${sandbox.url}   (simulator; PROVIDER_SANDBOX_URL of the API and worker; /_sim controls: Authorization: Bearer ${SANDBOX.controlToken})
  Webhooks       ${receiver.base}   (local receiver: prints each signed event below as [webhook] / [status-update])

Test partner (mode test), seeded once and kept in .data/seed-credentials.json:
  partnerId             ${c.partnerId}
  X-API-Key             ${c.apiKey}
  X-API-Secret          ${c.apiSecret}
  webhook URL           ${receiver.url(PARTNER_WEBHOOK_PATH)}   (set each start; events print as [webhook])
  webhook secret        ${c.webhookSecret}
  SME TRN               ${c.trn}
  x-erp-partner-secret  ${c.connectionSecret}

Try:
  curl -s ${base}/v1/partner/ping ${auth}
  curl -s ${base}/v1/partner/whoami ${auth}
then the README's "Walk-through with curl" (sh; needs curl, jq and node) or \`npx tsx examples/partner-client.ts\`:
after its POST a signed invoice.status_changed prints here as [webhook] signature ok {...}.
${tenantWelcome(base, c, receiver)}
Ctrl-C stops everything this command started.`);
}

/** The admin API listens apart from the public port (src/server.ts), only when ADMIN_TOKEN is set. */
function adminLine(): string {
  const url = `http://${process.env.ADMIN_HOST || '127.0.0.1'}:${process.env.ADMIN_PORT || 3001}`;
  return process.env.ADMIN_TOKEN
    ? `${url}/v1/admin   (its own listener; Authorization: Bearer $ADMIN_TOKEN)`
    : `off (set ADMIN_TOKEN, 32+ characters, to serve it on ${url}); \`einvoice admin\` works without it`;
}

function tenantWelcome(base: string, c: SeedCredentials, receiver: DevReceiver): string {
  const t = c.tenant;
  if (!t) return '';
  return `
Sandbox tenant (Tenant API, mode ${t.mode}; status updates print below as [status-update]):
  tenantId        ${t.tenantId}
  TRN             ${t.trn}
  clientId        ${t.clientId}
  clientSecret    ${t.clientSecret}
  status URL      ${receiver.url(TENANT_STATUS_PATH)}
  webhook secret  ${t.webhookSecret}

Get a token (valid 1 h), then follow the walk-through in docs/tenant-api.md (or \`npx tsx examples/tenant-client.ts\`):
  curl -s ${base}/v1/auth/token -H 'Content-Type: application/json' -d '{"clientId":"${t.clientId}","clientSecret":"${t.clientSecret}"}'
`;
}

main().catch((err) => {
  console.error(err instanceof ProvisioningError ? `npm start failed at ${err.message}` : `npm start failed: ${(err as Error).message}`);
  process.exit(1);
});
