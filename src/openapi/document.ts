// Builds the OpenAPI 3.1 document from the route registry (operations.ts) and the joi schemas (components.ts).
// Pure: the same input gives the same document; the route file serves it, the tests inspect it.
import { jsonSchemaOf, queryParametersOf, type JsonSchema } from './joi-schema';
import { QUERY_SCHEMAS, REQUEST_SCHEMAS, RESPONSE_SCHEMAS } from './components';
import { OPERATIONS, type Operation, type Surface } from './operations';
import { problemExample, tenantErrorExample } from './examples';
import { REPORTED_STATUSES, STATUS_MODEL } from './status-model';

export type OpenApiDocument = Record<string, any>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `/v1/partner/invoices/:id` -> `/v1/partner/invoices/{id}`. */
export function openApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const TAGS: Record<Surface, string> = {
  'partner-key': 'Partner API',
  partner: 'Partner API',
  'tenant-token': 'Tenant API',
  tenant: 'Tenant API',
  admin: 'Admin API (operators only)',
  provider: 'Provider callbacks (the accredited provider only)',
  public: 'Health and documentation',
};

const SECURITY: Record<Surface, Record<string, string[]>[]> = {
  'partner-key': [{ PartnerApiKey: [], PartnerApiSecret: [] }],
  partner: [{ PartnerApiKey: [], PartnerApiSecret: [], PartnerConnectionSecret: [] }],
  tenant: [{ TenantBearer: [] }],
  'tenant-token': [],
  admin: [{ AdminBearer: [] }],
  provider: [{ AspSignature: [] }],
  public: [],
};

/** Codes every operation of a surface can answer (authentication, rate limit, failed-authentication limit), from src/http. */
const SURFACE_ERRORS: Record<Surface, Record<number, string[]>> = {
  'partner-key': { 401: ['missing_credentials', 'invalid_credentials'], 403: ['partner_inactive', 'key_mode_mismatch'], 429: ['rate_limited', 'too_many_failed_authentications'] },
  partner: {
    401: ['missing_credentials', 'invalid_credentials', 'missing_connection_secret', 'invalid_connection_secret', 'connection_revoked'],
    403: ['partner_inactive', 'key_mode_mismatch'],
    429: ['rate_limited', 'too_many_failed_authentications'],
  },
  tenant: { 401: ['missing_authorization_header'], 403: ['kyb_required'], 429: ['rate_limited', 'too_many_failed_authentications'] },
  'tenant-token': { 429: ['too_many_failed_authentications'] },
  admin: { 401: ['invalid_admin_token'], 404: ['route_not_found'] },
  provider: {},
  public: {},
};

/** The admin API is served on its own listener, never on the public port (src/server.ts). */
const ADMIN_SERVER = {
  url: 'http://127.0.0.1:3001',
  description: 'The admin listener: ADMIN_HOST:ADMIN_PORT (127.0.0.1:3001 by default), not the public port, where /v1/admin answers 404.',
};

const isTenant = (s: Surface) => s === 'tenant' || s === 'tenant-token';
const isRateLimited = (s: Surface) => s === 'partner-key' || s === 'partner' || s === 'tenant';

/** Codes raised because of what the operation takes: a JSON body, an Idempotency-Key. */
function mechanismErrors(op: Operation): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  const add = (status: number, ...codes: string[]) => (out[status] = [...(out[status] ?? []), ...codes]);
  const tenant = isTenant(op.surface);
  if (op.body) {
    add(400, tenant ? 'invalid_body' : 'malformed_json');
    add(413, 'payload_too_large');
    add(415, 'unsupported_media_type');
  }
  if (op.idempotency) {
    if (op.idempotency === 'required') tenant ? add(422, 'idempotency_required') : add(400, 'idempotency_key_required');
    add(400, 'idempotency_key_too_long');
    add(409, 'idempotency_key_mismatch', 'idempotency_in_progress');
  }
  return out;
}

