import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import * as activities from '../../activities';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** Bundling takes seconds; do it once per process (tests start several workers). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietBundlerLogger });
  return bundle;
}

export async function createWorker(opts: { address: string; namespace: string; taskQueue: string; connection?: NativeConnection }): Promise<Worker> {
  const connection = opts.connection ?? (await NativeConnection.connect({ address: opts.address }));
  return Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowBundle: await workflowBundle(),
    activities,
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
