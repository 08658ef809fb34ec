import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import { config, resetConfig, type Config } from '../../src/config';
import { productionProblems, simulatorAsLiveProvider } from '../../src/config-safety';
import { serveWorkerMetrics } from '../../src/worker-metrics';

// Issue 32 point 4: what production refuses to start with, each problem named. Pure: configurations are built
// from a plain environment, never from this process's.
function cfg(env: Record<string, string>): Config {
  const saved = process.env;
  process.env = { ...env };
  resetConfig();
  try {
    return config();
  } finally {
    process.env = saved;
    resetConfig();
  }
}

const SAFE = {
  NODE_ENV: 'production',
  JWT_SECRET: 'x'.repeat(32),
  METRICS_TOKEN: 'metrics-token',
  PROVIDER_LIVE_URL: 'https://api.asp.example.ae',
  PROVIDER_SANDBOX_URL: 'http://asp-simulator:4010',
  WORKER_METRICS_PORT: '9464',
};
const without = (name: keyof typeof SAFE) => Object.fromEntries(Object.entries(SAFE).filter(([k]) => k !== name));

describe('production configuration check (config-safety.ts)', () => {
  it('a complete production configuration has no problem, for the API, the worker and the CLI', () => {
    for (const role of ['api', 'worker', 'cli'] as const) expect(productionProblems(cfg(SAFE), role), role).to.deep.equal([]);
  });

  it('outside production nothing is refused (today\'s behaviour), even with nothing set', () => {
    const dev = cfg({ EINVOICE_DEV_ALLOW_PRIVATE_URLS: 'true' });
    expect(dev.production).to.equal(false);
    expect(dev.jwtSecretIsRandom).to.equal(true);
    for (const role of ['api', 'worker', 'cli'] as const) expect(productionProblems(dev, role)).to.deep.equal([]);
  });

  it('NODE_ENV=production or EINVOICE_ENV=production turns it on', () => {
    expect(cfg({ NODE_ENV: 'production' }).production).to.equal(true);
    expect(cfg({ EINVOICE_ENV: 'production' }).production).to.equal(true);
    expect(cfg({ NODE_ENV: 'development', EINVOICE_ENV: 'staging' }).production).to.equal(false);
  });

  it('names every missing item at once, with the variable and what to set', () => {
    const problems = productionProblems(cfg({ NODE_ENV: 'production', PROVIDER_SANDBOX_URL: 'http://asp-simulator:4010', PROVIDER_LIVE_URL: 'http://asp-simulator:4010', EINVOICE_DEV_ALLOW_PRIVATE_URLS: 'true' }), 'api');
    expect(problems).to.have.length(4);
    expect(problems[0]).to.match(/^JWT_SECRET is not set: .*32\+ random bytes/);
    expect(problems[1]).to.match(/^METRICS_TOKEN is not set: .*Authorization: Bearer/);
    expect(problems[2]).to.match(/^PROVIDER_LIVE_URL is the sandbox's .*ASP simulator/);
    expect(problems[3]).to.match(/^EINVOICE_DEV_ALLOW_PRIVATE_URLS=true is a development setting.*unset it/);
  });

  it('JWT_SECRET: at least 32 bytes (counted in UTF-8), and JWT_PREVIOUS_SECRET too when set', () => {
    expect(productionProblems(cfg({ ...SAFE, JWT_SECRET: 'x'.repeat(31) }), 'api')).to.deep.equal([
      'JWT_SECRET is 31 bytes: production needs at least 32; set a longer random secret (e.g. node -e "console.log(require(\'crypto\').randomBytes(32).toString(\'base64url\'))")',
    ]);
    expect(productionProblems(cfg({ ...SAFE, JWT_SECRET: 'é'.repeat(16) }), 'api')).to.deep.equal([]);
    expect(productionProblems(cfg(without('JWT_SECRET')), 'api')).to.have.length(1);
    expect(productionProblems(cfg({ ...SAFE, JWT_PREVIOUS_SECRET: 'short' }), 'api')[0]).to.match(/^JWT_PREVIOUS_SECRET is 5 bytes/);
    expect(productionProblems(cfg({ ...SAFE, JWT_PREVIOUS_SECRET: 'y'.repeat(32) }), 'api')).to.deep.equal([]);
    // The worker signs no tokens: its check does not ask for one.
    expect(productionProblems(cfg(without('JWT_SECRET')), 'worker')).to.deep.equal([]);
  });

  it('METRICS_TOKEN: required by the API, and by the worker when it serves /metrics', () => {
    expect(productionProblems(cfg(without('METRICS_TOKEN')), 'api')[0]).to.match(/^METRICS_TOKEN is not set/);
    expect(productionProblems(cfg(without('METRICS_TOKEN')), 'worker')[0]).to.match(/^METRICS_TOKEN is not set: .*worker's metrics port/);
    expect(productionProblems(cfg({ ...without('METRICS_TOKEN'), WORKER_METRICS_PORT: 'off' }), 'worker')).to.deep.equal([]);
    expect(productionProblems(cfg(without('METRICS_TOKEN')), 'cli')).to.deep.equal([]);
  });

  it('the simulator as the live provider: the sandbox URL, the asp-simulator service, or loopback', () => {
    const sandbox = 'http://asp-simulator:4010';
    expect(simulatorAsLiveProvider({ providerLiveUrl: 'https://sandbox.asp.example.ae/v1', providerSandboxUrl: 'https://sandbox.asp.example.ae' })).to.match(/sandbox's/);
    expect(simulatorAsLiveProvider({ providerLiveUrl: 'http://asp-simulator:4011', providerSandboxUrl: null })).to.match(/asp-simulator/);
    for (const url of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010', 'http://[::ffff:127.0.0.1]:4010']) {
      expect(simulatorAsLiveProvider({ providerLiveUrl: url, providerSandboxUrl: sandbox }), url).to.match(/loopback/);
    }
    expect(simulatorAsLiveProvider({ providerLiveUrl: 'not a url', providerSandboxUrl: sandbox })).to.match(/not an absolute URL/);
    expect(simulatorAsLiveProvider({ providerLiveUrl: 'https://api.asp.example.ae', providerSandboxUrl: sandbox })).to.equal(null);
    // Unset: live submissions are refused with 503 provider_not_configured, which is safe.
    expect(simulatorAsLiveProvider({ providerLiveUrl: null, providerSandboxUrl: sandbox })).to.equal(null);
    expect(productionProblems(cfg({ ...SAFE, PROVIDER_LIVE_URL: 'http://127.0.0.1:4010' }), 'worker')[0]).to.match(/^PROVIDER_LIVE_URL is on loopback/);
  });

  it('live and sandbox sharing a callback or client secret is refused (API and worker)', () => {
    const shared = { ...SAFE, PROVIDER_CALLBACK_SECRET: 'cb-secret', PROVIDER_SANDBOX_CALLBACK_SECRET: 'cb-secret', PROVIDER_CLIENT_SECRET: 'cl', PROVIDER_SANDBOX_CLIENT_SECRET: 'cl' };
    for (const role of ['api', 'worker'] as const) {
      const problems = productionProblems(cfg(shared), role);
      expect(problems, role).to.have.length(2);
      expect(problems[0]).to.match(/^PROVIDER_CALLBACK_SECRET equals PROVIDER_SANDBOX_CALLBACK_SECRET/);
      expect(problems[1]).to.match(/^PROVIDER_CLIENT_SECRET equals PROVIDER_SANDBOX_CLIENT_SECRET/);
    }
    const distinct = { ...shared, PROVIDER_SANDBOX_CALLBACK_SECRET: 'other', PROVIDER_SANDBOX_CLIENT_SECRET: 'other' };
    expect(productionProblems(cfg(distinct), 'api')).to.deep.equal([]);
    // Both unset is not a shared secret (callbacks off, no client).
    expect(productionProblems(cfg(SAFE), 'worker')).to.deep.equal([]);
  });

  it('EINVOICE_DEV_ALLOW_PRIVATE_URLS=true is refused for every process, the CLI included', () => {
    for (const role of ['api', 'worker', 'cli'] as const) {
      expect(productionProblems(cfg({ ...SAFE, EINVOICE_DEV_ALLOW_PRIVATE_URLS: 'true' }), role), role).to.have.length(1);
      expect(productionProblems(cfg({ ...SAFE, EINVOICE_DEV_ALLOW_PRIVATE_URLS: 'false' }), role), role).to.deep.equal([]);
    }
  });

  it('worker metrics listen on loopback unless WORKER_METRICS_HOST says otherwise', async () => {
    expect(cfg({}).workerMetricsHost).to.equal('127.0.0.1');
    expect(cfg({ WORKER_METRICS_HOST: '0.0.0.0' }).workerMetricsHost).to.equal('0.0.0.0');
    const server = await serveWorkerMetrics({ port: 0 }); // no host given: the loopback default
    try {
      expect((server.address() as AddressInfo).address).to.equal('127.0.0.1');
    } finally {
      server.close();
    }
  });
});
