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
}

export function signJwt(claims: TenantClaims, secret: string): string {
  const payload = base64url(JSON.stringify(claims));
  return `${HEADER}.${payload}.${mac(`${HEADER}.${payload}`, secret)}`;
}

/** The claims of a token we issued that has not expired, or null (malformed, forged, other algorithm, expired). */
export function verifyJwt(token: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): TenantClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const expected = Buffer.from(mac(`${parts[0]}.${parts[1]}`, secret));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
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
