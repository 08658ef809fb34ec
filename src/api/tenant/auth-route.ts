import type Router from '@koa/router';
import type { Validated } from '../../http/request-state';
import { validate } from '../../http/validate';
import { tokenRequestSchema, type TokenRequest } from '../../domain/tenant-schemas';
import { issueToken } from '../../services/tenants';

/** The token request is two short strings: 4 KB is generous, and nothing larger is read before authentication. */
export const TOKEN_BODY_LIMIT = 4 * 1024;

/**
 * POST /v1/auth/token: the tenant's client id and secret for a bearer JWT valid one hour (DESIGN). Mounted behind
 * noStore() (the answer is a credential) and the failed-authentication limit (tenant/index.ts).
 */
export function registerAuthToken(router: Router): void {
  router.post<Validated<TokenRequest>>('/auth/token', validate({ body: tokenRequestSchema }), async (ctx) => {
    ctx.body = await issueToken(ctx.state.body.clientId, ctx.state.body.clientSecret);
  });
}
