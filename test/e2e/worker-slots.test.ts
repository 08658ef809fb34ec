import { expect } from 'chai';
import { config } from '../../src/config';
import { LOCAL_ACTIVITY_SLOTS, WORKFLOW_TASK_SLOTS } from '../../src/worker/create-worker';
import { ensureWorker, sdkMetricsUrl } from '../helpers/worker';

/** The SDK's gauge for one kind of slot on this run's task queue (Prometheus text). */
function gauge(text: string, name: string, workerType: string, taskQueue: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(`worker_type="${workerType}"`) && l.includes(`task_queue="${taskQueue}"`));
  expect(line, `${name} ${workerType}`).to.be.a('string');
  return Number(line!.slice(line!.lastIndexOf(' ') + 1));
}

describe('worker slots', () => {
  it('the worker runs WORKFLOW_TASK_SLOTS workflow tasks and LOCAL_ACTIVITY_SLOTS local activities at once (SDK metrics)', async function () {
    await ensureWorker();
    const url = sdkMetricsUrl();
    if (!url) this.skip();
    const queue = config().temporalTaskQueue;
    // available and used are two gauges updated one after the other: a scrape taken while a slot changes hands
    // (deliveries of earlier tests may still run) can be one off. The totals seen over a few scrapes: never more
    // than the configured count, and exactly it once the worker is between slot changes.
    const seen = { WorkflowWorker: new Set<number>(), LocalActivityWorker: new Set<number>() };
    for (let i = 0; i < 20; i++) {
      const text = await (await fetch(url!)).text();
      for (const type of ['WorkflowWorker', 'LocalActivityWorker'] as const) {
        seen[type].add(gauge(text, 'temporal_worker_task_slots_available', type, queue) + gauge(text, 'temporal_worker_task_slots_used', type, queue));
      }
      if (seen.WorkflowWorker.has(WORKFLOW_TASK_SLOTS) && seen.LocalActivityWorker.has(LOCAL_ACTIVITY_SLOTS)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(Math.max(...seen.WorkflowWorker)).to.equal(WORKFLOW_TASK_SLOTS);
    expect(Math.max(...seen.LocalActivityWorker)).to.equal(LOCAL_ACTIVITY_SLOTS);
  });
});
