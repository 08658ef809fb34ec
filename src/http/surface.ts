// "Which surface am I on?" has one answer: the router's. Each public router mounts onSurface() first, so even a
// refusal before authentication knows its surface; readers take ctx.state.surface through surfaceOf().
import type { Middleware, ParameterizedContext } from 'koa';
import type { Surface, SurfaceState } from './request-state';

export function onSurface<S extends Surface>(surface: S): Middleware<SurfaceState<S>> {
  return async (ctx, next) => {
    ctx.state.surface = surface;
    await next();
  };
}

/** The request's surface; a middleware mounted outside a surface's router is a wiring mistake, said at once. */
export function surfaceOf(ctx: ParameterizedContext<Partial<SurfaceState>>): Surface {
  const { surface } = ctx.state;
  if (!surface) throw new Error('ctx.state.surface is not set: mount onSurface() first on the router');
  return surface;
}
