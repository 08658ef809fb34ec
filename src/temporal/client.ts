import { Client, Connection, type ConnectionLike } from '@temporalio/client';
import { config } from '../config';

let clientPromise: Promise<Client> | undefined;
/** True when the client runs over a connection someone else owns (the worker's), which we must not close. */
let borrowed = false;

/** The worker process's client (signals, schedules) rides on the worker's own connection: one per process. */
export function useTemporalConnection(connection: ConnectionLike): void {
  clientPromise = Promise.resolve(new Client({ connection, namespace: config().temporalNamespace }));
  borrowed = true;
}

/** The process-wide Temporal client (the API starts and signals workflows with it). */
export function temporalClient(): Promise<Client> {
  clientPromise ??= (async () => {
    const connection = await Connection.connect({ address: config().temporalAddress, connectTimeout: 10_000 });
    return new Client({ connection, namespace: config().temporalNamespace });
  })();
  clientPromise.catch(() => (clientPromise = undefined));
  return clientPromise;
}

export async function closeTemporalClient(): Promise<void> {
  const pending = clientPromise;
  clientPromise = undefined;
  if (borrowed) return void (borrowed = false);
  if (pending) await (await pending).connection.close().catch(() => {});
}

/** Used by /readyz: true when the frontend answers for our namespace. */
export async function pingTemporal(): Promise<boolean> {
  try {
    const client = await temporalClient();
    await client.workflowService.describeNamespace({ namespace: config().temporalNamespace });
    return true;
  } catch {
    return false;
  }
}
