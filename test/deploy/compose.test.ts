// The deployment files (docker-compose.yml, Dockerfile) checked without a Docker engine: their structure always,
// and `docker compose config -q` (or `docker-compose config -q`) when such a binary is on PATH.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { SEARCH_ATTRIBUTE_NAMES } from '../../src/temporal/contract';
import { PINNED } from '../../scripts/infra/node-runtime.cjs';

// js-yaml is installed with mocha and xmlbuilder2 (no types of its own here); its default schema reads the
// anchors and `<<` merge keys compose files use.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require('js-yaml') as { load(text: string): unknown };

const ROOT = path.resolve(__dirname, '../..');
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');
const composeText = fs.readFileSync(COMPOSE_FILE, 'utf8');

type Env = Record<string, string | number | boolean | null>;
interface Healthcheck {
  test?: string | string[];
  disable?: boolean;
}
interface Service {
  image?: string;
  build?: unknown;
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Env | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: Healthcheck;
  ports?: unknown[];
  restart?: string;
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const compose = yaml.load(composeText) as Compose;
const services = compose.services;

const APP_SERVICES = ['api', 'worker'];
const ONE_SHOT = (s: Service): boolean => s.restart === 'no';
/** Secrets have no default in the file: `${NAME:?message}`. */
const SECRETS = ['JWT_SECRET', 'ADMIN_TOKEN', 'PROVIDER_CLIENT_SECRET', 'PROVIDER_CALLBACK_SECRET', 'PROVIDER_SANDBOX_CLIENT_SECRET', 'PROVIDER_SANDBOX_CALLBACK_SECRET', 'METRICS_TOKEN'];
/** Secrets whose absence switches a feature off (the simulator's /_sim controls): from the environment, empty by default. */
const OPTIONAL_SECRETS = ['ASP_SIM_CONTROL_TOKEN', 'JWT_PREVIOUS_SECRET'];

function environment(name: string): Record<string, string> {
  const env = services[name]?.environment ?? {};
  const pairs = Array.isArray(env) ? env.map((line) => line.split(/=(.*)/s).slice(0, 2)) : Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]);
  return Object.fromEntries(pairs);
}

