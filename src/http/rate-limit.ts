import type { Middleware } from 'koa';
import { config } from '../config';
import type { PartnerState } from './request-state';
import { consumeBudget } from '../services/rate-budget';
import { ServiceError } from '../domain/errors';

const MINUTE_MS = 60_000;

/**
 * Per-partner request budget (DESIGN: default 600 a minute, `partner.rateLimitPerMinute` overrides), counted in
 * MongoDB so all API processes share it. Mount after partnerAuth. The X-RateLimit-* headers are set before the
 * rest of the chain runs, so they stay on every response, problems included (problemErrors keeps set headers).
 */
export function rateLimit(): Middleware<PartnerState> {
  return async (ctx, next) => {
    const { partner } = ctx.state;
    const limit = partner.rateLimitPerMinute ?? config().defaultRateLimitPerMinute;
    const budget = await consumeBudget({ bucket: `partner:${partner._id}`, limit, windowMs: MINUTE_MS });
    const headers = { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(budget.remaining) };
    ctx.set(headers);
    if (!budget.allowed) {
      throw new ServiceError(
        429,
        'rate_limited',
        'Too many requests',
        `This partner's budget of ${limit} requests a minute is used up; retry after ${budget.retryAfterSeconds} seconds.`,
        { limit, retryAfterSeconds: budget.retryAfterSeconds },
        { ...headers, 'Retry-After': String(budget.retryAfterSeconds) },
      );
    }
    await next();
  };
}
