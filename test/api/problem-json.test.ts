import { expect } from 'chai';
import { call } from '../helpers/http';
import { newPartner } from '../helpers/partners';

function expectProblem(res: { status: number; headers: Headers; body: any; text: string }, status: number, code: string) {
  expect(res.status).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expect(res.body).to.include({ status, code });
  expect(res.body.type).to.match(/^https:\/\//);
  expect(res.body.title).to.be.a('string').and.not.empty;
  expect(res.text).not.to.match(/at .*\.(ts|js):\d+/); // never a stack trace
}

describe('problem+json errors', () => {
  it('404 route_not_found for an unknown route, authenticated or not', async () => {
    expectProblem(await call('GET', '/nope'), 404, 'route_not_found');
    const p = await newPartner();
    expectProblem(await call('GET', '/v1/partner/nope', { headers: p.headers }), 404, 'route_not_found');
  });

  it('401 on the partner surface is problem+json too', async () => {
    expectProblem(await call('GET', '/v1/partner/whoami'), 401, 'missing_credentials');
  });

  it('405 method_not_allowed on a known path', async () => {
    const p = await newPartner();
    const res = await call('DELETE', '/v1/partner/ping', { headers: p.keyHeaders });
    expectProblem(res, 405, 'method_not_allowed');
  });

  it('healthz answers without credentials', async () => {
    const res = await call('GET', '/healthz');
    expect(res.status).to.equal(200);
    expect(res.body.ok).to.equal(true);
  });

  it('readyz checks MongoDB and Temporal', async () => {
    const res = await call('GET', '/readyz');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ ok: true, mongodb: true, temporal: true });
  });

  it('/metrics exposes request latency by route pattern', async () => {
    await call('GET', '/healthz');
    const res = await call('GET', '/metrics');
    expect(res.status).to.equal(200);
    expect(res.text).to.match(/http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} \d+/);
  });

  it('echoes a request id or makes one', async () => {
    const given = await call('GET', '/healthz', { headers: { 'X-Request-Id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).to.equal('abc-123');
    const made = await call('GET', '/healthz');
    expect(made.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });
});
