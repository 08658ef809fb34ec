// Issue 32 point 5: the suite and the commands run on a supported Node. The launcher (scripts/infra/node-runtime.cjs)
// is run for real: the pinned Node is fetched from the npm registry with `npm pack` into a throw-away cache, checked,
// and run; and, where this machine has a Node older than 22 on PATH, that old Node is what starts the launcher.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as runtime from '../../scripts/infra/node-runtime.cjs';

const ROOT = path.resolve(__dirname, '../..');
const LAUNCHER = path.join(ROOT, 'scripts/infra/node-runtime.cjs');
const PINNED_PACKAGE = runtime.platformPackage(process.platform, process.arch);

/** Runs `node` (any version) on the launcher or a script, with the tools cache pointed at `cache`. */
function launch(node: string, args: string[], cache: string) {
  const r = spawnSync(node, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, EINVOICE_TOOLS_CACHE: cache } });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** A `node` on PATH older than 22 (this machine's own Node 20), if there is one. */
function oldNodeOnPath(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'node');
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      if (runtime.needsPinnedNode(version)) return candidate;
    } catch {
      /* none here */
    }
  }
  return null;
}

describe('node runtime: a supported Node for the suite and the commands', function () {
  // Two fetches of ~50 MB from the registry (npm's own cache makes the second quick); no wall-clock assertion.
  this.timeout(300_000);
  const caches: string[] = [];
  const tempCache = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-node-runtime-'));
    caches.push(dir);
    return dir;
  };
  after(() => caches.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('this suite runs on Node >= 22 when started by `npm test`', function () {
    // Started another way (`npx mocha` on a Node 20 machine), the suite runs on whatever started it: the code works
    // there too, but only `npm test` promises a supported Node.
    if (!['test', 'test:faults'].includes(process.env.npm_lifecycle_event ?? '')) this.skip();
    expect(Number(process.versions.node.split('.')[0]), `process.version ${process.version}`).to.be.at.least(runtime.MIN_MAJOR);
  });

  it('on a supported Node the launcher is a pass-through: the same Node, no download, exit codes and signals kept', function () {
    if (runtime.needsPinnedNode(process.versions.node)) this.skip(); // `npx mocha` on an old Node: covered below
    const cache = tempCache();
    const version = launch(process.execPath, [LAUNCHER, 'node', '-p', 'process.execPath + " " + process.version'], cache);
    expect(version.stdout.trim()).to.equal(`${process.execPath} ${process.version}`);
    expect(version.stderr).to.equal('');
    expect(fs.readdirSync(cache)).to.deep.equal([]);
    expect(launch(process.execPath, [LAUNCHER, 'node', '-e', 'process.exit(7)'], cache).status).to.equal(7);
    expect(launch(process.execPath, [LAUNCHER, 'node', '-e', 'process.kill(process.pid, "SIGTERM")'], cache).signal).to.equal('SIGTERM');
  });

  describe('installing the pinned Node', () => {
    let cache: string;
    let installed: string;
    before(function () {
      if (!runtime.PINNED.integrity[PINNED_PACKAGE]) this.skip(); // e.g. macOS: no pinned package, install Node >= 22
      cache = tempCache();
    });

    it('fetches it from the npm registry on first use, with progress on stderr, checks it runs, then reuses it', () => {
      const script = `process.stdout.write(require(${JSON.stringify(LAUNCHER)}).ensurePinnedNode())`;
      const first = launch(process.execPath, ['-e', script], cache);
      expect(first.status, first.stderr).to.equal(0);
      installed = first.stdout;
      expect(installed).to.equal(path.join(cache, `node-${runtime.PINNED.version}`, 'bin', 'node'));
      expect(first.stderr).to.include(`installing Node ${runtime.PINNED.version} from the npm registry (${PINNED_PACKAGE}`);
      expect(first.stderr).to.include(`Node ${runtime.PINNED.version} ready at ${installed}`);
      expect(execFileSync(installed, ['--version'], { encoding: 'utf8' }).trim()).to.equal(`v${runtime.PINNED.version}`);
      expect(fs.readdirSync(cache)).to.deep.equal([`node-${runtime.PINNED.version}`]); // no partial directory left

      const again = launch(process.execPath, ['-e', script], cache);
      expect(again).to.include({ status: 0, stdout: installed, stderr: '' });
    });

    it('a tarball that is not the pinned one is refused and nothing is cached', () => {
      const other = tempCache();
      const wrong = `sha512-${Buffer.alloc(64).toString('base64')}`;
      expect(() => runtime.ensurePinnedNode({ cache: other, integrity: { [PINNED_PACKAGE]: wrong } })).to.throw(runtime.RuntimeError, /is not the pinned one/);
      expect(fs.readdirSync(other)).to.deep.equal([]);
    });

    it('an old Node on PATH starts the launcher and bin/einvoice, which run on the pinned Node', function () {
      const old = oldNodeOnPath();
      if (!old || !installed) this.skip();
      const probe = launch(old, [LAUNCHER, 'node', '-p', 'process.version + " " + process.execPath'], cache);
      expect(probe.stdout.trim()).to.equal(`v${runtime.PINNED.version} ${installed}`);
      // A command found on PATH (a bin with `#!/usr/bin/env node`, here sh) gets the pinned Node too.
      expect(launch(old, [LAUNCHER, 'sh', '-c', 'node -p process.version'], cache).stdout.trim()).to.equal(`v${runtime.PINNED.version}`);
      expect(launch(old, [LAUNCHER, 'node', '-e', 'process.exit(7)'], cache).status).to.equal(7);
      expect(launch(old, [LAUNCHER, 'node', '-e', 'process.kill(process.pid, "SIGTERM")'], cache).signal).to.equal('SIGTERM');

      // bin/einvoice started by the old Node runs itself again on the pinned one: each Node that loads reports itself.
      const report = path.join(cache, 'report-version.cjs');
      fs.writeFileSync(report, "process.stderr.write('loaded on ' + process.version + '\\n');\n");
      const cli = spawnSync(old, [path.join(ROOT, 'bin/einvoice'), '--help'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, EINVOICE_TOOLS_CACHE: cache, NODE_OPTIONS: `--require ${report}` },
      });
      expect(cli.status, cli.stderr).to.equal(0);
      expect(cli.stdout).to.match(/^usage: einvoice <command>/);
      expect(cli.stderr.match(/^loaded on v\S+$/gm)).to.deep.equal([`loaded on ${execFileSync(old, ['--version'], { encoding: 'utf8' }).trim()}`, `loaded on v${runtime.PINNED.version}`]);
    });
  });
});
