import { expect } from 'chai';
import { call } from '../helpers/http';

describe('GET /openapi.json and GET /docs', () => {
  it('serves the OpenAPI 3.1 document without credentials', async () => {
    const res = await call('GET', '/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(res.body.openapi).to.equal('3.1.0');
    expect(res.body.paths).to.include.keys('/v1/partner/invoices', '/v1/invoices', '/v1/partner/invoices/{id}');
  });

  it('documents the security schemes, the idempotency key and the error codes of POST /v1/partner/invoices', async () => {
    const { body: doc } = await call('GET', '/openapi.json');
    expect(doc.components.securitySchemes).to.include.keys('PartnerApiKey', 'PartnerApiSecret', 'PartnerConnectionSecret', 'TenantBearer', 'AdminBearer', 'AspSignature');
    const post = doc.paths['/v1/partner/invoices'].post;
    expect(post.parameters).to.deep.include({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(post.responses['403'].content['application/problem+json'].schema.allOf[1].properties.code.enum).to.include.members(['trn_mismatch', 'test_trn_reject']);
    expect(post.responses['429'].headers).to.include.keys('Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining');
    const tenant = doc.paths['/v1/invoices'].post;
    expect(tenant.responses['422'].content['application/json'].schema.allOf[0]).to.deep.equal({ $ref: '#/components/schemas/TenantError' });
    expect(tenant.responses['422'].content['application/json'].schema.allOf[1].properties.code.enum).to.include('idempotency_required');
  });

  it('states the status model once, with held, and the status fields point at it', async () => {
    const { body: doc } = await call('GET', '/openapi.json');
    const model = doc.components.schemas.InvoiceStatusName;
    expect(model.enum).to.include.members(['draft', 'queued', 'delivered', 'acknowledged', 'rejected', 'blocked_no_credit', 'held']);
    expect(model.description).to.match(/reported as status `held` everywhere/);
    expect(doc.components.schemas.InvoiceStatus.properties.status).to.deep.equal({ $ref: '#/components/schemas/InvoiceStatusName' });
  });

  it('renders /docs with Swagger UI served from this service, not a CDN', async () => {
    const res = await call('GET', '/docs');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(res.text).to.include("url: '/openapi.json'");
    const srcs = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(srcs.length).to.be.at.least(3);
    for (const src of srcs) {
      expect(src, 'no external asset').to.match(/^\/docs\/assets\//);
      const asset = await call('GET', src);
      expect(asset.status, src).to.equal(200);
      expect(asset.text.length, src).to.be.greaterThan(100);
    }
  });

  it('answers 404 for a file that is not one of the viewer assets', async () => {
    const res = await call('GET', '/docs/assets/package.json');
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('route_not_found');
  });
});
