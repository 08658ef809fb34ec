import Router from '@koa/router';
import type { Middleware } from 'koa';
import { authFailureLimit, forgedBearer, wrongClientSecret } from '../../http/auth-failure-limit';
import { jsonBody } from '../../http/json-body';
import { noStore } from '../../http/no-store';
import { tenantRateLimit } from '../../http/rate-limit';
import type { TenantState } from '../../http/request-state';
import { tenantAuth } from '../../http/tenant-auth';
import { registerAuthToken, TOKEN_BODY_LIMIT } from './auth-route';
import { registerTenantCreditNotes } from './credit-note-routes';
import { registerTenantInvoices } from './invoice-routes';
import { registerTenantBulk } from './bulk-route';
import { registerTenantInvoiceDocument } from './invoice-document-route';
import { registerTenantRecords } from './records-route';
import { ROUTER_OPTIONS } from '../../http/router-options';
import { onSurface } from '../../http/surface';

/**
 * The Tenant API (/v1/invoices, /v1/credit-notes, /v1/auth/token, /v1/records). Three routers, mounted apart
 * because a router's middleware runs for every route it holds: the token endpoint (no bearer), the CSV import
 * (bearer; reads its own multipart body as it streams), and the JSON routes (bearer, JSON bodies). Each starts
 * with the surface (ctx.state.surface: errors are {code, humanMessage, meta}, keys are the tenant's), then the
 * failed-authentication limit per client address, so an address over it is refused before its credentials or
 * its body are read.
 */
export function tenantRouters(): Router[] {
  const open = new Router({ prefix: '/v1', ...ROUTER_OPTIONS });
  open.use(onSurface('tenant'), noStore(), authFailureLimit(wrongClientSecret), jsonBody(TOKEN_BODY_LIMIT, 'send only clientId and clientSecret'));
  registerAuthToken(open);

  const bearer: Middleware<TenantState>[] = [onSurface('tenant'), authFailureLimit(forgedBearer), tenantAuth(), tenantRateLimit()];
  const csv = new Router<TenantState>({ prefix: '/v1', ...ROUTER_OPTIONS });
  csv.use(...bearer);
  registerTenantBulk(csv);

  const json = new Router<TenantState>({ prefix: '/v1', ...ROUTER_OPTIONS });
  json.use(...bearer, jsonBody());
  registerTenantInvoices(json);
  registerTenantInvoiceDocument(json);
  registerTenantCreditNotes(json);
  registerTenantRecords(json);
  return [open, csv, json] as Router[];
}