/** Every code an operation can answer, by HTTP status, deduplicated and sorted. */
export function errorCodesOf(op: Operation): Record<number, string[]> {
  const merged: Record<number, Set<string>> = {};
  for (const part of [SURFACE_ERRORS[op.surface], mechanismErrors(op), op.errors ?? {}]) {
    for (const [status, codes] of Object.entries(part)) for (const c of codes) (merged[Number(status)] ??= new Set()).add(c);
  }
  if (op.surface !== 'public') (merged[500] ??= new Set()).add('internal_error');
  return Object.fromEntries(Object.entries(merged).map(([s, codes]) => [s, [...codes].sort()]));
}

function rateLimitHeaders(withRetryAfter: boolean): Record<string, unknown> {
  return {
    'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
    'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
    ...(withRetryAfter ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
  };
}

function errorResponse(op: Operation, status: number, codes: string[]): Record<string, unknown> {
  const tenant = isTenant(op.surface);
  const schema = { allOf: [ref(tenant ? 'TenantError' : 'Problem'), { properties: { code: { enum: codes } } }] };
  return {
    description: `Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    ...(isRateLimited(op.surface) ? { headers: rateLimitHeaders(status === 429) } : status === 429 ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } : {}),
    content: { [tenant ? 'application/json' : 'application/problem+json']: { schema } },
  };
}

function examplesOf(examples: Record<string, unknown> | undefined): Record<string, unknown> {
  return examples ? { examples: Object.fromEntries(Object.entries(examples).map(([k, value]) => [k, { value }])) } : {};
}

function operationObject(op: Operation): Record<string, unknown> {
  const parameters: unknown[] = [...op.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: m[1] === 'id' ? { type: 'string', format: 'uuid' } : { type: 'string' },
  }));
  if (op.query) parameters.push(...queryParametersOf(QUERY_SCHEMAS[op.query]));
  if (op.idempotency) parameters.push({ $ref: `#/components/parameters/${op.idempotency === 'required' ? 'IdempotencyKey' : 'IdempotencyKeyOptional'}` });
  if (op.surface === 'tenant') parameters.push({ $ref: '#/components/parameters/ServiceSource' });

  const success = op.success;
  const successContent = success.schema || success.contentType
    ? { content: { [success.contentType ?? 'application/json']: { ...(success.schema ? { schema: ref(success.schema) } : {}), ...examplesOf(success.examples) }, ...alternateContent(success.alsoContentTypes) } }
    : {};
  const responses: Record<string, unknown> = {
    [success.status]: { description: success.description, ...(isRateLimited(op.surface) ? { headers: rateLimitHeaders(false) } : {}), ...successContent },
  };
  for (const [status, codes] of Object.entries(errorCodesOf(op))) responses[status] = errorResponse(op, Number(status), codes);

  let requestBody: unknown;
  if (op.body) {
    const schemas = op.body.schemas.map(ref);
    requestBody = { required: true, content: { 'application/json': { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas }, ...examplesOf(op.body.examples) } } };
  } else if (op.rawBody) {
    requestBody = { required: true, description: op.rawBody.description, content: { [op.rawBody.contentType]: { schema: rawBodySchema(op.rawBody.contentType) } } };
  }

  return {
    tags: [TAGS[op.surface]],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    operationId: `${op.method}${openApiPath(op.path).replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    security: SECURITY[op.surface],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(op.surface === 'admin' ? { servers: [ADMIN_SERVER] } : {}),
    'x-surface': op.surface,
  };
}

/** Other representations of a success answer (content negotiation): text, or bytes for a PDF. */
function alternateContent(types: string[] | undefined): Record<string, unknown> {
  return Object.fromEntries((types ?? []).map((t) => [t, { schema: t === 'application/pdf' ? { type: 'string', format: 'binary' } : { type: 'string' } }]));
}

function rawBodySchema(contentType: string): JsonSchema {
  if (contentType === 'multipart/form-data') return multipartSchema();
  return contentType.endsWith('/xml') ? { type: 'string' } : { type: 'object' };
}

function multipartSchema(): JsonSchema {
  return {
    type: 'object',
    required: ['file'],
    properties: {
      file: { type: 'string', contentMediaType: 'text/csv', description: 'The CSV file.' },
      options: { type: 'string', contentMediaType: 'application/json', description: '{"mode": "sandbox"|"live", "skipErrors": boolean}' },
    },
  };
}

/** The named schemas: requests as joi-to-json renders the routes' joi, answers likewise; the status name. */
function componentSchemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries({ ...REQUEST_SCHEMAS, ...RESPONSE_SCHEMAS })) out[name] = jsonSchemaOf(schema);
  // BulkInvoiceBody's envelope checks only the count (each item is validated on its own, 207); say what an item is.
  const bulk = out.BulkInvoiceBody as { properties: { invoices: JsonSchema } };
  bulk.properties.invoices.items = ref('BulkInvoiceItem');
  // The status fields of the answers name the one status model.
  for (const name of ['InvoiceQueued', 'InvoiceStatus', 'InvoiceDetail']) (out[name] as { properties: Record<string, unknown> }).properties.status = ref('InvoiceStatusName');
  // One example of each error shape, shown with the schema (and checked against it by the tests).
  (out.Problem as JsonSchema).examples = [problemExample];
  (out.TenantError as JsonSchema).examples = [tenantErrorExample];
  out.InvoiceStatusName = { type: 'string', enum: [...REPORTED_STATUSES], description: STATUS_MODEL };
  return out;
}

export function buildOpenApiDocument(operations: Operation[] = OPERATIONS): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[openApiPath(op.path)] ??= {})[op.method] = operationObject(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Invoice Submission Service (UAE e-invoicing)',
      version: '1.0.0',
      description: [
        'Two surfaces: the **Partner API** (`/v1/partner`, ERP partners acting for connected SMEs; errors are `application/problem+json`) and the **Tenant API** (`/v1/invoices`, `/v1/credit-notes`, `/v1/auth/token`; errors are `{code, humanMessage, meta, errors}`). The admin API (served on its own listener, ADMIN_HOST:ADMIN_PORT, never the public port) and the provider callback are listed for operators and the accredited provider; integrators do not call them.',
        'Mutations take an `Idempotency-Key` (1 to 128 characters): the same key with the same body replays the stored answer (header `Idempotent-Replayed: true`), with another body it is a 409.',
        'Partner and Tenant answers carry `X-RateLimit-Limit` and `X-RateLimit-Remaining`; a 429 adds `Retry-After` (seconds).',
        STATUS_MODEL,
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    tags: [...new Set(Object.values(TAGS))].map((name) => ({ name })),
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        PartnerApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Partner API key (test keys start erp_test_).' },
        PartnerApiSecret: { type: 'apiKey', in: 'header', name: 'X-API-Secret', description: 'Partner API secret.' },
        PartnerConnectionSecret: { type: 'apiKey', in: 'header', name: 'x-erp-partner-secret', description: 'The SME connection secret: selects the SME the call acts for.' },
        TenantBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'From POST /v1/auth/token; valid one hour.' },
        AdminBearer: { type: 'http', scheme: 'bearer', description: 'The installation\'s ADMIN_TOKEN; the admin API is off (404) without it.' },
        AspSignature: { type: 'apiKey', in: 'header', name: 'X-ASP-Signature', description: 'The accredited provider\'s HMAC of the raw body with the callback secret of the document\'s mode (PROVIDER_CALLBACK_SECRET live, PROVIDER_SANDBOX_CALLBACK_SECRET sandbox).' },
      },
      parameters: {
        IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', minLength: 1, maxLength: 128 }, description: 'Unique per request (a UUID); reuse only to retry the same request.' },
        IdempotencyKeyOptional: { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 128 }, description: 'Optional here; when sent it binds the request as on other mutations.' },
        ServiceSource: { name: 'X-Service-Source', in: 'header', required: false, schema: { type: 'string' }, description: '<connector_name>/<version> of the calling connector.' },
      },
      headers: {
        'X-RateLimit-Limit': { description: 'Requests allowed per minute.', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Requests left in this minute.', schema: { type: 'integer' } },
        'Retry-After': { description: 'Seconds until the budget allows another request.', schema: { type: 'integer' } },
      },
    },
  };
}
