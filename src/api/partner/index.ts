import Router from '@koa/router';
import { authFailureLimit, wrongPartnerCredentials } from '../../http/auth-failure-limit';
import { partnerAuth, smeAuth } from '../../http/partner-auth';
import { jsonBody } from '../../http/json-body';
import { rateLimit } from '../../http/rate-limit';
import type { PartnerState, SmeState } from '../../http/request-state';
import { registerPing } from './ping';
import { registerWhoami } from './whoami';
import { registerValidateTrn } from './validate-trn';
import { registerCustomers } from './customer-routes';
import { registerBulkInvoices } from './bulk-route';
import { registerInvoices } from './invoice-routes';
import { registerInvoiceDocument } from './invoice-document-route';
import { registerWebhookDeliveries } from './webhook-delivery-routes';
import { registerCredits } from './credit-routes';
import { registerRecords } from './records-route';
import { registerDocumentValidation, registerInvoiceValidation } from './validate-routes';
import { ROUTER_OPTIONS } from '../../http/router-options';
import { onSurface } from '../../http/surface';

/**
 * The Partner API (/v1/partner). Order matters and is visible here: the surface (ctx.state.surface, read by the
 * error shape and the idempotency key space), the failed-authentication limit per client address (refuses before any credential is checked), partner credentials, then the endpoints that need only them,
 * then the SME connection secret for everything else.
 */
export function partnerRouter(): Router {
  const router = new Router<PartnerState>({ prefix: '/v1/partner', ...ROUTER_OPTIONS });
  router.use(onSurface('partner'), authFailureLimit(wrongPartnerCredentials), partnerAuth());
  router.use(rateLimit());
  registerPing(router);
  registerWhoami(router);
  registerValidateTrn(router);
  registerDocumentValidation(router);

  const smeScoped = new Router<SmeState>(ROUTER_OPTIONS);
  smeScoped.use(smeAuth(), jsonBody());
  registerCustomers(smeScoped);
  registerBulkInvoices(smeScoped);
  registerInvoiceValidation(smeScoped);
  registerInvoices(smeScoped);
  registerInvoiceDocument(smeScoped);
  registerWebhookDeliveries(smeScoped);
  registerCredits(smeScoped);
  registerRecords(smeScoped);
  router.use(smeScoped.routes(), smeScoped.allowedMethods());
  return router;
}
