import type Joi from 'joi';
import type { Middleware } from 'koa';
import { serviceErrors } from '../domain/errors';
import { joiFieldError } from '../domain/joi-errors';
import { JOI_OPTIONS } from '../domain/schema-helpers';
import type { FieldError } from '@einvoice/pint-ae';

// joi for every body and query (DESIGN), with failures turned into SPEC's 400 validation_failed problem whose
// meta.errors are [{code, path, message}] and path is the JSON path of the field (`address.country`, `lines[0].vatRate`).

/** A joi schema, or a function that returns the checked value or throws validation_failed. */
export type Check<T> = Joi.Schema<T> | ((input: unknown) => T);

/**
 * Route middleware: checks the body and/or the query string before the handler runs and leaves the converted
 * values in ctx.state.body / ctx.state.query (see Validated). Routes compose auth -> validate -> handler.
 */
export function validate<B = unknown, Q = unknown>(checks: { body?: Check<B>; query?: Check<Q> }): Middleware<Partial<{ body: B; query: Q }>> {
  return async (ctx, next) => {
    if (checks.body) ctx.state.body = run(checks.body, ctx.request.body, validateBody);
    if (checks.query) ctx.state.query = run(checks.query, ctx.query, validateQuery);
    await next();
  };
}

function run<T>(check: Check<T>, input: unknown, withSchema: (schema: Joi.Schema<T>, input: unknown) => T): T {
  return typeof check === 'function' ? check(input) : withSchema(check, input);
}

/** Validates a request body; returns the converted value (defaults applied) or throws 400 validation_failed (InvalidBody). */
export function validateBody<T>(schema: Joi.Schema<T>, body: unknown): T {
  return validateWith(schema, body, 'InvalidBody: the request body failed validation; see meta.errors.');
}

/** Validates a query string object; 400 validation_failed whose detail says InvalidQuery. */
export function validateQuery<T>(schema: Joi.Schema<T>, query: unknown): T {
  return validateWith(schema, query, 'InvalidQuery: the query string failed validation; see meta.errors.');
}

function validateWith<T>(schema: Joi.Schema<T>, input: unknown, detail: string): T {
  const { value, error } = schema.validate(input, JOI_OPTIONS);
  if (error) throw serviceErrors.validation(toFieldErrors(error.details), detail);
  return value as T;
}

/**
 * Listed at most: 5,000 wrong array items in a 4 KB body were a 750 KB answer (issue 13: no answer much larger
 * than the request). The rest is counted in one last entry.
 */
const MAX_LISTED_ERRORS = 100;

/** Pure: joi's details as our error list (joi-errors.ts, `request` dialect), one entry per failing path and code. */
function toFieldErrors(details: Joi.ValidationErrorItem[]): FieldError[] {
  const seen = new Set<string>();
  const out: (FieldError & { depth: number })[] = [];
  for (const d of details) {
    const error = joiFieldError(d, 'request');
    const id = `${error.path}\u0000${error.code}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ ...error, depth: d.path.length });
  }
  const plain = ({ code, path, message }: FieldError): FieldError => ({ code, path, message });
  if (out.length <= MAX_LISTED_ERRORS) return out.map(plain);
  // joi lists an array's items before the array's own limit (`ids` too_many): shallow paths first, so it is kept.
  const kept = [...out].sort((a, b) => a.depth - b.depth).slice(0, MAX_LISTED_ERRORS).map(plain);
  const more = out.length - MAX_LISTED_ERRORS;
  return [...kept, { code: 'too_many_errors', path: '', message: `${more} more problem(s) not listed: fix the ${MAX_LISTED_ERRORS} above (the same kind of mistake, most likely) and send again.` }];
}
