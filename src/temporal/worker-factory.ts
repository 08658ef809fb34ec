import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import { config, type Config } from '../config';
import { unavailableAsp, type AspClient } from '../provider/asp';
import { aspHttpClient } from '../provider/asp-http-client';
import { simulatedAsp } from '../provider/simulated-asp';
import type { Submission } from '../provider/asp-api';
import { recordAnswer } from '../services/asp-evidence';
import { signalAspVerdict } from './client';
import type { AspVerdict } from './contract';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** Bundling takes seconds; do it once per process (tests start several workers). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietBundlerLogger });
  return bundle;
}

/**
 * The worker's dependencies: test mode's built-in ASP, which answers through the invoice workflow's signal
 * (SPEC: test mode never calls a provider); live mode's ASP over HTTP at PROVIDER_LIVE_URL and the Tenant API's
 * sandbox at PROVIDER_SANDBOX_URL, which answer through signed callbacks (POST /v1/provider/callbacks) and polls.
 */
function defaultActivityDeps(): ActivityDeps {
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

/**
 * Workflow tasks and local activities a worker runs at once: the SDK's defaults, stated so that a test holds them.
 * More slots keep pollers waiting at the server (a new task is handed straight to a poll instead of going through
 * the dev server's task-queue table), but every workflow task in flight runs a chain of local activities that waits
 * for the same 8 store connections. Full bench:e2e runs on a grown store kept up best with these, without
 * "workflow task duration exceeded" warnings; fewer are worse (figures: docs/performance.md).
 */
export const WORKFLOW_TASK_SLOTS = 40;
export const LOCAL_ACTIVITY_SLOTS = 100;

export async function createWorker(opts: { address: string; namespace: string; taskQueue: string; connection?: NativeConnection; deps?: ActivityDeps }): Promise<Worker> {
  const connection = opts.connection ?? (await NativeConnection.connect({ address: opts.address }));
  return Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createActivities(opts.deps ?? defaultActivityDeps()),
    maxConcurrentWorkflowTaskExecutions: WORKFLOW_TASK_SLOTS,
    maxConcurrentLocalActivityExecutions: LOCAL_ACTIVITY_SLOTS,
  });
}

const quietBundlerLogger = {
  log() {},
  trace() {},
  debug() {},
  info() {},
  warn(message: string, meta?: unknown) {
    console.warn(message, meta ?? '');
  },
  error(message: string, meta?: unknown) {
    console.error(message, meta ?? '');
  },
};
