// What the routers' middleware leaves in ctx.state, typed, so routes read it without casts:
// onSurface -> SurfaceState, partnerAuth -> PartnerState, smeAuth -> SmeState, tenantAuth -> TenantState,
// validate(...) -> Validated.
import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import type { PartnerDoc, SmeConnectionDoc, TenantDoc } from '../db/models';
import type { TenantMode } from '../domain/tenant-invoice-types';

/** Which public API a request is on: the Partner API (/v1/partner) or the Tenant API (/v1/invoices, ...). */
export type Surface = 'partner' | 'tenant';

/**
 * Set once, by the first middleware of each router (http/surface.ts onSurface), and read by everything that
 * answers differently per surface (the error shape, the idempotency key space): never decided from the path.
 */
export interface SurfaceState<S extends Surface = Surface> {
  surface: S;
}

export interface PartnerState extends SurfaceState<'partner'> {
  partner: PartnerDoc;
  /** Set by idempotent(): the request's origin key (services/idempotency originKey), kept on what it creates. */
  idempotencyOrigin?: string;
}

export interface SmeState extends PartnerState {
  sme: SmeConnectionDoc;
}

/** The joi-converted body and query of a route that mounts validate(). */
export interface Validated<B = unknown, Q = unknown> {
  body: B;
  query: Q;
}

export type PartnerRouter = Router<PartnerState>;
export type SmeRouter = Router<SmeState>;
export type SmeContext = ParameterizedContext<SmeState>;

/** tenantAuth -> TenantState: the tenant, its active mode (which partitions its invoices) and the connector. */
export interface TenantState extends SurfaceState<'tenant'> {
  tenant: TenantDoc;
  mode: TenantMode;
  /** X-Service-Source: <connector_name>/<version>, recorded on drafts; null when absent. */
  source: string | null;
}

export type TenantRouter = Router<TenantState>;
export type TenantContext = ParameterizedContext<TenantState>;
