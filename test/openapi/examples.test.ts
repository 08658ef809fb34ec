import { expect } from 'chai';
import type Joi from 'joi';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { REQUEST_SCHEMAS, RESPONSE_SCHEMAS } from '../../src/openapi/components';
import { buildOpenApiDocument } from '../../src/openapi/document';
import { OPERATIONS } from '../../src/openapi/operations';

// Two checks per example: the joi schema it came from (what the route really accepts, or what the answer's
// schema says), and the JSON Schema the document shows next to it (so the joi -> JSON Schema conversion is
// checked too). ajv is present through the dependencies; the document is JSON Schema 2020-12 (OpenAPI 3.1).

const JOI_OPTIONS: Joi.ValidationOptions = { abortEarly: false, allowUnknown: false, convert: true };

function joiErrors(schemas: Joi.Schema[], example: unknown): string[] {
  // A body with several schemas (the Tenant API's two shapes) must fit one of them, as the route picks one.
  const results = schemas.map((s) => s.validate(example, JOI_OPTIONS).error?.message);
  return results.some((e) => e === undefined) ? [] : results.map(String);
}

const doc = buildOpenApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'https://einvoice.test/openapi.json', components: doc.components });

function ajvErrors(schema: unknown, example: unknown): string[] {
  const rooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"https://einvoice.test/openapi.json#/components/'));
  const check = ajv.compile(rooted);
  return check(example) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

interface MediaExamples {
  where: string;
  schema: unknown;
  examples: Record<string, { value: unknown }>;
}

/** Every media type in the document that carries examples, with its schema. */
function documentExamples(): MediaExamples[] {
  const out: MediaExamples[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const media = [
        ...Object.entries<any>(op.requestBody?.content ?? {}).map(([t, m]) => [`${method} ${path} request ${t}`, m] as const),
        ...Object.entries<any>(op.responses).flatMap(([status, r]) => Object.entries<any>(r.content ?? {}).map(([t, m]) => [`${method} ${path} ${status} ${t}`, m] as const)),
      ];
      for (const [where, m] of media) if (m.examples) out.push({ where, schema: m.schema, examples: m.examples });
    }
  }
  return out;
}

describe('OpenAPI examples validate against their schemas', () => {
  it('request examples are accepted by the joi schema the route validates with', () => {
    let checked = 0;
    for (const op of OPERATIONS) {
      for (const [name, example] of Object.entries(op.body?.examples ?? {})) {
        expect(joiErrors(op.body!.schemas.map((s) => REQUEST_SCHEMAS[s]), example), `${op.method} ${op.path} example ${name}`).to.deep.equal([]);
        checked++;
      }
    }
    expect(checked).to.be.at.least(8);
  });

  it('answer examples fit the joi schema of the answer', () => {
    let checked = 0;
    for (const op of OPERATIONS) {
      for (const [name, example] of Object.entries(op.success.examples ?? {})) {
        expect(op.success.schema, `${op.method} ${op.path} has examples but no schema`).to.be.a('string');
        expect(joiErrors([RESPONSE_SCHEMAS[op.success.schema!]], example), `${op.method} ${op.path} answer example ${name}`).to.deep.equal([]);
        checked++;
      }
    }
    for (const name of ['Problem', 'TenantError'] as const) {
      for (const example of doc.components.schemas[name].examples) expect(joiErrors([RESPONSE_SCHEMAS[name]], example), name).to.deep.equal([]);
      checked++;
    }
    expect(checked).to.be.at.least(8);
  });

  it('every example in the document fits the JSON Schema the document shows with it', () => {
    const media = documentExamples();
    expect(media.length).to.be.at.least(10);
    for (const m of media) for (const [name, { value }] of Object.entries(m.examples)) expect(ajvErrors(m.schema, value), `${m.where} example ${name}`).to.deep.equal([]);
    for (const name of ['Problem', 'TenantError']) for (const value of doc.components.schemas[name].examples) expect(ajvErrors({ $ref: `#/components/schemas/${name}` }, value), name).to.deep.equal([]);
  });

  it('the JSON Schema refuses what the joi schema refuses (the conversion is not vacuous)', () => {
    // A held example with an unknown status and an invoice body without lines must fail both ways.
    const held = OPERATIONS.find((o) => o.method === 'post' && o.path === '/v1/partner/invoices')!;
    const body = { ...(held.body!.examples!.minimal as Record<string, unknown>), lines: undefined, extra: 1 };
    expect(joiErrors([REQUEST_SCHEMAS.InvoiceCreateBody], body)).to.not.deep.equal([]);
    expect(ajvErrors({ $ref: '#/components/schemas/InvoiceCreateBody' }, JSON.parse(JSON.stringify(body)))).to.not.deep.equal([]);
    expect(ajvErrors({ $ref: '#/components/schemas/InvoiceQueued' }, { invoiceId: '0b6f6f55-3a55-4b7e-8f0e-2d1c6a6b9e01', number: 'X', status: 'pending' })).to.not.deep.equal([]);
  });
});
