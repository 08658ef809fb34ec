import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import { config } from '../config';
import { unavailableAsp } from '../provider/asp';
import { simulatedAsp } from '../provider/simulated-asp';
import { signalAspVerdict } from './client';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** Bundling takes seconds; do it once per process (tests start several workers). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietBundlerLogger });
  return bundle;
}

/**
 * The worker's dependencies: test mode's built-in ASP, which answers through the invoice workflow's signal;
 * live mode has no provider in this build, so its deliveries are refused (and the API refuses live submissions
 * unless PROVIDER_LIVE_URL is set).
 */
function defaultActivityDeps(): ActivityDeps {
  return {
    asp: {
      test: simulatedAsp({ ackDelayMs: config().simulatedAspAckDelayMs, notify: signalAspVerdict }),
      live: unavailableAsp('live delivery through the accredited provider is not available in this build'),
    },
  };
}

export async function createWorker(opts: { address: string; namespace: string; taskQueue: string; connection?: NativeConnection; deps?: ActivityDeps }): Promise<Worker> {
  const connection = opts.connection ?? (await NativeConnection.connect({ address: opts.address }));
  return Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createActivities(opts.deps ?? defaultActivityDeps()),
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
