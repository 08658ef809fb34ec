// Prometheus metrics of this process (API or worker): one registry, process defaults and the business metrics.
// The API serves it at /metrics (src/api/health.ts), the worker on WORKER_METRICS_PORT (src/worker-metrics.ts).
// Labels are bounded sets (statuses, route patterns, activity names, outcomes); ids never become labels.
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequests = new client.Counter({
  name: 'http_requests_total',
  help: 'API requests by method, matched route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'API request latency by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

/** Incremented by the status writer (src/services/invoice-status-writer.ts) on each persisted transition. */
export const invoiceTransitions = new client.Counter({
  name: 'einvoice_invoice_status_transitions_total',
  help: 'Invoice status transitions written, by from and to status',
  labelNames: ['from', 'to'] as const,
  registers: [registry],
});

/** Observed by every activity (activities/observability.ts): the pipeline's steps and the webhook sends. */
export const activityDuration = new client.Histogram({
  name: 'einvoice_activity_duration_seconds',
  help: 'Time in each pipeline step (Temporal activity), by activity and result (ok or failed)',
  labelNames: ['activity', 'result'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const activityFailures = new client.Counter({
  name: 'einvoice_activity_failures_total',
  help: 'Activity attempts that failed, by activity and failure type (ApplicationFailure type or error name)',
  labelNames: ['activity', 'type'] as const,
  registers: [registry],
});

export const webhookAttempts = new client.Counter({
  name: 'einvoice_webhook_attempts_total',
  help: 'Webhook and status-update POST attempts, by outcome (delivered, http_error, network_error, no_url) and event kind',
  labelNames: ['outcome', 'kind'] as const,
  registers: [registry],
});

export const aspCalls = new client.Counter({
  name: 'einvoice_asp_calls_total',
  help: 'Calls to the ASP, by mode, call (submit, poll) and outcome',
  labelNames: ['mode', 'call', 'outcome'] as const,
  registers: [registry],
});

export const aspCallDuration = new client.Histogram({
  name: 'einvoice_asp_call_duration_seconds',
  help: 'ASP call latency (in-process retries included), by mode and call',
  labelNames: ['mode', 'call'] as const,
  buckets: SECONDS,
  registers: [registry],
});
