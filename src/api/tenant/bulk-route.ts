import { hashRequest } from '../../domain/request-hash';
import { readCsvUpload } from '../../http/csv-upload';
import { TENANT, tenantIdempotencyKeyRequired, type KeyedRequest } from '../../http/idempotency-middleware';
import type { TenantRouter } from '../../http/request-state';
import { runIdempotent } from '../../services/idempotency';
import { importCsv } from '../../services/tenant-csv-import';
import { requestedMode } from '../../services/tenant-invoices';
import { tenantCaller } from './invoice-routes';

/**
 * POST /v1/invoices/bulk: multipart with a CSV `file` part and an `options` part (SPEC 4.2). The file is read as
 * it streams (5 MB and 1,000 invoices, 413 beyond). The Idempotency-Key binds the options and the file's bytes
 * (their SHA-256, not the multipart envelope, which differs per client), so a resent file replays the first report
 * and never imports twice.
 */
export function registerTenantBulk(router: TenantRouter): void {
  router.post<KeyedRequest>('/invoices/bulk', tenantIdempotencyKeyRequired(), async (ctx) => {
    const upload = await readCsvUpload(ctx.req);
    const caller = { ...tenantCaller(ctx), mode: requestedMode(ctx.state.tenant, upload.options.mode) };
    const content = { options: upload.options, fileSha256: upload.sha256 };
    const result = await runIdempotent({
      scope: TENANT.scope(ctx),
      key: ctx.state.idempotencyKey,
      requestHash: hashRequest(ctx.method, ctx.path, content),
      renderError: TENANT.renderError,
      execute: async () => ({ status: 200, body: JSON.stringify(await importCsv(caller, upload, { skipErrors: upload.options.skipErrors })), contentType: 'application/json; charset=utf-8' }),
    });
    ctx.status = result.status;
    ctx.type = result.contentType;
    ctx.body = result.body;
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
  });
}
