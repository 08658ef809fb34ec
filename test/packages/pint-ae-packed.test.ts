// @einvoice/pint-ae as users get it: packages/pint-ae/scripts/test-packed.sh packs it (prepack builds dist/),
// installs the tarball into a temporary project, type-checks and runs a consumer, and runs the package's own tests
// against the installed dist/. The main suite runs the package's tests this way only, not from source as well;
// the one source-only test (its import graph) is in the suite's spec list directly.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';

const SCRIPT = path.join(__dirname, '../../packages/pint-ae/scripts/test-packed.sh');

function run(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('@einvoice/pint-ae from its npm tarball', function () {
  this.timeout(20 * 60_000);

  it('packs, installs into a fresh project, serves a TypeScript consumer and passes its own tests there', async () => {
    const { code, output } = await run();
    const summary = output.split('\n').filter((l) => /^test-packed:|^consumer:|^\s+\d+ (passing|failing|pending)/.test(l));
    if (code !== 0) throw new Error(`test-packed.sh exited ${code}:\n${output.slice(-6000)}`);
    console.log(summary.map((l) => `      ${l.trim()}`).join('\n'));
    expect(output).to.match(/\b\d{2,} passing\b/);
    expect(output).not.to.match(/\b\d+ failing\b/);
  });
});
