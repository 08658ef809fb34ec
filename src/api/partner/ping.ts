import type Router from '@koa/router';
import type { PartnerDoc } from '../../db/models';

/** GET /v1/partner/ping: the key and secret work (SPEC 4.1 rule 1). */
export function registerPing(router: Router): void {
  router.get('/ping', (ctx) => {
    const partner = ctx.state.partner as PartnerDoc;
    ctx.body = { ok: true, mode: partner.mode, timestamp: new Date().toISOString() };
  });
}
