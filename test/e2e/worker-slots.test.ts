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
    const text = await (await fetch(url!)).text();
    const queue = config().temporalTaskQueue;
    const total = (type: string) => gauge(text, 'temporal_worker_task_slots_available', type, queue) + gauge(text, 'temporal_worker_task_slots_used', type, queue);
    expect(total('WorkflowWorker')).to.equal(WORKFLOW_TASK_SLOTS);
    expect(total('LocalActivityWorker')).to.equal(LOCAL_ACTIVITY_SLOTS);
  });
});
