import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tsEntry from '../../src';
import * as tsSign from '../../src/webhooks/sign';
import * as tsVerify from '../../src/webhooks/verify';
import { STATUS_CHANGED_EVENT } from '../../src/webhooks/event';

// Integrators `require` the package in plain Node (the README's receivers, examples/partner-client.ts). Its main is
// a committed plain-JavaScript file (lib/index.js): no build, no tsx, no dependencies. Installed from a git
// checkout, a `file:` dependency or a tarball, it must load exactly as it sits in the repository.
describe('package entry for integrators', function () {
  this.timeout(60_000);
  const root = path.resolve(__dirname, '../..');
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  let project: string;

  /** A consumer project with the package installed as a copy of package.json plus the files main and types name. */
  before(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-consumer-'));
    const installed = path.join(project, 'node_modules', pkg.name);
    for (const file of ['package.json', pkg.main, pkg.types]) {
      fs.mkdirSync(path.dirname(path.join(installed, file)), { recursive: true });
      fs.copyFileSync(path.join(root, file), path.join(installed, file));
    }
    fs.writeFileSync(path.join(project, 'package.json'), '{"name":"consumer","private":true}\n');
  });
  after(() => fs.rmSync(project, { recursive: true, force: true }));

  /** Plain `node` in the consumer project: no tsx, no repository node_modules, no dist. */
  function node(args: string[], input?: string): string {
    return execFileSync(process.execPath, args, { cwd: project, input, env: { PATH: process.env.PATH ?? '' } }).toString();
  }

  it('package.json points main and types at committed JavaScript and declarations (not the git-ignored dist/), and packs them', () => {
    expect(pkg.main).to.equal('lib/index.js');
    expect(pkg.types).to.equal('lib/index.d.ts');
    expect(pkg.files).to.include('lib');
    for (const file of [pkg.main, pkg.types]) {
      expect(fs.existsSync(path.join(root, file)), file).to.equal(true);
      // `git check-ignore` exits 1 when the path is not ignored: the file is committable (and committed with the entry).
      let ignored = true;
      try {
        execFileSync('git', ['check-ignore', '-q', file], { cwd: root });
      } catch {
        ignored = false;
      }
      expect(ignored, `${file} is git-ignored`).to.equal(false);
    }
    // The entry needs nothing but Node's own modules.
    const code = fs.readFileSync(path.join(root, pkg.main), 'utf8').split('\n').filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line)).join('\n');
    const requires = [...code.matchAll(/require\(['"]([^'"]+)['"]\)/g)].map((m) => m[1]);
    expect(requires).to.not.be.empty;
    expect(requires.every((r) => r.startsWith('node:')), requires.join(', ')).to.equal(true);
  });

  it('an installed copy needs nothing that is not published: the workspace packages are optional dependencies', () => {
    // npm installs a tarball or git copy's dependencies from the registry; @einvoice/pint-ae is not published, so as a
    // plain dependency it failed that install with E404. Optional, it is skipped there (the entry does not use it)
    // and linked from packages/ in a checkout, where the service runs.
    const workspaces = fs.readdirSync(path.join(root, 'packages')).map((dir) => JSON.parse(fs.readFileSync(path.join(root, 'packages', dir, 'package.json'), 'utf8')).name as string);
    expect(workspaces).to.include('@einvoice/pint-ae');
    for (const name of workspaces) {
      expect(pkg.dependencies ?? {}, name).to.not.have.property(name);
      expect(pkg.optionalDependencies ?? {}, name).to.have.property(name);
    }
  });

  it('require() in plain node verifies a signed event and refuses a tampered one', () => {
    const script = `
      const { verifyWebhook, computeSignature, SIGNATURE_HEADER, TIMESTAMP_HEADER, STATUS_CHANGED_EVENT } = require(${JSON.stringify(pkg.name)});
      const secret = 'whsec_test', t = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({ event: STATUS_CHANGED_EVENT, invoiceId: 'x', status: 'delivered', reason: null, timestamp: new Date(t * 1000).toISOString() });
      const headers = { [SIGNATURE_HEADER]: 't=' + t + ',v1=' + computeSignature(secret, t, body), [TIMESTAMP_HEADER]: String(t) };
      console.log(JSON.stringify([verifyWebhook(body, headers, secret), verifyWebhook(body + ' ', headers, secret), require.resolve(${JSON.stringify(pkg.name)})]));`;
    const [ok, bad, resolved] = JSON.parse(node(['-e', script]));
    expect(ok.ok).to.equal(true);
    expect(ok.event.status).to.equal('delivered');
    expect(bad).to.deep.equal({ ok: false, reason: 'signature mismatch' });
    expect(resolved).to.match(/node_modules[\\/]einvoice-submission-service[\\/]lib[\\/]index\.js$/);
  });

  it('import in plain node (ESM) sees the named exports', () => {
    const out = node(['--input-type=module', '-e', `import { verifyWebhook, signatureHeaders } from ${JSON.stringify(pkg.name)}; console.log(typeof verifyWebhook, typeof signatureHeaders);`]);
    expect(out.trim()).to.equal('function function');
  });

  it("is the service's own implementation: src re-exports the same functions (one source of truth)", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const js = require(path.join(root, pkg.main));
    expect(tsVerify.verifyWebhook).to.equal(js.verifyWebhook);
    expect(tsEntry.verifyWebhook).to.equal(js.verifyWebhook);
    expect(tsSign.computeSignature).to.equal(js.computeSignature);
    expect(tsSign.signatureHeaders).to.equal(js.signatureHeaders);
    expect([tsSign.SIGNATURE_HEADER, tsSign.TIMESTAMP_HEADER]).to.deep.equal([js.SIGNATURE_HEADER, js.TIMESTAMP_HEADER]);
    expect(STATUS_CHANGED_EVENT).to.equal(js.STATUS_CHANGED_EVENT); // event.ts keeps its own copy (no crypto in it)
    expect(Object.keys(js).sort()).to.deep.equal(['SIGNATURE_HEADER', 'STATUS_CHANGED_EVENT', 'TIMESTAMP_HEADER', 'computeSignature', 'signatureHeaders', 'verifyWebhook']);
  });

  it('the installed copy, run by plain node, answers a set of cases exactly as the service does in-process', () => {
    const secret = 'whsec_cases';
    const t = 1_790_000_000;
    const now = t * 1000 + 400;
    const body = JSON.stringify({ event: 'invoice.status_changed', erpPartnerId: 'p', invoiceId: 'i', status: 'rejected', reason: 'buyer_trn_invalid', timestamp: new Date(t * 1000).toISOString() });
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    const sig = `t=${t},v1=${v1}`;
    const cases: { body: string; headers: Record<string, string | string[]>; secret: string; opts?: { toleranceSeconds?: number; now?: number } }[] = [
      { body, headers: { 'x-webhook-signature': sig, 'x-webhook-timestamp': String(t) }, secret, opts: { now } },
      { body, headers: { 'X-Webhook-Signature': sig, 'X-Webhook-Timestamp': String(t) }, secret, opts: { now } },
      { body, headers: { 'x-webhook-signature': [`t=${t},v1=${'0'.repeat(64)},v1=${v1}`], 'x-webhook-timestamp': String(t) }, secret, opts: { now } },
      { body, headers: { 'x-webhook-timestamp': String(t) }, secret, opts: { now } },
      { body, headers: { 'x-webhook-signature': sig }, secret, opts: { now } },
      { body, headers: { 'x-webhook-signature': 'v1=abc', 'x-webhook-timestamp': String(t) }, secret, opts: { now } },
      { body, headers: { 'x-webhook-signature': sig, 'x-webhook-timestamp': String(t + 1) }, secret, opts: { now } },
      { body, headers: { 'x-webhook-signature': sig, 'x-webhook-timestamp': String(t) }, secret, opts: { now: now + 301_000 } },
      { body, headers: { 'x-webhook-signature': sig, 'x-webhook-timestamp': String(t) }, secret, opts: { now: now + 301_000, toleranceSeconds: 600 } },
      { body, headers: { 'x-webhook-signature': sig, 'x-webhook-timestamp': String(t) }, secret: 'whsec_other', opts: { now } },
      { body, headers: { 'x-webhook-signature': sig, 'x-webhook-timestamp': String(t) }, secret: '', opts: { now } },
      { body: body.replace('rejected', 'delivered'), headers: { 'x-webhook-signature': sig, 'x-webhook-timestamp': String(t) }, secret, opts: { now } },
      (() => {
        const notJson = 'not json';
        return { body: notJson, headers: { 'x-webhook-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${notJson}`).digest('hex')}`, 'x-webhook-timestamp': String(t) }, secret, opts: { now } };
      })(),
    ];
    const script = `
      const { verifyWebhook } = require(${JSON.stringify(pkg.name)});
      const cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
      console.log(JSON.stringify(cases.map((c) => verifyWebhook(c.body, c.headers, c.secret, c.opts))));`;
    const outside = JSON.parse(node(['-e', script], JSON.stringify(cases)));
    const inside = cases.map((c) => tsVerify.verifyWebhook(c.body, c.headers, c.secret, c.opts));
    expect(outside).to.deep.equal(inside);
    expect(inside.map((r) => r.ok)).to.deep.equal([true, true, true, false, false, false, false, false, true, false, false, false, false]);
  });
});
