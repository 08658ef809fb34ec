import type Router from '@koa/router';
import type { Validated } from '../../http/request-state';
import { validate } from '../../http/validate';
import { tokenRequestSchema, type TokenRequest } from '../../domain/tenant-schemas';
import { issueToken } from '../../services/tenants';

/** POST /v1/auth/token: the tenant's client id and secret for a bearer JWT valid one hour (DESIGN). */
export function registerAuthToken(router: Router): void {
  router.post<Validated<TokenRequest>>('/auth/token', validate({ body: tokenRequestSchema }), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await issueToken(ctx.state.body.clientId, ctx.state.body.clientSecret);
  });
}
