import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { PurgeCounts } from '../src/services/purge-expired';

const { purgeExpired } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 5 },
});

// A full pass reads every chained document once a day: longer than a purge, still inside the run's 10 minutes.
const { verifyEvidenceChainsStep } = proxyActivities<Activities>({
  startToCloseTimeout: '8 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 2 },
});

export type MaintenanceResult = PurgeCounts & { chains: Awaited<ReturnType<Activities['verifyEvidenceChainsStep']>> };

/**
 * Started by the maintenance schedule (src/temporal/maintenance-schedule.ts): one purge of expired records (never
 * tax records: src/records/retention.ts), then the evidence chain check (issue 34).
 */
export async function maintenanceWorkflow(): Promise<MaintenanceResult> {
  const counts = await purgeExpired();
  return { ...counts, chains: await verifyEvidenceChainsStep() };
}
