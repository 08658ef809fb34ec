// The scheduled chain verification's metrics, on the worker's /metrics (src/worker-metrics.ts serves this registry).
import client from 'prom-client';
import { registry } from '../metrics';

export const chainBreaks = new client.Counter({
  name: 'einvoice_records_chain_breaks_total',
  help: 'Evidence chain breaks found by the scheduled verification (a stored document, evidence record or chain entry that no longer matches)',
  registers: [registry],
});

export const chainsBroken = new client.Gauge({
  name: 'einvoice_records_chains_broken',
  help: 'Seller TRNs whose evidence chain failed the last scheduled verification',
  registers: [registry],
});

export const chainEntriesVerified = new client.Counter({
  name: 'einvoice_records_chain_entries_verified_total',
  help: 'Evidence chain entries checked by the scheduled verification',
  registers: [registry],
});
