import type { Middleware, ParameterizedContext } from 'koa';
import { config } from '../config';
import type { PartnerState, TenantState } from './request-state';
import { consumeBudget } from '../services/rate-budget';
import { ServiceError } from '../domain/errors';

const MINUTE_MS = 60_000;

/** Whose budget a request spends, and how many requests a minute it has. */
interface Budget {
  bucket: string;
  limit: number;
  who: string;
}

/**
 * Per-caller request budget (DESIGN: default 600 a minute, `partner.rateLimitPerMinute` overrides; tenants get
 * the default), counted in MongoDB so all API processes share it. Mount after authentication. The X-RateLimit-*
 * headers are set before the rest of the chain runs, so they stay on every response, refusals included.
 */
function rateLimitOf<S>(budgetOf: (ctx: ParameterizedContext<S>) => Budget): Middleware<S> {
  return async (ctx, next) => {
    const { bucket, limit, who } = budgetOf(ctx);
    const budget = await consumeBudget({ bucket, limit, windowMs: MINUTE_MS });
    const headers = { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(budget.remaining) };
    ctx.set(headers);
    if (!budget.allowed) {
      throw new ServiceError(
        429,
        'rate_limited',
        'Too many requests',
        `This ${who}'s budget of ${limit} requests a minute is used up; retry after ${budget.retryAfterSeconds} seconds.`,
        { limit, retryAfterSeconds: budget.retryAfterSeconds },
        { ...headers, 'Retry-After': String(budget.retryAfterSeconds) },
      );
    }
    await next();
  };
}

export function rateLimit(): Middleware<PartnerState> {
  return rateLimitOf<PartnerState>((ctx) => ({
    bucket: `partner:${ctx.state.partner._id}`,
    limit: ctx.state.partner.rateLimitPerMinute ?? config().defaultRateLimitPerMinute,
    who: 'partner',
  }));
}

export function tenantRateLimit(): Middleware<TenantState> {
  return rateLimitOf<TenantState>((ctx) => ({ bucket: `tenant:${ctx.state.tenant._id}`, limit: config().defaultRateLimitPerMinute, who: 'tenant' }));
}
