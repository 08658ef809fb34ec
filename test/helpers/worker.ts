import { DefaultLogger, Runtime, type Worker } from '@temporalio/worker';
import { config } from '../../src/config';
import { createWorker } from '../../src/worker/create-worker';
import { freeLoopbackPort, sdkMetricsTelemetry } from '../../src/worker-metrics';

let running: { worker: Worker; done: Promise<void> } | undefined;
let starting: Promise<void> | undefined;
let runtimeInstalled = false; // Runtime.install may run once per process; a restarted worker reuses it
let sdkMetrics: string | null = null;

/** The Temporal SDK's Prometheus exporter of this test process (installed with the Runtime, as src/worker.ts does). */
export function sdkMetricsUrl(): string | null {
  return sdkMetrics;
}

/** One real worker for the whole run, on the run's own task queue; started by the first test that needs it. */
export function ensureWorker(): Promise<void> {
  starting ??= (async () => {
    const cfg = config();
    if (!runtimeInstalled) {
      const port = await freeLoopbackPort();
      Runtime.install({ logger: new DefaultLogger('WARN'), telemetryOptions: sdkMetricsTelemetry(`127.0.0.1:${port}`) });
      sdkMetrics = `http://127.0.0.1:${port}/metrics`;
    }
    runtimeInstalled = true;
    const worker = await createWorker({ address: cfg.temporalAddress, namespace: cfg.temporalNamespace, taskQueue: cfg.temporalTaskQueue });
    running = { worker, done: worker.run() };
  })();
  return starting;
}

export async function stopWorker(): Promise<void> {
  if (!running) return;
  running.worker.shutdown();
  await running.done;
  running = undefined;
  starting = undefined;
}
