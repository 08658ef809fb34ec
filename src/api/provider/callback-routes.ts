import Router from '@koa/router';
import type { Context } from 'koa';
import { config } from '../../config';
import { ServiceError, serviceErrors } from '../../domain/errors';
import { addLogContext, logger } from '../../logger';
import { ASP_SIGNATURE_HEADER, type Submission } from '../../provider/asp-api';
import { aspSignatureProblem } from '../../provider/asp-callback-signature';
import { verdictOf } from '../../provider/asp-verdicts';
import { answeredRecord, modeOfRecord, recordAnswer } from '../../services/asp-evidence';
import { signalAspVerdict } from '../../temporal/client';
import { invoiceWorkflowId } from '../../temporal/contract';
import { ROUTER_OPTIONS } from '../../http/router-options';

const MAX_CALLBACK_BYTES = 256 * 1024;

/**
 * POST /v1/provider/callbacks: the ASP's signed status callbacks. The signature is checked on the raw bytes before
 * anything is parsed, against each mode's secret (live: PROVIDER_CALLBACK_SECRET, sandbox:
 * PROVIDER_SANDBOX_CALLBACK_SECRET); the document it names must be of a mode whose secret signed it (a sandbox
 * cannot speak for a live document). Then the answer is recorded as evidence (the same callback twice changes
 * nothing) and, when it is final (REPORTED or FAILED), the invoice's workflow is told. Polling covers a callback
 * that never comes.
 */
export function providerRouter(): Router {
  const router = new Router({ prefix: '/v1/provider', ...ROUTER_OPTIONS });
  router.post('/callbacks', async (ctx) => {
    const secrets = callbackSecrets();
    if (!secrets.length) throw new ServiceError(404, 'route_not_found', 'Not found', 'Provider callbacks are disabled (neither PROVIDER_CALLBACK_SECRET nor PROVIDER_SANDBOX_CALLBACK_SECRET is set).');
    const raw = await rawBody(ctx);
    const header = ctx.get(ASP_SIGNATURE_HEADER) || undefined;
    const checked = secrets.map(({ mode, secret }) => ({ mode, problem: aspSignatureProblem(raw, header, secret) }));
    const signedFor: string[] = checked.filter((c) => c.problem === null).map((c) => c.mode);
    if (!signedFor.length) {
      const problem = checked[0].problem;
      logger.warn({ problem, ip: ctx.ip }, 'provider callback refused');
      throw serviceErrors.unauthorized('invalid_signature', `The callback is not signed by the provider: ${problem}.`);
    }
    const sub = parseSubmission(raw);
    const record = await answeredRecord(sub);
    if (!record) {
      logger.warn({ submissionId: sub.submissionId }, 'provider callback for an unknown submission');
      throw serviceErrors.notFound(`No submission ${String(sub.submissionId).slice(0, 100)} was made by this service.`);
    }
    const mode = await modeOfRecord(record);
    if (!mode || !signedFor.includes(mode)) {
      logger.warn({ submissionId: sub.submissionId, signedFor, documentMode: mode, ip: ctx.ip }, 'provider callback refused: signed with another mode\'s secret');
      const wanted = mode === 'live' ? "the live provider's secret" : mode === 'sandbox' ? "the sandbox provider's secret" : 'no provider secret (no callbacks are taken for it)';
      throw serviceErrors.unauthorized('invalid_signature', `${ASP_SIGNATURE_HEADER} is signed with the ${signedFor.join('/')} provider's secret, but submission ${String(sub.submissionId).slice(0, 100)} is a ${mode ?? 'deleted'} document: sign callbacks about it with ${wanted}.`);
    }
    const recorded = await recordAnswer(sub, 'callback', record);
    if (!recorded) throw serviceErrors.notFound(`No submission ${String(sub.submissionId).slice(0, 100)} was made by this service.`);
    const verdict = verdictOf(sub);
    // The request line (and any warning below) names the invoice the ASP answered for, and its verdict.
    addLogContext({ invoiceId: recorded.invoiceId, workflowId: invoiceWorkflowId(recorded.invoiceId) });
    logger.info({ submissionId: sub.submissionId, verdict: verdict.status, changed: recorded.changed }, `ASP callback: ${verdict.status}`);
    if (recorded.changed && verdict.status !== 'pending') {
      await signalAspVerdict(recorded.invoiceId, verdict).catch((err: unknown) =>
        // The workflow is gone (invoice deleted) or Temporal is away: the workflow's polling covers the latter.
        logger.warn({ err, invoiceId: recorded.invoiceId }, 'provider callback recorded, workflow not signalled'),
      );
    }
    ctx.status = 204;
  });
  return router;
}

/** The callback secret of each mode that talks to a provider over HTTP, where configured. */
function callbackSecrets(): { mode: 'live' | 'sandbox'; secret: string }[] {
  const cfg = config();
  const out: { mode: 'live' | 'sandbox'; secret: string }[] = [];
  if (cfg.providerCallbackSecret) out.push({ mode: 'live', secret: cfg.providerCallbackSecret });
  if (cfg.providerSandboxCallbackSecret) out.push({ mode: 'sandbox', secret: cfg.providerSandboxCallbackSecret });
  return out;
}

async function rawBody(ctx: Context): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_CALLBACK_BYTES) throw new ServiceError(413, 'payload_too_large', 'Payload too large', `A callback body is at most ${MAX_CALLBACK_BYTES} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseSubmission(raw: Buffer): Submission {
  let body: Partial<Submission>;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ServiceError(400, 'malformed_json', 'Malformed JSON', 'The callback body is not valid JSON.');
  }
  if (typeof body?.submissionId !== 'string' || typeof body.status !== 'string' || !Array.isArray(body.history)) {
    throw serviceErrors.validation([{ code: 'required', path: 'submissionId', message: 'a callback carries submissionId, status and history' }]);
  }
  const bad = body.history.findIndex((h) => typeof h?.status !== 'string' || typeof h?.at !== 'string');
  if (bad >= 0) throw serviceErrors.validation([{ code: 'invalid_type', path: `history[${bad}]`, message: 'each history entry is {status, at} with strings' }]);
  return body as Submission;
}
