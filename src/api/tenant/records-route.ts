import type { TenantRouter } from '../../http/request-state';
import { sendExport } from '../../records/export-response';
import { tenantSource } from '../../records/export-source';

/** GET /v1/records?from=&to=: the tenant's audit export of its current mode (issue 34), one tar archive, streamed. */
export function registerTenantRecords(router: TenantRouter): void {
  router.get('/records', (ctx) => {
    sendExport(ctx, tenantSource(ctx.state.tenant, ctx.state.mode));
  });
}
