import type { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;

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
