import Router from '@koa/router';
import { jsonBody } from '../../http/json-body';
import { tenantRateLimit } from '../../http/rate-limit';
import type { TenantState } from '../../http/request-state';
import { tenantAuth } from '../../http/tenant-auth';
import { registerAuthToken } from './auth-route';
import { registerTenantCreditNotes } from './credit-note-routes';
import { registerTenantInvoices } from './invoice-routes';

/**
 * The Tenant API (/v1/invoices, /v1/credit-notes, /v1/auth/token). Errors are {code, humanMessage, meta}
 * (problemErrors picks the shape by path). The token endpoint needs no bearer; everything else does.
 */
export function tenantRouter(): Router {
  const router = new Router({ prefix: '/v1' });
  const open = new Router();
  open.use(jsonBody());
  registerAuthToken(open);
  router.use(open.routes(), open.allowedMethods());

  const authed = new Router<TenantState>();
  authed.use(tenantAuth(), tenantRateLimit());
  // The CSV import reads its own multipart body; every other route takes JSON.
  const json = new Router<TenantState>();
  json.use(jsonBody());
  registerTenantInvoices(json);
  registerTenantCreditNotes(json);
  authed.use(json.routes(), json.allowedMethods());
  router.use(authed.routes(), authed.allowedMethods());
  return router;
}
