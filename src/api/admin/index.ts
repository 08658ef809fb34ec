import Router from '@koa/router';
import Joi from 'joi';
import { timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { config } from '../../config';
import { Partner, type PartnerDoc } from '../../db/models';
import { jsonBody } from '../../http/json-body';
import { ServiceError, serviceErrors } from '../../domain/errors';
import { validateBody } from '../../http/validate';
import { AdminError, connectSme, createPartner, updatePartner } from '../../services/admin';
import { webhookUrlProblem } from '../../webhooks/url-policy';

/**
 * The admin API (DESIGN "Decisions"): the same functions as `einvoice admin`, for operators' tooling.
 * Guarded by `Authorization: Bearer $ADMIN_TOKEN`; without ADMIN_TOKEN configured it is switched off.
 */
export function adminRouter(): Router {
  const router = new Router({ prefix: '/v1/admin' });
  router.use(adminAuth(), jsonBody());

  router.post('/partners', async (ctx) => {
    const body = validateBody(partnerCreateSchema, ctx.request.body ?? {});
    const urlProblem = body.webhookUrl ? webhookUrlProblem(body.webhookUrl, body.mode) : null;
    if (urlProblem) throw serviceErrors.validation([{ code: 'invalid_webhook_url', path: 'webhookUrl', message: urlProblem }]);
    ctx.status = 201;
    ctx.body = await createPartner({ name: body.name, mode: body.mode, webhookUrl: body.webhookUrl ?? null });
  });

  router.patch('/partners/:partnerId', async (ctx) => {
    const body = validateBody(partnerUpdateSchema, ctx.request.body ?? {});
    const partner = await Partner.findById(ctx.params.partnerId).lean<PartnerDoc>();
    if (!partner) throw serviceErrors.notFound(`No partner ${ctx.params.partnerId}.`);
    const urlProblem = body.webhookUrl ? webhookUrlProblem(body.webhookUrl, partner.mode) : null;
    if (urlProblem) throw serviceErrors.validation([{ code: 'invalid_webhook_url', path: 'webhookUrl', message: urlProblem }]);
    ctx.body = await updatePartner(partner._id, body);
  });

  router.post('/partners/:partnerId/smes', async (ctx) => {
    const body = validateBody(smeConnectSchema, ctx.request.body ?? {});
    try {
      ctx.status = 201;
      ctx.body = await connectSme({ partnerId: ctx.params.partnerId, trn: body.trn, name: body.name });
    } catch (err) {
      if (err instanceof AdminError && err.code === 'partner_not_found') throw serviceErrors.notFound(err.message);
      if (err instanceof AdminError) throw serviceErrors.conflict(err.code, err.message);
      throw err;
    }
  });
  return router;
}

function adminAuth(): Middleware {
  return async (ctx, next) => {
    const token = config().adminToken;
    if (!token) throw new ServiceError(404, 'route_not_found', 'Not found', 'The admin API is disabled (ADMIN_TOKEN is not set).');
    const presented = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1] ?? '';
    const a = Buffer.from(presented);
    const b = Buffer.from(token);
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
      throw serviceErrors.unauthorized('invalid_admin_token', 'Send Authorization: Bearer <ADMIN_TOKEN>.');
    }
    await next();
  };
}

const partnerCreateSchema = Joi.object({
  name: Joi.string().trim().min(1).max(300).required(),
  mode: Joi.string().valid('test', 'live').required(),
  webhookUrl: Joi.string().max(2048).allow(null),
});
const partnerUpdateSchema = Joi.object({
  webhookUrl: Joi.string().max(2048).allow(null),
  rateLimitPerMinute: Joi.number().integer().min(1).max(1_000_000).allow(null),
  status: Joi.string().valid('test', 'live_pending', 'live_active', 'live_rejected', 'revoked'),
}).min(1);
const smeConnectSchema = Joi.object({
  trn: Joi.string().pattern(/^\d{15}$/).required().messages({ 'string.pattern.base': 'trn must be exactly 15 digits' }),
  name: Joi.string().trim().min(1).max(300).required(),
});
