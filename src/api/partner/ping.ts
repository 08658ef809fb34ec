import type { PartnerRouter } from '../../http/request-state';

/** GET /v1/partner/ping: the key and secret work (SPEC 4.1 rule 1). */
export function registerPing(router: PartnerRouter): void {
  router.get('/ping', (ctx) => {
    const { partner } = ctx.state;
    ctx.body = { ok: true, mode: partner.mode, timestamp: new Date().toISOString() };
  });
}
