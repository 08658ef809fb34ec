import type { Middleware } from 'koa';
import type { PartnerState, SmeState } from './request-state';
import { serviceErrors } from '../domain/errors';
import { addLogContext } from '../logger';
import { partnerOfPair, smeOfSecret } from '../services/partners';

const INACTIVE = new Set(['revoked', 'live_rejected']);

/** SPEC 5.1: X-API-Key + X-API-Secret identify the partner (401 when missing or wrong, 403 when not allowed). */
export function partnerAuth(): Middleware<PartnerState> {
  return async (ctx, next) => {
    const key = ctx.get('X-API-Key');
    const secret = ctx.get('X-API-Secret');
    if (!key || !secret) {
      throw serviceErrors.unauthorized('missing_credentials', 'Send your API key in X-API-Key and your API secret in X-API-Secret.');
    }
    const partner = await partnerOfPair(key, secret);
    // Same answer for an unknown key, a wrong secret and an expired pair, so a caller cannot probe which keys exist.
    if (!partner) {
      throw serviceErrors.unauthorized('invalid_credentials', 'The API key or API secret is not valid.');
    }
    if (INACTIVE.has(partner.status)) {
      throw serviceErrors.forbidden('partner_inactive', `This partner account is ${partner.status}; contact support to reactivate it.`);
    }
    // Test keys only act in test mode (SPEC 1): a test key on a live account is refused outright.
    if (key.startsWith('erp_test_') !== (partner.mode === 'test')) {
      throw serviceErrors.forbidden('key_mode_mismatch', `This key cannot act in ${partner.mode} mode; use your ${partner.mode} key.`);
    }
    ctx.state.partner = partner;
    addLogContext({ partnerId: String(partner._id) });
    await next();
  };
}

/** SPEC 5.1: x-erp-partner-secret resolves the connected SME, for every endpoint except ping, whoami, validate-trn. */
export function smeAuth(): Middleware<SmeState> {
  return async (ctx, next) => {
    const { partner } = ctx.state;
    const secret = ctx.get('x-erp-partner-secret');
    if (!secret) {
      throw serviceErrors.unauthorized('missing_connection_secret', 'Send the SME connection secret in x-erp-partner-secret.');
    }
    const sme = await smeOfSecret(String(partner._id), secret);
    if (!sme) {
      throw serviceErrors.unauthorized('invalid_connection_secret', 'The connection secret in x-erp-partner-secret is not valid for this partner.');
    }
    // 401, not 403: the secret no longer authenticates anyone. Its own code so the integrator knows to ask for a reissue.
    if (sme.status !== 'active') {
      throw serviceErrors.unauthorized('connection_revoked', 'This SME connection has been revoked; ask the operator to reconnect the SME (a new connection secret for the same SME).');
    }
    ctx.state.sme = sme;
    addLogContext({ smeId: String(sme._id) });
    await next();
  };
}
