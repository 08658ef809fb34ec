import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { PurgeCounts } from '../src/services/purge-expired';

const { purgeExpired } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 5 },
});

/** Started by the maintenance schedule (src/temporal/maintenance-schedule.ts): one purge of expired records. */
export async function maintenanceWorkflow(): Promise<PurgeCounts> {
  return purgeExpired();
}
