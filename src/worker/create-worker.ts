// A worker on a task queue: the bundled workflows and the activities bound to their dependencies (./asp-deps.ts).
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import { defaultActivityDeps } from './asp-deps';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** Bundling takes seconds; do it once per process (tests start several workers). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietBundlerLogger });
  return bundle;
}

/**
 * Workflow tasks and local activities a worker runs at once, stated so that a test holds them. More slots keep
 * pollers waiting at the server, but every workflow task in flight runs a chain of local activities that waits
 * for the same store connections: past these, bench:e2e bursts got slower and workflow tasks overran their 5 s;
 * fewer were slower too (the runs are in the performance journal).
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
