import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { config } from '../../src/config';

// Issue 32 point 4, end to end: the real entry points, started as an operator (or compose) starts them, refuse an
// unsafe production configuration before touching anything, and name every problem.
const ROOT = path.resolve(__dirname, '../..');

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(entry: string, env: Record<string, string>): Run {
  // A clean environment: only what is given (plus PATH/HOME for Node itself), never this test process's secrets.
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves once the output matches, or rejects when the process exits first (bounded by the mocha timeout). */
async function waitFor(run: Run, pattern: RegExp): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const check = () => pattern.test(run.output()) && (cleanup(), resolve());
    const onExit = (code: number | null) => (cleanup(), reject(new Error(`exited ${code} before ${pattern}:\n${run.output()}`)));
    const cleanup = () => (run.child.stdout!.off('data', check), run.child.stderr!.off('data', check), run.child.off('exit', onExit));
    run.child.stdout!.on('data', check);
    run.child.stderr!.on('data', check);
    run.child.once('exit', onExit);
    check();
  });
}

describe('production start: the API and the worker refuse unsafe settings (real processes)', function () {
  this.timeout(120_000);
  const servers = () => ({ MONGODB_URI: config().mongodbUri, TEMPORAL_ADDRESS: config().temporalAddress, TEMPORAL_TASK_QUEUE: `prod-start-${process.pid}` });
  const safe = () => ({ ...servers(), NODE_ENV: 'production', PORT: '0', JWT_SECRET: 'j'.repeat(32), METRICS_TOKEN: 'metrics-token-for-the-test' });

  it('NODE_ENV=production without JWT_SECRET and METRICS_TOKEN: the API exits non-zero naming both', async () => {
    const run = start('src/server.ts', { ...servers(), NODE_ENV: 'production', PORT: '0' });
    expect(await run.exited).to.equal(1);
    const out = run.output();
    expect(out).to.contain('einvoice api: refusing to start in production');
    expect(out).to.match(/- JWT_SECRET is not set/);
    expect(out).to.match(/- METRICS_TOKEN is not set/);
    expect(out).to.not.match(/API listening/);
  });

  it('EINVOICE_ENV=production with a short JWT_SECRET, the simulator as live provider and the development URL setting: each named', async () => {
    const run = start('src/server.ts', {
      ...safe(), NODE_ENV: '', EINVOICE_ENV: 'production', JWT_SECRET: 'too-short',
      PROVIDER_SANDBOX_URL: 'http://asp-simulator:4010', PROVIDER_LIVE_URL: 'http://asp-simulator:4010', EINVOICE_DEV_ALLOW_PRIVATE_URLS: 'true',
    });
    expect(await run.exited).to.equal(1);
    const out = run.output();
    expect(out).to.match(/- JWT_SECRET is 9 bytes: production needs at least 32/);
    expect(out).to.match(/- PROVIDER_LIVE_URL is the sandbox's/);
    expect(out).to.match(/- EINVOICE_DEV_ALLOW_PRIVATE_URLS=true is a development setting/);
    expect(out).to.not.match(/METRICS_TOKEN is not set/);
  });

  it('the worker refuses too (metrics served without METRICS_TOKEN, the development URL setting)', async () => {
    const run = start('src/worker.ts', { ...servers(), NODE_ENV: 'production', WORKER_METRICS_PORT: '0', EINVOICE_DEV_ALLOW_PRIVATE_URLS: 'true' });
    expect(await run.exited).to.equal(1);
    const out = run.output();
    expect(out).to.contain('einvoice worker: refusing to start in production');
    expect(out).to.match(/- METRICS_TOKEN is not set/);
    expect(out).to.match(/- EINVOICE_DEV_ALLOW_PRIVATE_URLS=true/);
    expect(out).to.not.match(/JWT_SECRET/);
  });

  it('a malformed setting is one clear line and exit 1, in any environment', async () => {
    const run = start('src/server.ts', { ...servers(), PORT: '0', EINVOICE_DEV_ALLOW_PRIVATE_URLS: 'yes' });
    expect(await run.exited).to.equal(1);
    expect(run.output()).to.equal('einvoice api: cannot start: EINVOICE_DEV_ALLOW_PRIVATE_URLS must be "true" or "false", got "yes"\n');
  });

  it('with its secrets set, the same production start listens (and stops cleanly on SIGTERM)', async () => {
    const run = start('src/server.ts', safe());
    await waitFor(run, /API listening/);
    expect(run.output()).to.not.match(/refusing|JWT_SECRET is not set/);
    run.child.kill('SIGTERM');
    expect(await run.exited, run.output()).to.equal(0);
  });

  it('outside production a missing JWT_SECRET still starts, with a warning', async () => {
    const run = start('src/server.ts', { ...servers(), PORT: '0' });
    await waitFor(run, /API listening/);
    expect(run.output()).to.match(/JWT_SECRET is not set: Tenant API tokens are signed with a random secret/);
    run.child.kill('SIGTERM');
    expect(await run.exited, run.output()).to.equal(0);
  });
});
