import fs from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;

/** The saved histories the replay tests feed to the current workflow code (recorded by ../workflows/histories.record.ts). */
export const HISTORIES_DIR = path.resolve(__dirname, '../fixtures/histories');

// As JSON through History.toObject/fromObject (this install's protojson helper trips over two protobufjs copies).
const AS_OBJECT = { longs: String, enums: String, bytes: String } as const;

export function saveHistory(file: string, history: History): void {
  const object = temporal.api.history.v1.History.toObject(temporal.api.history.v1.History.fromObject(history), AS_OBJECT);
  fs.mkdirSync(HISTORIES_DIR, { recursive: true });
  fs.writeFileSync(path.join(HISTORIES_DIR, file), JSON.stringify(object, null, 1) + '\n');
}

export function loadHistory(file: string): temporal.api.history.v1.History {
  return temporal.api.history.v1.History.fromObject(JSON.parse(fs.readFileSync(path.join(HISTORIES_DIR, file), 'utf8')));
}

/**
 * The activity types a workflow history ran, in order: scheduled activities and local activities (a local
 * activity is a marker whose details carry its type).
 */
export function stepNames(history: History): string[] {
  const names: string[] = [];
  for (const e of history.events ?? []) {
    const scheduled = e.activityTaskScheduledEventAttributes?.activityType?.name;
    if (scheduled) names.push(scheduled);
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName === 'core_local_activity') {
      const raw = marker.details?.data?.payloads?.[0]?.data;
      if (!raw) continue;
      const parsed = JSON.parse(Buffer.from(raw).toString('utf8')) as { activity_type?: string; activityType?: string };
      const type = parsed.activity_type ?? parsed.activityType;
      if (type) names.push(type);
    }
  }
  return names;
}
