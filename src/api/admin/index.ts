import Router from '@koa/router';
import Joi from 'joi';
import type { PartyAddress } from '@einvoice/pint-ae';
import type { Middleware } from 'koa';
import { config } from '../../config';
import type { PartnerDoc } from '../../db/models';
import { jsonBody } from '../../http/json-body';
import { isServiceError, ServiceError, serviceErrors } from '../../domain/errors';
import type { Validated } from '../../http/request-state';
import { validate, validateBody } from '../../http/validate';
import { creditsQuerySchema, creditTopUpSchema, type CreditsQuery, type CreditTopUp } from '../../domain/credit-schemas';
import { ADMIN_FIELD_REFUSALS, ADMIN_NOT_FOUND, connectSme, createPartner, updatePartner } from '../../services/admin';
import { creditsOverview, topUp } from '../../services/credits';
import { createTenant, updateTenant, type TenantChanges, type TenantInput } from '../../services/tenants';
import { TENANT_MODES } from '../../domain/tenant-invoice-types';
import { ROUTER_OPTIONS } from '../../http/router-options';
import { sameSecret } from '../../credentials/secrets';
import { apiActor, credentialRoutes } from './credential-routes';

/**
 * The admin API (DESIGN "Decisions"): the same functions as `einvoice admin`, for operators' tooling.
 * Guarded by `Authorization: Bearer $ADMIN_TOKEN`; without ADMIN_TOKEN configured it is switched off.
 */
export function adminRouter(): Router {
  const router = new Router({ prefix: '/v1/admin', ...ROUTER_OPTIONS });
  router.use(adminAuth(), jsonBody());

  router.post<Validated<PartnerCreate>>('/partners', validate({ body: orEmpty(partnerCreateSchema) }), async (ctx) => {
    const { name, mode, webhookUrl } = ctx.state.body;
    const created = await adminCall(() => createPartner({ name, mode, webhookUrl: webhookUrl ?? null }));
    ctx.status = 201;
    ctx.body = created;
  });

  router.patch<Validated<PartnerUpdate>>('/partners/:partnerId', validate({ body: orEmpty(partnerUpdateSchema) }), async (ctx) => {
    ctx.body = await adminCall(() => updatePartner(ctx.params.partnerId, ctx.state.body, apiActor(ctx)));
  });

  router.post<Validated<SmeConnect>>('/partners/:partnerId/smes', validate({ body: orEmpty(smeConnectSchema) }), async (ctx) => {
    // On a revoked SME's TRN this reissues a secret for the same SME record (services/admin.ts).
    const created = await adminCall(() => connectSme({ partnerId: ctx.params.partnerId, ...ctx.state.body }, apiActor(ctx)));
    ctx.status = 201;
    ctx.body = created;
  });

  // Credits (the same service as `einvoice admin credits:topup`): a top-up also releases blocked invoices.
  router.post<Validated<CreditTopUp>>('/smes/:smeId/credits', validate({ body: orEmpty(creditTopUpSchema) }), async (ctx) => {
    ctx.body = await adminCall(() => topUp({ kind: 'sme', id: ctx.params.smeId }, ctx.state.body.amount));
  });

  router.get<Validated<unknown, CreditsQuery>>('/smes/:smeId/credits', validate({ query: creditsQuerySchema }), async (ctx) => {
    ctx.body = await adminCall(() => creditsOverview({ kind: 'sme', id: ctx.params.smeId }, ctx.state.query.limit));
  });

  // Tenants (the same services as `einvoice admin tenant:create | tenant:update`).
  router.post<Validated<TenantInput>>('/tenants', validate({ body: orEmpty(tenantCreateSchema) }), async (ctx) => {
    const created = await adminCall(() => createTenant(ctx.state.body));
    ctx.status = 201;
    ctx.body = created;
  });

  router.patch<Validated<TenantChanges>>('/tenants/:tenantId', validate({ body: orEmpty(tenantUpdateSchema) }), async (ctx) => {
    ctx.body = await adminCall(() => updateTenant(ctx.params.tenantId, ctx.state.body));
  });

  router.post<Validated<CreditTopUp>>('/tenants/:tenantId/credits', validate({ body: orEmpty(creditTopUpSchema) }), async (ctx) => {
    ctx.body = await adminCall(() => topUp({ kind: 'tenant', id: ctx.params.tenantId }, ctx.state.body.amount));
  });

  router.get<Validated<unknown, CreditsQuery>>('/tenants/:tenantId/credits', validate({ query: creditsQuerySchema }), async (ctx) => {
    ctx.body = await adminCall(() => creditsOverview({ kind: 'tenant', id: ctx.params.tenantId }, ctx.state.query.limit));
  });

  // Rotation and revocation of every credential (the same services as `einvoice admin *:rotate-*`, `*:revoke*`).
  credentialRoutes(router, adminCall);
  return router;
}

