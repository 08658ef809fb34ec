import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { addLogContext, currentLogContext, logger, withLogContext } from '../logger';
import { invoiceWorkflowId } from '../temporal/contract';
import { routeOf } from './metrics';

/** Routes whose `:id` is an invoice's (both surfaces), and the creates whose answer names the new invoice. */
const INVOICE_ID_ROUTE = /\/(invoices|credit-notes)\/:id(\/|$)/;
const INVOICE_CREATE_ROUTE = /\/(invoices|credit-notes)$/;

/**
 * Echoes a sane X-Request-Id or makes one, opens the request's log context (src/logger.ts: every line logged while
 * it runs carries the request id, and the partner, SME or tenant once auth has added them), and writes one
 * access-log line per request (after the error middleware has set the final status) naming the invoice when the
 * route has one: its `:id`, or the invoice a POST created.
 */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const given = ctx.get('X-Request-Id');
    const id = /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.state.log = logger;
    ctx.set('X-Request-Id', id);
    await withLogContext({ requestId: id }, async () => {
      await next();
      const route = routeOf(ctx as never);
      if (!currentLogContext().invoiceId) {
        const invoiceId = invoiceIdOf(ctx.method, route, (ctx as { params?: Record<string, string> }).params, ctx.status, ctx.body);
        if (invoiceId) addLogContext({ invoiceId, workflowId: invoiceWorkflowId(invoiceId) });
      }
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ method: ctx.method, path: ctx.path, route, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    });
  };
}

function invoiceIdOf(method: string, route: string, params: Record<string, string> | undefined, status: number, body: unknown): string | null {
  if (INVOICE_ID_ROUTE.test(route) && params?.id) return params.id;
  if (method === 'POST' && status < 300 && INVOICE_CREATE_ROUTE.test(route) && body) {
    // idempotent() answers with the stored JSON text (the first answer too); a create's answer is small.
    const answer = typeof body === 'string' ? (body.length <= 16_384 ? parsed(body) : null) : Buffer.isBuffer(body) ? null : body;
    if (!answer || typeof answer !== 'object') return null;
    const { id, invoiceId } = answer as { id?: unknown; invoiceId?: unknown };
    const found = typeof id === 'string' ? id : typeof invoiceId === 'string' ? invoiceId : null;
    return found;
  }
  return null;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