/** What compose would substitute with nothing set in the environment: `${X:-d}` -> d, `${X:?m}` -> `<X>`, `$$` -> `$`. */
function withDefaults(value: string): string {
  return value.replace(/\$\$|\$\{([A-Z0-9_]+)(?:(:?[-?])([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
    if (whole === '$$') return '$';
    if (op?.endsWith('-')) return arg ?? '';
    return `<${name}>`;
  });
}

function dependsOn(name: string): Record<string, string> {
  const deps = services[name]?.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((d) => [d, 'service_started']));
  return Object.fromEntries(Object.entries(deps).map(([d, v]) => [d, v?.condition ?? 'service_started']));
}

/** The environment variables the service reads: src/config.ts (and the logger's LOG_LEVEL). */
function variablesTheServiceReads(): string[] {
  const names = new Set<string>();
  for (const file of ['src/config.ts', 'src/logger.ts']) {
    const src = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of src.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]);
    for (const m of src.matchAll(/\bint\(env, '([A-Z][A-Z0-9_]*)'/g)) names.add(m[1]);
  }
  return [...names].sort();
}

describe('deployment: docker-compose.yml and Dockerfile', () => {
  describe('structure (always)', () => {
    it('has the stack: MongoDB, Temporal on PostgreSQL, its Web UI, the search attributes job, the API, the worker and the ASP simulator', () => {
      expect(Object.keys(services)).to.include.members(['mongo', 'postgresql', 'temporal', 'temporal-ui', 'temporal-search-attributes', 'api', 'worker', 'asp-simulator']);
    });

    it('writes every `$` for a container shell as `$$` (a single `$` is compose interpolation)', () => {
      const stray = composeText
        .split('\n')
        .flatMap((line, i) => (!/^\s*#/.test(line) && /\$(?![${])/.test(line.replace(/\$\$/g, '')) ? [`line ${i + 1}: ${line.trim()}`] : []));
      expect(stray).to.deep.equal([]);
    });

    it('points every depends_on at an existing service, with a condition that service can meet', () => {
      for (const name of Object.keys(services)) {
        for (const [target, condition] of Object.entries(dependsOn(name))) {
          expect(services, `${name} depends on ${target}`).to.have.property(target);
          expect(['service_started', 'service_healthy', 'service_completed_successfully'], `${name} -> ${target}`).to.include(condition);
          if (condition === 'service_healthy') expect(services[target].healthcheck?.test, `${name} waits for ${target} to be healthy`).to.not.equal(undefined);
          if (condition === 'service_completed_successfully') expect(ONE_SHOT(services[target]), `${target} must be a one-shot job (restart: "no")`).to.equal(true);
        }
      }
    });

    it('has a healthcheck on every long-running service and a restart policy on none of the one-shot jobs', () => {
      for (const [name, service] of Object.entries(services)) {
        if (ONE_SHOT(service)) continue;
        const test = service.healthcheck?.test;
        expect(service.healthcheck?.disable, name).to.not.equal(true);
        expect(test, `${name} has no healthcheck`).to.not.equal(undefined);
        expect(Array.isArray(test) ? test[0] : 'CMD-SHELL', name).to.be.oneOf(['CMD', 'CMD-SHELL']);
      }
    });

    it('starts the API and the worker after MongoDB and Temporal are healthy and the search attributes are registered', () => {
      for (const name of APP_SERVICES) {
        expect(dependsOn(name), name).to.deep.include({ mongo: 'service_healthy', temporal: 'service_healthy', 'temporal-search-attributes': 'service_completed_successfully' });
      }
      expect(dependsOn('temporal-search-attributes')).to.deep.include({ temporal: 'service_healthy' });
      expect(dependsOn('temporal')).to.deep.include({ postgresql: 'service_healthy' });
    });

    it('runs MongoDB as a replica set that its healthcheck initiates, and the service connects to that set', () => {
      const command = ([] as string[]).concat(services.mongo.command ?? []).join(' ');
      const set = /--replSet[ =](\S+)/.exec(command)?.[1];
      expect(set, 'mongo runs with --replSet').to.be.a('string');
      const check = ([] as string[]).concat(services.mongo.healthcheck?.test ?? []).join(' ');
      expect(check).to.include('rs.initiate(').and.include(`_id: "${set}"`).and.include('isWritablePrimary');
      for (const name of APP_SERVICES) expect(withDefaults(environment(name).MONGODB_URI), name).to.match(new RegExp(`^mongodb://mongo:27017/\\w+\\?replicaSet=${set}$`));
    });

    it('runs Temporal on its own PostgreSQL, with the namespace and the Keyword search attributes of src/temporal/contract.ts', () => {
      const temporal = environment('temporal');
      expect(temporal.DB).to.equal('postgres12');
      expect(services).to.have.property(temporal.POSTGRES_SEEDS);
      expect(services[temporal.POSTGRES_SEEDS].image).to.match(/^postgres:/);
      const job = environment('temporal-search-attributes');
      expect(job.SEARCH_ATTRIBUTES.split(/\s+/).filter(Boolean)).to.have.members(SEARCH_ATTRIBUTE_NAMES);
      expect(services['temporal-search-attributes'].image).to.match(/^temporalio\/admin-tools:/);
      const script = ([] as string[]).concat(services['temporal-search-attributes'].command ?? []).join('\n');
      expect(script).to.include('temporal operator search-attribute create').and.include('--type Keyword');
      const namespace = withDefaults(environment('api').TEMPORAL_NAMESPACE);
      expect(withDefaults(temporal.DEFAULT_NAMESPACE), 'the namespace auto-setup creates').to.equal(namespace);
      expect(withDefaults(job.NAMESPACE), 'the namespace the attributes are registered in').to.equal(namespace);
      expect(withDefaults(environment('temporal-ui').TEMPORAL_DEFAULT_NAMESPACE)).to.equal(namespace);
      expect(withDefaults(temporal.DEFAULT_NAMESPACE_RETENTION), 'retention of closed invoice histories').to.match(/^\d+h$/);
      expect(parseInt(withDefaults(temporal.DEFAULT_NAMESPACE_RETENTION), 10) / 24, 'retention in days').to.be.at.least(30);
    });

    it('gives the API and the worker every variable src/config.ts reads, the same values, and no secret in the file', () => {
      const needed = variablesTheServiceReads();
      expect(needed, 'parsed from src/config.ts').to.include.members(['MONGODB_URI', 'TEMPORAL_ADDRESS', 'JWT_SECRET', 'ADMIN_TOKEN', 'PROVIDER_SANDBOX_URL', 'PROVIDER_CALLBACK_SECRET']);
      const api = environment('api');
      const worker = environment('worker');
      for (const name of needed.filter((n) => n !== 'PORT')) {
        expect(api, `api: ${name}`).to.have.property(name);
        expect(worker, `worker: ${name}`).to.have.property(name);
        expect(worker[name], `api and worker agree on ${name}`).to.equal(api[name]);
      }
      expect(api.PORT).to.equal('3000');
      for (const name of SECRETS) {
        expect(api[name], `${name} must be required, not written down`).to.match(new RegExp(`^\\$\\{${name}:\\?[^}]+\\}$`));
      }
      // Whatever else looks like a secret anywhere in the file comes from the environment too.
      for (const [svc] of Object.entries(services)) {
        for (const [name, value] of Object.entries(environment(svc))) {
          if (OPTIONAL_SECRETS.includes(name)) expect(value, `${svc}: ${name}`).to.equal(`\${${name}:-}`);
          else if (/SECRET|TOKEN|PASSWORD|PWD/.test(name)) expect(value, `${svc}: ${name}`).to.match(/^\$\{[A-Z0-9_]+:\?[^}]+\}$/);
        }
      }
    });

    it('runs the API and the worker in production mode: its secrets required, no development URL setting, worker metrics unpublished', () => {
      for (const name of APP_SERVICES) {
        const env = environment(name);
        expect(env, name).to.include({ NODE_ENV: 'production', EINVOICE_ENV: 'production', EINVOICE_DEV_ALLOW_PRIVATE_URLS: 'false' });
        for (const secret of ['JWT_SECRET', 'METRICS_TOKEN']) expect(env[secret], `${name}: ${secret}`).to.match(new RegExp(`^\\$\\{${secret}:\\?[^}]+\\}$`));
      }
      expect(services.worker.ports, 'the worker publishes nothing (its /metrics is for the compose network)').to.equal(undefined);
    });

    it('points the sandbox (only) at the simulator with the sandbox credentials, and the simulator\'s callbacks at the API', () => {
      const api = environment('api');
      const sim = environment('asp-simulator');
      expect(withDefaults(api.PROVIDER_SANDBOX_URL)).to.equal(`http://asp-simulator:${sim.ASP_SIM_PORT}`);
      expect(withDefaults(api.PROVIDER_LIVE_URL), 'the live provider is never the simulator').to.not.contain('asp-simulator');
      expect(sim.ASP_SIM_CLIENT_ID).to.equal(api.PROVIDER_SANDBOX_CLIENT_ID);
      expect(sim.ASP_SIM_CLIENT_SECRET).to.equal(api.PROVIDER_SANDBOX_CLIENT_SECRET);
      expect(sim.ASP_SIM_CALLBACK_SECRET).to.equal(api.PROVIDER_SANDBOX_CALLBACK_SECRET);
      expect(sim.ASP_SIM_CALLBACK_URL).to.equal(`http://api:${api.PORT}/v1/provider/callbacks`);
      // the live credentials never reach the simulator
      for (const [name, value] of Object.entries(sim)) {
        for (const live of ['PROVIDER_CLIENT_ID', 'PROVIDER_CLIENT_SECRET', 'PROVIDER_CALLBACK_SECRET']) expect(value, `asp-simulator: ${name}`).to.not.match(new RegExp(`\\$\\{${live}[:}]`));
      }
      expect(sim.ASP_SIM_CONTROL_TOKEN, 'the /_sim controls are off unless a token is given').to.equal('${ASP_SIM_CONTROL_TOKEN:-}');
    });

    it('pins every image to a version (no `latest`, no bare name)', () => {
      for (const [name, service] of Object.entries(services)) {
        expect(service.image, `${name} has an image`).to.be.a('string');
        const image = withDefaults(service.image as string);
        const tag = /:([^/:@]+)$/.exec(image)?.[1];
        expect(tag, `${name}: ${image} has a tag`).to.be.a('string');
        expect(tag, `${name}: ${image}`).to.not.equal('latest');
        expect(tag, `${name}: ${image} is a version`).to.match(/\d/);
      }
    });

    it('builds one image for the API, the worker and the simulator, each started by its own entry file', () => {
      const entries: Record<string, string> = { api: 'src/server.ts', worker: 'src/worker.ts', 'asp-simulator': 'deploy/asp-simulator.ts' };
      const image = services.api.image;
      for (const [name, entry] of Object.entries(entries)) {
        expect(services[name].image, name).to.equal(image);
        expect(services[name].build, name).to.not.equal(undefined);
        const command = ([] as string[]).concat(services[name].command ?? []);
        expect(command, name).to.deep.equal(['node', '--import', 'tsx', entry]);
        expect(fs.existsSync(path.join(ROOT, entry)), entry).to.equal(true);
      }
      for (const [name, service] of Object.entries(services)) {
        const check = ([] as string[]).concat(service.healthcheck?.test ?? []);
        const script = check.find((part) => part.startsWith('deploy/'));
        if (script) expect(fs.existsSync(path.join(ROOT, script)), `${name}: ${script}`).to.equal(true);
      }
    });

    it('publishes ports for the API and the Web UI only', () => {
      const published = Object.entries(services).filter(([, s]) => (s.ports ?? []).length > 0).map(([name]) => name);
      expect(published.sort()).to.deep.equal(['api', 'temporal-ui']);
    });

    it('declares every named volume it mounts', () => {
      for (const [name, service] of Object.entries(services)) {
        for (const mount of ((service as { volumes?: unknown[] }).volumes ?? []) as string[]) {
          const source = String(mount).split(':')[0];
          if (!source.startsWith('.') && !source.startsWith('/')) expect(compose.volumes ?? {}, `${name}: ${mount}`).to.have.property(source);
        }
      }
    });

    it('Dockerfile: pinned node 24 slim (the version the launcher installs elsewhere), npm ci, a non-root user, a HEALTHCHECK on /healthz', () => {
      const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
      const instructions = dockerfile.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
      const from = instructions.filter((l) => /^FROM /i.test(l));
      expect(from.at(-1)).to.match(/^FROM node:24\.\d+\.\d+-[a-z]+-slim$/);
      expect(from.at(-1)).to.equal(`FROM node:${PINNED.version}-bookworm-slim`);
      expect(instructions.some((l) => /^RUN .*\bnpm ci\b/.test(l))).to.equal(true);
      const user = instructions.filter((l) => /^USER /.test(l)).at(-1);
      expect(user, 'USER').to.be.a('string');
      expect(user).to.not.match(/^USER (root|0)(:|$)/);
      expect(instructions.find((l) => /^HEALTHCHECK /.test(l))).to.include('/healthz');
      const ignore = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
      expect(ignore).to.include.members(['node_modules', '.data', '.git']);
    });
  });

  describe('docker compose config (when a compose tool is on PATH)', () => {
    it('validates the file', function () {
      const tool = composeTool();
      if (!tool) {
        // eslint-disable-next-line no-console
        console.log('      (skipped: neither `docker compose` nor `docker-compose` is on PATH)');
        this.skip();
      }
      // The required variables get placeholders: this checks the file, not a deployment's settings.
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const m of composeText.matchAll(/\$\{([A-Z0-9_]+):\?/g)) env[m[1]] ||= `placeholder-${m[1].toLowerCase()}`;
      const run = spawnSync(tool.cmd, [...tool.args, '-f', COMPOSE_FILE, 'config', '-q'], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
      expect(run.error, String(run.error)).to.equal(undefined);
      expect(run.status, `${[tool.cmd, ...tool.args].join(' ')} config -q:\n${run.stderr}${run.stdout}`).to.equal(0);
    });
  });
});

function composeTool(): { cmd: string; args: string[] } | null {
  const candidates = [
    { cmd: 'docker', args: ['compose'] },
    { cmd: 'docker-compose', args: [] },
  ];
  for (const c of candidates) {
    const probe = spawnSync(c.cmd, [...c.args, 'version'], { encoding: 'utf8', timeout: 15_000 });
    if (!probe.error && probe.status === 0) return c;
  }
  return null;
}
