// What the Partner API's middleware leaves in ctx.state, typed, so routes read it without casts:
// partnerAuth -> PartnerState, smeAuth -> SmeState, validate(...) -> Validated.
import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import type { PartnerDoc, SmeConnectionDoc } from '../db/models';

export interface PartnerState {
  partner: PartnerDoc;
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
