import type Router from '@koa/router';
import Joi from 'joi';
import type { Context } from 'koa';
import { validateBody } from '../../http/validate';
import { DEFAULT_OVERLAP, parseOverlap } from '../../credentials/overlap';
import type { AuditActor } from '../../services/credential-audit';
import { rotatePartnerSecret, rotatePartnerWebhookSecret, rotateSmeSecret, rotateTenantSecret, rotateTenantWebhookSecret, type RotationOptions } from '../../services/credential-rotation';
import { revokePartner, revokeSme, revokeTenantSecret } from '../../services/credential-revocation';

// The admin API's credential lifecycle: the same services as `einvoice admin *:rotate-*` and `*:revoke*`.
// Every answer that carries a secret is shown once; the audit log names the request id and client address.

export interface Rotation {
  overlap: string;
}

export const rotationSchema = Joi.object<Rotation>({
  overlap: Joi.string()
    .trim()
    .custom((value: string, helpers) => {
      const parsed = parseOverlap(value);
      return 'problem' in parsed ? helpers.message({ custom: parsed.problem }) : value;
    })
    .required(),
});

/** The admin API's actor in the audit log: the request (its id, echoed in X-Request-Id) and the client address. */
export function apiActor(ctx: Context): AuditActor {
  return { kind: 'admin-api', name: `request:${String(ctx.state.requestId ?? 'unknown')}`, address: ctx.ip || null };
}

type AdminCall = <T>(work: () => Promise<T>) => Promise<T>;
type Rotate = (id: string, opts: RotationOptions) => Promise<unknown>;
type Revoke = (id: string, actor: AuditActor) => Promise<unknown>;

/**
 * No body at all means the default overlap; a body says `overlap`. An empty, unreadable or empty-object body is
 * refused rather than taken as "use the default": the caller meant something we did not read.
 */
function rotationInput(ctx: Context, parsed: unknown): unknown {
  const raw = (ctx.request as { rawBody?: string }).rawBody;
  if (!ctx.get('Content-Type') && !raw) return { overlap: DEFAULT_OVERLAP };
  return raw ? parsed : undefined;
}

export function credentialRoutes(router: Router, adminCall: AdminCall): void {
  const rotation = (path: string, param: string, rotate: Rotate) =>
    router.post(path, async (ctx) => {
      const body = validateBody(rotationSchema.required(), rotationInput(ctx, (ctx.request as { body?: unknown }).body));
      const parsed = parseOverlap(body.overlap);
      const overlapMs = 'ms' in parsed ? parsed.ms : 0; // the schema refused anything else
      ctx.body = await adminCall(() => rotate(ctx.params[param], { overlapMs, actor: apiActor(ctx) }));
    });
  const revocation = (path: string, param: string, revoke: Revoke) =>
    router.post(path, async (ctx) => {
      ctx.body = await adminCall(() => revoke(ctx.params[param], apiActor(ctx)));
    });

  rotation('/partners/:partnerId/rotate-secret', 'partnerId', rotatePartnerSecret);
  rotation('/partners/:partnerId/rotate-webhook-secret', 'partnerId', rotatePartnerWebhookSecret);
  revocation('/partners/:partnerId/revoke', 'partnerId', revokePartner);
  rotation('/smes/:smeId/rotate-secret', 'smeId', rotateSmeSecret);
  revocation('/smes/:smeId/revoke', 'smeId', revokeSme);
  rotation('/tenants/:tenantId/rotate-secret', 'tenantId', rotateTenantSecret);
  rotation('/tenants/:tenantId/rotate-webhook-secret', 'tenantId', rotateTenantWebhookSecret);
  revocation('/tenants/:tenantId/revoke-secret', 'tenantId', revokeTenantSecret);
}
