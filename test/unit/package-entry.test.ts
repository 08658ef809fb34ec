import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Integrators `require` the package in plain Node (the README's receiver examples): build the entry the way
// `npm pack` does (prepack -> build) and use the compiled JavaScript, not the TypeScript sources.
describe('package entry for integrators', function () {
  this.timeout(120_000);
  const root = path.resolve(__dirname, '../..');
  let outDir: string;
  before(() => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-dist-'));
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json'), '--outDir', outDir], { cwd: root });
  });
  after(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it('compiles to a CommonJS module exporting verifyWebhook, which verifies a signed event', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pkg = require(path.join(outDir, 'index.js'));
    expect(pkg.verifyWebhook).to.be.a('function');
    const secret = 'whsec_test';
    const t = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ event: 'invoice.status_changed', invoiceId: 'x', status: 'delivered', reason: null, timestamp: new Date(t * 1000).toISOString() });
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    const ok = pkg.verifyWebhook(body, { 'x-webhook-signature': `t=${t},v1=${v1}`, 'x-webhook-timestamp': String(t) }, secret);
    expect(ok.ok).to.equal(true);
    const bad = pkg.verifyWebhook(body + ' ', { 'x-webhook-signature': `t=${t},v1=${v1}`, 'x-webhook-timestamp': String(t) }, secret);
    expect(bad.ok).to.equal(false);
  });

  it('package.json points main and types at the build', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.main).to.equal('dist/index.js');
    expect(pkg.types).to.equal('dist/index.d.ts');
    expect(pkg.scripts.prepack).to.contain('build');
  });
});