/** A missing body is checked as {}, so each required field is named. */
const orEmpty =
  <T>(schema: Joi.Schema<T>) =>
  (input: unknown): T =>
    validateBody(schema, input ?? {});

/** The admin service's refusals in the API's terms. */
async function adminCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw inApiTerms(err);
  }
}

/** A missing subject is the API's 404 not_found; a refused field is a 400 validation_failed finding at its path. */
function inApiTerms(err: unknown): unknown {
  if (!isServiceError(err)) return err;
  if (ADMIN_NOT_FOUND.includes(err.code)) return serviceErrors.notFound(err.message);
  const path = ADMIN_FIELD_REFUSALS[err.code];
  return path ? serviceErrors.validation([{ code: err.code, path, message: err.message }]) : err;
}

function adminAuth(): Middleware {
  return async (ctx, next) => {
    const token = config().adminToken;
    if (!token) throw new ServiceError(404, 'route_not_found', 'Not found', 'The admin API is disabled (ADMIN_TOKEN is not set).');
    const presented = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1] ?? '';
    if (!sameSecret(presented, token)) {
      throw serviceErrors.unauthorized('invalid_admin_token', 'Send Authorization: Bearer <ADMIN_TOKEN>.');
    }
    await next();
  };
}

interface PartnerCreate {
  name: string;
  mode: 'test' | 'live';
  webhookUrl?: string | null;
}
interface PartnerUpdate {
  webhookUrl?: string | null;
  rateLimitPerMinute?: number | null;
  status?: PartnerDoc['status'];
}
interface SmeConnect {
  trn: string;
  name: string;
  tradeLicenseNumber?: string;
  address?: PartyAddress;
}

export const partnerCreateSchema = Joi.object<PartnerCreate>({
  name: Joi.string().trim().min(1).max(300).required(),
  mode: Joi.string().valid('test', 'live').required(),
  webhookUrl: Joi.string().max(2048).allow(null),
});
export const partnerUpdateSchema = Joi.object<PartnerUpdate>({
  webhookUrl: Joi.string().max(2048).allow(null),
  rateLimitPerMinute: Joi.number().integer().min(1).max(1_000_000).allow(null),
  status: Joi.string().valid('test', 'live_pending', 'live_active', 'live_rejected', 'revoked'),
}).min(1);
export const smeConnectSchema = Joi.object<SmeConnect>({
  trn: Joi.string().pattern(/^\d{15}$/).required().messages({ 'string.pattern.base': 'trn must be exactly 15 digits' }),
  name: Joi.string().trim().min(1).max(300).required(),
  // The SME's registration, as tenant:create takes it: the Partner API fills the SME's party from it.
  tradeLicenseNumber: Joi.string().trim().min(1).max(100),
  address: Joi.object({
    line1: Joi.string().trim().min(1).max(200).required(),
    city: Joi.string().trim().min(1).max(100).required(),
    emirate: Joi.string().trim().min(1).max(50).required(),
    country: Joi.string().valid('AE').default('AE'),
  }),
});

const trnSchema = () => Joi.string().pattern(/^\d{15}$/).messages({ 'string.pattern.base': 'trn must be exactly 15 digits' });
const sellerAddressSchema = Joi.object({
  line1: Joi.string().trim().min(1).max(200).required(),
  city: Joi.string().trim().min(1).max(100).required(),
  emirate: Joi.string().trim().min(1).max(50).required(),
  country: Joi.string().valid('AE').default('AE'),
});
const tenantOptionKeys = {
  kyb: Joi.string().valid('approved', 'pending'),
  statusUrl: Joi.string().max(2048).allow(null),
  address: sellerAddressSchema,
  tradeLicenseNumber: Joi.string().trim().min(1).max(100),
};
export const tenantCreateSchema = Joi.object<TenantInput>({
  trn: trnSchema().required(),
  name: Joi.string().trim().min(1).max(300).required(),
  nameArabic: Joi.string().trim().min(1).max(300).required(),
  mode: Joi.string().valid(...TENANT_MODES).required(),
  ...tenantOptionKeys,
});
export const tenantUpdateSchema = Joi.object<TenantChanges>({ mode: Joi.string().valid(...TENANT_MODES), ...tenantOptionKeys }).min(1);
