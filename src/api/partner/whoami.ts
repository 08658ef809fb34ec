import { SmeConnection } from '../../db/models';
import type { PartnerRouter } from '../../http/request-state';

/** GET /v1/partner/whoami: who the key belongs to and how many SMEs it serves. */
export function registerWhoami(router: PartnerRouter): void {
  router.get('/whoami', async (ctx) => {
    const { partner } = ctx.state;
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
