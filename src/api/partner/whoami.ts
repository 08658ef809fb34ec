import type Router from '@koa/router';
import { SmeConnection, type PartnerDoc } from '../../db/models';

/** GET /v1/partner/whoami: who the key belongs to and how many SMEs it serves. */
export function registerWhoami(router: Router): void {
  router.get('/whoami', async (ctx) => {
    const partner = ctx.state.partner as PartnerDoc;
    const connectedSmes = await SmeConnection.countDocuments({ partnerId: partner._id, status: 'active' });
    ctx.body = {
      partnerId: partner._id,
      erpName: partner.erpName,
      status: partner.status,
      mode: partner.mode,
      connectedSmes,
      lastTestAt: partner.lastTestAt ? new Date(partner.lastTestAt).toISOString() : null,
      timestamp: new Date().toISOString(),
    };
  });
}
