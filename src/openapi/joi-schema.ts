// joi -> JSON Schema (OpenAPI 3.1 dialect) for the document. Pure. The conversion itself is joi-to-json's; this
// module only adapts its output to where OpenAPI wants it (query parameters, $refs to named components).
import type Joi from 'joi';
import parse from 'joi-to-json';

export type JsonSchema = Record<string, unknown>;

/** The JSON Schema of a joi schema, as OpenAPI 3.1 (JSON Schema 2020-12) reads it. */
export function jsonSchemaOf(schema: Joi.Schema): JsonSchema {
  return parse(schema, 'open-api-3.1') as JsonSchema;
}

export interface QueryParameter {
  name: string;
  in: 'query';
  required: boolean;
  schema: JsonSchema;
  description?: string;
  style?: 'form';
  explode?: boolean;
}

/**
 * A joi object schema of a query string as OpenAPI query parameters, one per key. An array-valued key (e.g.
 * `status`) is a repeatable parameter (`?status=a&status=b`), which is how koa hands it to the schema.
 */
export function queryParametersOf(schema: Joi.Schema): QueryParameter[] {
  const json = jsonSchemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: 'query' as const,
    required: required.has(name),
    schema: s,
    ...(s.type === 'array' ? { style: 'form' as const, explode: true } : {}),
  }));
}
