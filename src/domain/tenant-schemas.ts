// joi schemas of the Tenant API's small bodies and queries (the invoice bodies are in tenant-invoice-input.ts).
// Pure.
import Joi from 'joi';
import { TENANT_MODES, type TenantMode } from './tenant-invoice-types';

/** POST /v1/auth/token. */
export interface TokenRequest {
  clientId: string;
  clientSecret: string;
}
export const tokenRequestSchema: Joi.ObjectSchema<TokenRequest> = Joi.object({
  clientId: Joi.string().max(200).required(),
  clientSecret: Joi.string().max(200).required(),
});

/** POST /v1/invoices/submit: 1 to 200 invoice ids (SPEC 8). */
export interface SubmitRequest {
  ids: string[];
}
export const submitRequestSchema: Joi.ObjectSchema<SubmitRequest> = Joi.object({
  ids: Joi.array().items(Joi.string().guid()).min(1).max(200).required(),
});

/** `?mode=` on POST /v1/invoices (SPEC 4.2). */
export interface ModeQuery {
  mode?: TenantMode;
}
export const modeQuerySchema: Joi.ObjectSchema<ModeQuery> = Joi.object({
  mode: Joi.string().valid(...TENANT_MODES),
});
