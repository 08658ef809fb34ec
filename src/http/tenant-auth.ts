import type { Middleware } from 'koa';
import type { TenantMode } from '../domain/tenant-invoice-types';
import { addLogContext } from '../logger';
import { authenticateTenant } from '../services/tenants';
import type { TenantState } from './request-state';

/** X-Service-Source is free text from the connector: keep it printable and short. */
const SOURCE_MAX_LENGTH = 100;

/**
 * Tenant API authentication (SPEC 5.2): Authorization: Bearer <JWT from POST /v1/auth/token>. Leaves the tenant,
 * its active mode and the X-Service-Source connector name in ctx.state.
 */
export function tenantAuth(): Middleware<TenantState> {
  return async (ctx, next) => {
    const tenant = await authenticateTenant(ctx.get('Authorization'));
    ctx.state.tenant = tenant;
    addLogContext({ tenantId: String(tenant._id) });
    ctx.state.mode = tenant.mode as TenantMode;
    const source = ctx.get('X-Service-Source').replace(/[^\x20-\x7e]/g, '').trim().slice(0, SOURCE_MAX_LENGTH);
    ctx.state.source = source || null;
    await next();
  };
}
