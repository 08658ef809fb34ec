import { expect } from 'chai';
import type Router from '@koa/router';
import { createAdminApp, createApp } from '../../src/api/app';
import { buildOpenApiDocument, openApiPath } from '../../src/openapi/document';

/** "GET /v1/partner/invoices/{id}" for every method and path the apps' routers serve (public and admin), read from their layers. */
function servedRoutes(): Set<string> {
  const routersOf = (app: ReturnType<typeof createApp>) => app.middleware.map((m) => (m as unknown as { router?: Router }).router).filter((r): r is Router => !!r);
  const routers = [...routersOf(createApp()), ...routersOf(createAdminApp())];
  expect(routersOf(createApp()).length, 'createApp() mounts its routers with router.routes()').to.be.greaterThan(3);
  expect(routersOf(createAdminApp()).length, 'createAdminApp() mounts the admin router').to.equal(1);
  const out = new Set<string>();
  for (const router of routers) {
    for (const layer of router.stack) {
      // Layers without methods are router.use() middleware; HEAD is @koa/router's automatic twin of GET.
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) out.add(`${method} ${openApiPath(String(layer.path))}`);
    }
  }
  return out;
}

function documentedRoutes(): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries(buildOpenApiDocument().paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(item)) out.add(`${method.toUpperCase()} ${path}`);
  }
  return out;
}

describe('OpenAPI document covers the routers', () => {
  it('every route the routers serve is in the document', () => {
    const documented = documentedRoutes();
    const missing = [...servedRoutes()].filter((r) => !documented.has(r));
    expect(missing, 'add these to src/openapi/operations.ts').to.deep.equal([]);
  });

  it('every operation in the document is served by a router', () => {
    const served = servedRoutes();
    const stale = [...documentedRoutes()].filter((r) => !served.has(r));
    expect(stale, 'remove or fix these in src/openapi/operations.ts').to.deep.equal([]);
  });

  it('sees the SME-scoped Partner routes nested in the partner router and the Tenant routers', () => {
    // Guards the walk itself: the nested router and the three tenant routers must be visible, or both tests above pass on too little.
    const served = servedRoutes();
    for (const r of ['POST /v1/partner/invoices', 'GET /v1/partner/invoices/{id}', 'POST /v1/invoices/bulk', 'POST /v1/auth/token', 'POST /v1/provider/callbacks', 'GET /openapi.json']) {
      expect(served, r).to.include(r);
    }
  });
});
