// Property-based hostile input (issue 13 item 2): fast-check generates HOSTILE_RUNS (10,000) malformed requests
// over every route of the registry (src/openapi/operations.ts), both surfaces, admin, provider and public: hostile
// bodies, headers, credentials, paths, query strings, encodings, multipart CSV and XML. They go to the real app on
// a real socket, a few at a time over keep-alive. Every answer: no 5xx, the surface's error shape, a 2xx only when
// deserved (the route's own joi schema is the oracle), no stack trace or secret; the process stays healthy.
// The seed is fixed and printed: HOSTILE_SEED=<n> HOSTILE_RUNS=<n> replays a run; HOSTILE_ONLY=<i,j> sends only
// those requests of it (as numbered in the failure report). HOSTILE_RUNS=100000 for a deeper run.
import { expect } from 'chai';
import fc from 'fast-check';
import { config, resetConfig } from '../../src/config';
import { OPERATIONS } from '../../src/openapi/operations';
import { adminBase, apiBase, call } from '../helpers/http';
import { hostileSetup, type HostileSetup } from '../helpers/hostile/context';
import { hostileRequest, type HostileRequest } from '../helpers/hostile/requests';
import { keepAliveAgent, pool, send, type RawResponse } from '../helpers/hostile/send';
import { problemsWith } from '../helpers/hostile/verdict';

const SEED = Number(process.env.HOSTILE_SEED || 20_260_313);
const RUNS = Number(process.env.HOSTILE_RUNS || 10_000);
const ONLY = process.env.HOSTILE_ONLY ? new Set(process.env.HOSTILE_ONLY.split(',').map(Number)) : null;
const CONCURRENCY = Number(process.env.HOSTILE_CONCURRENCY || 6);
/** Generated in chunks (each its own seed, derived from SEED) so at most one chunk of bodies is held at a time. */
const CHUNK = 250;

interface Failure {
  index: number;
  req: HostileRequest;
  res?: RawResponse;
  problems: string[];
}

function report(f: Failure): string {
  const body = f.req.body ? ` body ${f.req.body.bytes.length} B: ${f.req.body.bytes.subarray(0, 120).toString('utf8')}` : '';
  const answer = f.res ? `${f.res.status} ${String(f.res.headers['content-type'] ?? '')} ${f.res.text.slice(0, 300)}` : 'no answer';
  return `#${f.index} ${f.req.method} ${f.req.path.slice(0, 160)} [${f.req.what.join('; ')}] deserves ${f.req.deserves}${body}\n    -> ${f.problems.join('; ')}\n    answer: ${answer}`;
}

describe('hostile input, generated (fast-check): no 5xx, the surface\'s error shape, no leaks', function () {
  this.timeout(30 * 60_000); // a machine-speed bound on a run of any size, not a performance assertion
  const saved = { rate: process.env.RATE_LIMIT_PER_MINUTE, provider: process.env.PROVIDER_CALLBACK_SECRET };
  let setup: HostileSetup;

  before(async () => {
    process.env.RATE_LIMIT_PER_MINUTE = '100000000'; // the tenant's budget (the partner's is set on the partner)
    process.env.PROVIDER_CALLBACK_SECRET = `cb-secret-${SEED}`; // the callback route live, not 404
    resetConfig();
    setup = await hostileSetup(config().adminToken!, process.env.PROVIDER_CALLBACK_SECRET);
    setup.secrets.push(config().jwtSecret);
  });

  after(() => {
    for (const [name, value] of [['RATE_LIMIT_PER_MINUTE', saved.rate], ['PROVIDER_CALLBACK_SECRET', saved.provider]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
  });

  it(`answers ${RUNS} generated malformed requests over every route of both surfaces without a 5xx, in the right shape`, async () => {
    const base = await apiBase();
    const admin = await adminBase(); // the admin API has its own listener
    const agent = keepAliveAgent(CONCURRENCY);
    const arbitrary = hostileRequest(OPERATIONS, setup.context);
    const failures: Failure[] = [];
    const statuses = new Map<number, number>();
    const perRoute = new Map<string, number>();
    const slowest: { ms: number; label: string }[] = [];
    const started = Date.now();
    console.log(`      hostile input: seed ${SEED}, ${RUNS} requests over ${OPERATIONS.length} routes (replay: HOSTILE_SEED=${SEED} HOSTILE_RUNS=${RUNS})`);

    for (let from = 0; from < RUNS; from += CHUNK) {
      const requests = fc.sample(arbitrary, { seed: SEED + from / CHUNK, numRuns: Math.min(CHUNK, RUNS - from) });
      await pool(requests, CONCURRENCY, async (req, i) => {
        const index = from + i;
        if (ONLY && !ONLY.has(index)) return;
        const t0 = performance.now();
        const res = await send(req.op.surface === 'admin' ? admin : base, agent, { method: req.method, path: req.path, headers: req.headers, body: req.body?.bytes }).catch((err: NodeJS.ErrnoException) => err);
        if (res instanceof Error) {
          failures.push({ index, req, problems: [`no answer: ${res.code ?? res.message}`] });
          return;
        }
        slowest.push({ ms: performance.now() - t0, label: `${req.method} ${req.op.path} [${req.what.join('; ').slice(0, 100)}] ${res.status}` });
        if (slowest.length > 20) slowest.sort((a, b) => b.ms - a.ms).pop();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        perRoute.set(`${req.op.method} ${req.op.path}`, (perRoute.get(`${req.op.method} ${req.op.path}`) ?? 0) + 1);
        const problems = problemsWith(req, res, setup.secrets);
        if (problems.length) failures.push({ index, req, res, problems });
      });
    }
    agent.destroy();

    const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
    const histogram = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(`      ${sent} answered in ${((Date.now() - started) / 1000).toFixed(1)} s (${histogram}); ${perRoute.size} routes reached; ${failures.length} failures`);
    console.log(`      slowest: ${slowest.sort((a, b) => b.ms - a.ms).slice(0, 8).map((x) => `${x.ms.toFixed(0)} ms ${x.label}`).join('\n               ')}`);
    for (const f of failures.slice(0, 25)) console.log(`      ${report(f)}`);

    if (!ONLY) expect(perRoute.size, 'every route of the registry was exercised').to.equal(OPERATIONS.length);
    expect(failures.map((f) => `#${f.index} ${f.req.method} ${f.req.path.slice(0, 80)}: ${f.problems.join('; ')}`)).to.deep.equal([]);

    // Still healthy: health, readiness, and an ordinary request of each surface.
    expect((await call('GET', '/healthz')).status).to.equal(200);
    expect((await call('GET', '/readyz')).status).to.equal(200);
    expect((await call('GET', '/v1/partner/ping', { headers: setup.context.partnerKeyHeaders })).status).to.equal(200);
    expect((await call('GET', `/v1/invoices/${setup.context.params['tenant:id']}`, { headers: setup.context.tenantHeaders })).status).to.equal(200);
  });
});
