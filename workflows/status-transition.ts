import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type * as activities from '../activities';
import type { InvoiceStatus } from '../src/db/models/invoice';
import { InvoiceStatusKey } from './search-attributes';

const { advanceInvoiceStatus } = proxyActivities<typeof activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/**
 * Moves an invoice through the given statuses, persisting each forward-only and mirroring it into the
 * InvoiceStatus search attribute. Ops use it to complete a transition by hand; the pipeline uses the same step.
 */
export async function statusTransitionWorkflow(input: { invoiceId: string; steps: { to: InvoiceStatus; reason?: string | null }[] }): Promise<InvoiceStatus[]> {
  const seen: InvoiceStatus[] = [];
  for (const step of input.steps) {
    const result = await advanceInvoiceStatus({ invoiceId: input.invoiceId, to: step.to, reason: step.reason ?? null });
    upsertSearchAttributes([{ key: InvoiceStatusKey, value: result.status }]);
    seen.push(result.status);
  }
  return seen;
}
