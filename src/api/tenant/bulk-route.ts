import type { Middleware } from 'koa';
import { readCsvUpload, type CsvUpload } from '../../http/csv-upload';
import { idempotencyKeyRequired, idempotent, type KeyedRequest } from '../../http/idempotency-middleware';
import type { TenantRouter, TenantState } from '../../http/request-state';
import type { TenantMode } from '../../domain/tenant-invoice-types';
import { importCsv } from '../../services/tenant-csv-import';
import { requestedMode } from '../../services/tenant-invoices';
import { tenantCaller } from './invoice-routes';

interface UploadState extends TenantState, KeyedRequest {
  upload: CsvUpload;
  /** The mode the file's drafts go to (its options may only name the tenant's active mode). */
  uploadMode: TenantMode;
}

/**
 * The upload read as it streams, and its mode checked, before the key is claimed: a refused file or mode stores
 * nothing under the key (as a refused ?mode= on POST /v1/invoices).
 */
const readUpload: Middleware<UploadState> = async (ctx, next) => {
  ctx.state.upload = await readCsvUpload(ctx.req);
  ctx.state.uploadMode = requestedMode(ctx.state.tenant, ctx.state.upload.options.mode);
  await next();
};

/**
 * POST /v1/invoices/bulk: multipart with a CSV `file` part and an `options` part (SPEC 4.2). The file is read as
 * it streams (5 MB and 1,000 invoices, 413 beyond). The Idempotency-Key (checked first) binds the options and the
 * file's bytes (their SHA-256, not the multipart envelope, which differs per client), so a resent file replays the
 * first report and never imports twice.
 */
export function registerTenantBulk(router: TenantRouter): void {
  const binds = idempotent<UploadState>({ binds: (ctx) => ({ options: ctx.state.upload.options, fileSha256: ctx.state.upload.sha256 }) });
  router.post<UploadState>('/invoices/bulk', idempotencyKeyRequired(), readUpload, binds, async (ctx) => {
    const { upload, uploadMode } = ctx.state;
    ctx.body = await importCsv({ ...tenantCaller(ctx), mode: uploadMode }, upload, { skipErrors: upload.options.skipErrors });
  });
}
