// Container healthchecks for the image's three processes (docker-compose.yml, Dockerfile):
//   node --import tsx deploy/healthcheck.ts http <url>   exit 0 when the URL answers 2xx within 4 s
//   node --import tsx deploy/healthcheck.ts worker       exit 0 when this container's worker has polled its
//                                                        task queue (workflow and activity tasks) in the last 90 s
// The worker serves no HTTP: Temporal's own view of its pollers is the check that it does its job. The SDK's
// default worker identity is `<pid>@<hostname>`, and a container's hostname is its own.
import os from 'node:os';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { config } from '../src/config';

const RECENT_MS = 90_000;

async function http(url: string): Promise<string | null> {
  const res = await fetch(url, { signal: AbortSignal.timeout(4_000) });
  return res.ok ? null : `${url} answered ${res.status}`;
}

async function worker(): Promise<string | null> {
  const cfg = config();
  const connection = await Connection.connect({ address: cfg.temporalAddress, connectTimeout: 4_000 });
  try {
    const types = temporal.api.enums.v1.TaskQueueType;
    const host = `@${os.hostname()}`;
    for (const [label, type] of [['workflow', types.TASK_QUEUE_TYPE_WORKFLOW], ['activity', types.TASK_QUEUE_TYPE_ACTIVITY]] as const) {
      const { pollers } = await connection.workflowService.describeTaskQueue({ namespace: cfg.temporalNamespace, taskQueue: { name: cfg.temporalTaskQueue }, taskQueueType: type });
      const recent = (pollers ?? []).some((p) => (p.identity ?? '').endsWith(host) && Date.now() - Number(p.lastAccessTime?.seconds ?? 0) * 1000 < RECENT_MS);
      if (!recent) return `no ${label} poller from ${host} on task queue ${cfg.temporalTaskQueue} (namespace ${cfg.temporalNamespace}) in the last ${RECENT_MS / 1000} s`;
    }
    return null;
  } finally {
    await connection.close();
  }
}

async function main(): Promise<number> {
  const [what, arg] = process.argv.slice(2);
  const problem = what === 'http' && arg ? await http(arg) : what === 'worker' ? await worker() : 'usage: healthcheck.ts http <url> | worker';
  if (problem) process.stderr.write(`unhealthy: ${problem}\n`);
  return problem ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`unhealthy: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
