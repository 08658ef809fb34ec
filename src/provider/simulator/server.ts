// The simulated ASP's HTTP surface: the wire contract of ../asp-api.ts, plus /_sim/* controls for tests (behind a token).
// Order of a submit mirrors a real ASP: authenticate, check the request, answer a scheduled error burst (nothing
// recorded), refuse a duplicate document id, validate the XML, record, answer (late when the scenario says so).
import Koa from 'koa';
import Router from '@koa/router';
import bodyParser from 'koa-bodyparser';
import type { Context } from 'koa';
import type { DuplicateResponse, Mls } from '../asp-api';
import { validatePintAeNative, XmlParseError } from '@einvoice/pint-ae';
import { sameSecret } from '../../credentials/secrets';
import type { TokenIssuer } from './auth';
import { isServiceError } from '../../domain/errors';
import { parseScenario, buyerTrnOf, INVALID_SCENARIO, scenarioError, SCENARIO_HEADER, type Scenario, type Scenarios } from './scenarios';
import type { Submissions } from './submissions';

/** Large invoices carry thousands of lines; a real ASP takes a few MB. */
const BODY_LIMIT = '20mb';
const MAX_DOCUMENT_ID_LENGTH = 200;

export interface ServerParts {
  tokens: TokenIssuer;
  scenarios: Scenarios;
  submissions: Submissions;
  /** Bearer token of the /_sim/* controls (scenarios, submission counts); without one they are off (404). */
  controlToken?: string | null;
}

export function simulatorApp({ tokens, scenarios, submissions, controlToken }: ServerParts): Koa {
  const app = new Koa();
  app.use(errorsAsJson());
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, strict: true }));

  const router = new Router();

  router.post('/oauth/token', (ctx) => {
    const body = (ctx.request.body ?? {}) as { clientId?: unknown; clientSecret?: unknown };
    const token = tokens.issue(body.clientId, body.clientSecret);
    if (!token) return reply(ctx, 401, { error: 'invalid_client', message: 'unknown clientId or wrong clientSecret' });
    reply(ctx, 200, token);
  });

  const requireToken: Koa.Middleware = async (ctx, next) => {
    if (!tokens.authenticate(ctx.get('Authorization') || undefined)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      return reply(ctx, 401, { error: 'unauthorized', message: 'a valid bearer token is required (POST /oauth/token)' });
    }
    await next();
  };

  router.post('/v1/submissions', requireToken, async (ctx) => {
    const body = ctx.request.body as unknown;
    const malformed = malformedField(body);
    if (malformed) return reply(ctx, 400, { error: 'invalid_request', field: malformed.field, message: malformed.message });
    const { documentId, xml } = body as { documentId: string; xml: string };

    let header: Scenario | null;
    try {
      header = scenarioHeader(ctx);
    } catch (err) {
      return reply(ctx, 400, { error: 'invalid_request', field: SCENARIO_HEADER, message: (err as Error).message });
    }
    const buyerTrn = buyerTrnOf(xml);

    const error = scenarios.takeError(header, buyerTrn, documentId);
    if (error) {
      if (error.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(error.retryAfterSeconds));
      return reply(ctx, error.status, ERROR_BODIES[error.status]);
    }

    // From here to the record nothing awaits, so concurrent submits of one document id cannot both be accepted.
    const original = submissions.byDocumentId(documentId);
    if (original) {
      const duplicate: DuplicateResponse = { error: 'duplicate_document', message: `documentId ${documentId} was already submitted as ${original.submissionId}`, submissionId: original.submissionId };
      return reply(ctx, 409, duplicate);
    }

    const scenario = scenarios.resolve(header, buyerTrn);
    const refusal = validationRefusal(xml);
    const submission = refusal ? submissions.refuse(documentId, refusal) : submissions.accept(documentId, scenario);
    if (scenario.slowMs) await new Promise((r) => setTimeout(r, scenario.slowMs).unref());
    reply(ctx, refusal ? 422 : 202, submission);
  });

  router.get('/v1/submissions/:id', requireToken, (ctx) => {
    const submission = submissions.get(ctx.params.id);
    if (!submission) return reply(ctx, 404, { error: 'not_found', message: `no submission ${ctx.params.id}` });
    reply(ctx, 200, submission);
  });

  router.get('/v1/submissions', requireToken, (ctx) => {
    const documentId = ctx.query.documentId;
    if (typeof documentId !== 'string' || !documentId) return reply(ctx, 400, { error: 'invalid_request', field: 'documentId', message: 'query parameter documentId is required' });
    const submission = submissions.byDocumentId(documentId);
    reply(ctx, 200, { data: submission ? [submission] : [] });
  });

  // Health carries nothing and is what a container healthcheck asks: open.
  router.get('/_sim/health', (ctx) => reply(ctx, 200, { ok: true }));

  // Controls for tests and sandbox operators: steering outcomes is an ASP's power, so they want the control token
  // (Authorization: Bearer), and are off (404, as if absent) where none is configured.
  const requireControl: Koa.Middleware = async (ctx, next) => {
    if (!controlToken) return reply(ctx, 404, { error: 'not_found', message: `no route ${ctx.method} ${ctx.path} (the /_sim controls are off: no ASP_SIM_CONTROL_TOKEN)` });
    const presented = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
    if (!presented || !sameSecret(presented, controlToken)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      return reply(ctx, 401, { error: 'unauthorized', field: 'Authorization', message: 'the /_sim controls want Authorization: Bearer <ASP_SIM_CONTROL_TOKEN>' });
    }
    await next();
  };

  router.put('/_sim/scenarios/:buyerTrn', requireControl, (ctx) => {
    try {
      const scenario = parseScenario(ctx.request.body);
      scenarios.set(ctx.params.buyerTrn, scenario);
      reply(ctx, 200, { buyerTrn: ctx.params.buyerTrn, scenario });
    } catch (err) {
      if (!isServiceError(err, INVALID_SCENARIO)) throw err;
      reply(ctx, 400, { error: 'invalid_request', field: 'scenario', message: err.message });
    }
  });

  router.delete('/_sim/scenarios/:buyerTrn', requireControl, (ctx) => {
    scenarios.clear(ctx.params.buyerTrn);
    ctx.status = 204;
  });

  router.get('/_sim/submissions', requireControl, (ctx) => {
    const documentId = ctx.query.documentId;
    if (typeof documentId !== 'string' || !documentId) return reply(ctx, 400, { error: 'invalid_request', field: 'documentId', message: 'query parameter documentId is required' });
    reply(ctx, 200, { count: submissions.countFor(documentId) });
  });

  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use((ctx) => reply(ctx, 404, { error: 'not_found', message: `no route ${ctx.method} ${ctx.path}` }));
  return app;
}

