import type { PartnerRouter } from '../../http/request-state';
import { whoami } from '../../services/partners';

/** GET /v1/partner/whoami: who the key belongs to and how many SMEs it serves. */
export function registerWhoami(router: PartnerRouter): void {
  router.get('/whoami', async (ctx) => {
    ctx.body = await whoami(ctx.state.partner);
  });
}
