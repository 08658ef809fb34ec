import type { Middleware } from 'koa';
import { Partner, SmeConnection, type PartnerDoc, type SmeConnectionDoc } from '../db/models';
import type { PartnerState, SmeState } from './request-state';
import { secretMatches, sha256Hex } from '../credentials/secrets';
import { serviceErrors } from '../domain/errors';
import { addLogContext } from '../logger';


const INACTIVE = new Set(['revoked', 'live_rejected']);

/** SPEC 5.1: X-API-Key + X-API-Secret identify the partner (401 when missing or wrong, 403 when not allowed). */
export function partnerAuth(): Middleware<PartnerState> {
  return async (ctx, next) => {
    const key = ctx.get('X-API-Key');
    const secret = ctx.get('X-API-Secret');
    if (!key || !secret) {
      throw serviceErrors.unauthorized('missing_credentials', 'Send your API key in X-API-Key and your API secret in X-API-Secret.');
    }
    const partner = await Partner.findOne({ apiKeyHash: sha256Hex(key) }).lean<PartnerDoc>();
    // Same answer for an unknown key and a wrong secret, so a caller cannot probe which keys exist.
    if (!partner || !secretMatches(secret, partner.apiSecretHash)) {
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
    const sme = await SmeConnection.findOne({ connectionSecretHash: sha256Hex(secret), partnerId: partner._id }).lean<SmeConnectionDoc>();
    if (!sme || !secretMatches(secret, sme.connectionSecretHash)) {
      throw serviceErrors.unauthorized('invalid_connection_secret', 'The connection secret in x-erp-partner-secret is not valid for this partner.');
    }
    if (sme.status !== 'active') {
      throw serviceErrors.forbidden('connection_revoked', 'This SME connection has been revoked; reconnect the SME.');
    }
    ctx.state.sme = sme;
    addLogContext({ smeId: String(sme._id) });
    await next();
  };
}