const ERROR_BODIES = {
  429: { error: 'rate_limited', message: 'too many requests (simulated)' },
  500: { error: 'internal_error', message: 'internal server error (simulated)' },
  503: { error: 'unavailable', message: 'service unavailable (simulated)' },
} as const;

function reply(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.body = body;
}

/** The first field of a submit body that is wrong, or null. */
function malformedField(body: unknown): { field: string; message: string } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { field: 'body', message: 'the body must be a JSON object {documentId, xml}' };
  const { documentId, xml } = body as Record<string, unknown>;
  if (typeof documentId !== 'string' || !documentId.trim()) return { field: 'documentId', message: 'documentId must be a non-empty string' };
  if (documentId.length > MAX_DOCUMENT_ID_LENGTH) return { field: 'documentId', message: `documentId must be at most ${MAX_DOCUMENT_ID_LENGTH} characters` };
  if (typeof xml !== 'string' || !xml.trim()) return { field: 'xml', message: 'xml must be a non-empty string (the PINT-AE document)' };
  return null;
}

function scenarioHeader(ctx: Context): Scenario | null {
  const raw = ctx.get(SCENARIO_HEADER);
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw scenarioError(`${SCENARIO_HEADER} must be JSON`);
  }
  return parseScenario(parsed);
}

/** MLS RE when our native PINT-AE rules find fatal errors (BV), or when the XML is not even well-formed (SV). */
function validationRefusal(xml: string): Mls | null {
  let fatal;
  try {
    fatal = validatePintAeNative(xml).fatal;
  } catch (err) {
    if (!(err instanceof XmlParseError)) throw err;
    return { code: 'RE', reasonClass: 'SV', ruleIds: [], message: `the document is not well-formed XML: ${(err as Error).message}` };
  }
  if (!fatal.length) return null;
  const ruleIds = [...new Set(fatal.map((f) => f.id))];
  return { code: 'RE', reasonClass: 'BV', ruleIds, message: fatal.map((f) => f.text).join(' ') };
}

/** Body-parser and unexpected errors as the same JSON shape as every other answer. */
function errorsAsJson(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const status = (err as { status?: number }).status ?? 500;
      const expose = status < 500;
      reply(ctx, status, { error: expose ? 'invalid_request' : 'internal_error', field: expose ? 'body' : undefined, message: expose ? (err as Error).message : 'internal error' });
      if (!expose) ctx.app.emit('error', err, ctx);
    }
  };
}
