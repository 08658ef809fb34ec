import type { SmeRouter } from '../../http/request-state';
import { sendExport } from '../../records/export-response';
import { smeSource } from '../../records/export-source';

/** GET /v1/partner/records?from=&to=: the connected SME's audit export (issue 34), one tar archive, streamed. */
export function registerRecords(router: SmeRouter): void {
  router.get('/records', (ctx) => {
    sendExport(ctx, smeSource(ctx.state.partner._id, ctx.state.sme));
  });
}
