import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { config, resetConfig } from '../../src/config';
import { signJwt, verifyJwt } from '../../src/credentials/jwt';
import { call } from '../helpers/http';
import { newTenant } from '../helpers/tenants';

// Issue 32 point 4: JWT_PREVIOUS_SECRET lets Tenant API tokens signed before a JWT secret rotation keep working until
// they expire; new tokens are always signed with the current JWT_SECRET.
function setJwtEnv(secret: string | undefined, previous: string | undefined): void {
  for (const [name, value] of [['JWT_SECRET', secret], ['JWT_PREVIOUS_SECRET', previous]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}

describe('JWT secret rotation (JWT_PREVIOUS_SECRET)', function () {
  this.timeout(60_000);
  let saved: { secret: string | undefined; previous: string | undefined };
  before(() => void (saved = { secret: process.env.JWT_SECRET, previous: process.env.JWT_PREVIOUS_SECRET }));
  afterEach(() => setJwtEnv(saved.secret, saved.previous));

  it('verifyJwt accepts the current or the previous secret, nothing else', () => {
    const [current, previous, other] = [1, 2, 3].map(() => randomBytes(32).toString('base64url'));
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: 't-1', iat: now, exp: now + 60, aud: 'einvoice-tenant' as const };
    expect(verifyJwt(signJwt(claims, current), [current, previous])).to.deep.include({ sub: 't-1' });
    expect(verifyJwt(signJwt(claims, previous), [current, previous])).to.deep.include({ sub: 't-1' });
    expect(verifyJwt(signJwt(claims, other), [current, previous])).to.equal(null);
    expect(verifyJwt(signJwt(claims, previous), [current, null])).to.equal(null);
    expect(verifyJwt(signJwt(claims, previous), current)).to.equal(null);
    expect(verifyJwt(signJwt({ ...claims, exp: now - 1 }, previous), [current, previous]), 'expired stays expired').to.equal(null);
  });

  it('over HTTP: a token from before the rotation works while JWT_PREVIOUS_SECRET holds the old secret, and not after', async () => {
    const old = randomBytes(32).toString('base64url');
    setJwtEnv(old, undefined);
    const tenant = await newTenant();
    const list = (token: string) => call('GET', '/v1/invoices', { headers: { Authorization: `Bearer ${token}` } });
    expect((await list(tenant.token)).status).to.equal(200);

    const rotated = randomBytes(32).toString('base64url');
    setJwtEnv(rotated, old);
    expect(config()).to.include({ jwtSecret: rotated, jwtPreviousSecret: old });
    const during = await list(tenant.token);
    expect(during.status, during.text).to.equal(200);
    // A new token is signed with the current secret only.
    const fresh = await call('POST', '/v1/auth/token', { json: { clientId: tenant.clientId, clientSecret: tenant.clientSecret } });
    expect(fresh.status, fresh.text).to.equal(200);
    expect(verifyJwt(fresh.body.accessToken, rotated)).to.not.equal(null);
    expect(verifyJwt(fresh.body.accessToken, old)).to.equal(null);

    setJwtEnv(rotated, undefined); // the overlap is over: JWT_PREVIOUS_SECRET removed
    expect((await list(tenant.token)).status).to.equal(401);
    expect((await list(fresh.body.accessToken)).status).to.equal(200);
  });
});
