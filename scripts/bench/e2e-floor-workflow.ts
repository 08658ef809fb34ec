// bench:e2e's floor workflow: waits for one signal and completes. No activity, no state: what Temporal costs per
// invoice before the pipeline does anything.
import { condition, defineSignal, setHandler } from '@temporalio/workflow';

export const floorSignal = defineSignal('floor');

export async function floorWorkflow(): Promise<void> {
  let signalled = false;
  setHandler(floorSignal, () => void (signalled = true));
  await condition(() => signalled);
}
