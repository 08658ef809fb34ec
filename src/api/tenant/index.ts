import Router from '@koa/router';
import type { Middleware } from 'koa';
import { jsonBody } from '../../http/json-body';
import { tenantRateLimit } from '../../http/rate-limit';
import type { TenantState } from '../../http/request-state';
import { tenantAuth } from '../../http/tenant-auth';
import { registerAuthToken } from './auth-route';
import { registerTenantCreditNotes } from './credit-note-routes';
import { registerTenantInvoices } from './invoice-routes';
import { registerTenantBulk } from './bulk-route';
import { ROUTER_OPTIONS } from '../../http/router-options';

/**
 * The Tenant API (/v1/invoices, /v1/credit-notes, /v1/auth/token). Errors are {code, humanMessage, meta}
 * (problemErrors picks the shape by path). Three routers, mounted apart because a router's middleware runs for
 * every route it holds: the token endpoint (no bearer), the CSV import (bearer; reads its own multipart body as
 * it streams), and the JSON routes (bearer, JSON bodies).
 */
export function tenantRouters(): Router[] {
  const open = new Router({ prefix: '/v1', ...ROUTER_OPTIONS });
  open.use(jsonBody());
  registerAuthToken(open);

  const bearer: Middleware<TenantState>[] = [tenantAuth(), tenantRateLimit()];
  const csv = new Router<TenantState>({ prefix: '/v1', ...ROUTER_OPTIONS });
  csv.use(...bearer);
  registerTenantBulk(csv);

  const json = new Router<TenantState>({ prefix: '/v1', ...ROUTER_OPTIONS });
  json.use(...bearer, jsonBody());
  registerTenantInvoices(json);
  registerTenantCreditNotes(json);
  return [open, csv, json] as Router[];
}
