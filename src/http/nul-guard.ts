import type { Middleware } from 'koa';
import { serviceErrors, ServiceError } from '../domain/errors';

/**
 * A NUL character (%00) names nothing and no field of this API holds one, but the store refuses it with an error
 * of its own (PostgreSQL text cannot hold it): so it is refused here, before any query. In the path: 404, as for
 * any id that does not exist; in the query string: 400 naming the parameter. (JSON bodies: json-body.ts.)
 */
export function refuseNul(): Middleware {
  return async (ctx, next) => {
    if (decoded(ctx.path).includes('\0')) {
      throw new ServiceError(404, 'route_not_found', 'Not found', `No route for ${ctx.method} ${ctx.path}.`);
    }
    for (const [key, value] of Object.entries(ctx.query)) {
      if (key.includes('\0') || [value ?? ''].flat().some((v) => v.includes('\0'))) {
        throw serviceErrors.validation([{ code: 'forbidden_character', path: key.replace(/\0/g, '\\0'), message: `${key.replace(/\0/g, '\\0')} holds a NUL character (%00); no parameter of this API takes one.` }], 'InvalidQuery: the query string failed validation; see meta.errors.');
      }
    }
    await next();
  };
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // malformed escapes: the router does not match them either
  }
}
