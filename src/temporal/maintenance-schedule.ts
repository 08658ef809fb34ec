import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { MAINTENANCE_WORKFLOW } from './contract';

/** How often expired idempotency records, TRN cache entries and rate-limit windows are purged. */
export const MAINTENANCE_EVERY_MS = 10 * 60_000;

/** One schedule per task queue, so deployments (and test runs) sharing a Temporal server do not fight over it. */
export const maintenanceScheduleId = (taskQueue: string): string => `maintenance-purge-${taskQueue}`;

/**
 * Creates the purge schedule, or brings an existing one up to date; called at every worker start, so any number
 * of workers may race here and all end with the same single schedule.
 */
export async function ensureMaintenanceSchedule(client: Client, taskQueue: string, everyMs: number = MAINTENANCE_EVERY_MS): Promise<'created' | 'updated'> {
  const scheduleId = maintenanceScheduleId(taskQueue);
  const spec = { intervals: [{ every: everyMs }] };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: MAINTENANCE_WORKFLOW,
    workflowId: `maintenance-${taskQueue}`,
    taskQueue,
    args: [] as [],
    workflowExecutionTimeout: 10 * 60_000,
  };
  const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 60_000 };
  try {
    await client.schedule.create({ scheduleId, spec, action, policies });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action, policies }));
    return 'updated';
  }
}
