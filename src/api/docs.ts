import Router from '@koa/router';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument } from '../openapi/document';
import { ROUTER_OPTIONS } from '../http/router-options';

/** The viewer's files, served from node_modules (the machine may have no internet: no CDN). A fixed list, so no path is read from the request. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Invoice Submission Service API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
  </script>
</body>
</html>
`;

/** GET /openapi.json and GET /docs: public, no credential (the document holds no secret). */
export function docsRouter(): Router {
  const router = new Router(ROUTER_OPTIONS);
  let document: string | undefined; // built once per process: it depends on code only
  router.get('/openapi.json', (ctx) => {
    document ??= JSON.stringify(buildOpenApiDocument());
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = document;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/docs/assets/:file', async (ctx) => {
    const type = ASSETS[ctx.params.file];
    if (!type) return; // falls through to problemErrors' 404 route_not_found
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = type;
    ctx.body = await readFile(join(SWAGGER_UI_DIR, ctx.params.file));
  });
  return router;
}
