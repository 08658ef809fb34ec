import { createHmac, timingSafeEqual } from 'node:crypto';

// HS256 JSON Web Tokens (RFC 7519) for the Tenant API's bearer credential (DESIGN: HS256, 1 h). Small enough to
// own: we only ever issue and accept one algorithm, so there is no `alg` negotiation to get wrong. Pure.

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export interface TenantClaims {
  /** The tenant id. */
  sub: string;
  /** Issued at and expiry, unix seconds. */
  iat: number;
  exp: number;
  /** Identifies the audience so a token of another system signed with the same secret is refused. */
  aud: 'einvoice-tenant';
  /** The generation of the client secret that got the token (credentials/rotation.ts); absent on older tokens. */
  gen?: number;
}

export function signJwt(claims: TenantClaims, secret: string): string {
  const payload = base64url(JSON.stringify(claims));
  return `${HEADER}.${payload}.${mac(`${HEADER}.${payload}`, secret)}`;
}

/**
 * The claims of a token we issued that has not expired, or null (malformed, forged, other algorithm, expired).
 * `secrets`: the current one first, then the previous one during a JWT secret rotation (JWT_PREVIOUS_SECRET), so
 * tokens signed before the rotation keep working until they expire. Every secret is compared, in constant time.
 */
export function verifyJwt(token: string, secrets: string | readonly (string | null)[], nowSeconds = Math.floor(Date.now() / 1000)): TenantClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const given = Buffer.from(parts[2]);
  let signed = false;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    if (!secret) continue;
    const expected = Buffer.from(mac(`${parts[0]}.${parts[1]}`, secret));
    if (expected.length === given.length && timingSafeEqual(expected, given)) signed = true;
  }
  if (!signed) return null;
  let claims: Partial<TenantClaims>;
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number' || claims.aud !== 'einvoice-tenant') return null;
  return claims.exp > nowSeconds ? (claims as TenantClaims) : null;
}

function mac(input: string, secret: string): string {
  return createHmac('sha256', secret).update(input).digest('base64url');
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
