// OAuth client-credentials as the simulated ASP does it: known clients trade their secret for a bearer token
// that expires, so the HTTP client's re-authentication on 401 can be exercised.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenResponse } from '../asp-api';

export interface SimClient {
  clientId: string;
  clientSecret: string;
}

export class TokenIssuer {
  private readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();

  constructor(
    private readonly clients: readonly SimClient[],
    private readonly ttlSeconds: number,
  ) {}

  /** A fresh token for a known client with the right secret, else null. */
  issue(clientId: unknown, clientSecret: unknown): TokenResponse | null {
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string') return null;
    const client = this.clients.find((c) => c.clientId === clientId);
    if (!client || !sameText(client.clientSecret, clientSecret)) return null;
    const accessToken = randomBytes(24).toString('hex');
    this.tokens.set(accessToken, { clientId, expiresAt: Date.now() + this.ttlSeconds * 1000 });
    return { accessToken, tokenType: 'Bearer', expiresIn: this.ttlSeconds };
  }

  /** The client id behind an `Authorization: Bearer …` header, or null when missing, unknown or expired. */
  authenticate(authorization: string | undefined): string | null {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    const entry = token ? this.tokens.get(token) : undefined;
    if (!entry) return null;
    if (entry.expiresAt <= Date.now()) {
      this.tokens.delete(token!);
      return null;
    }
    return entry.clientId;
  }

  /** Tests: every token issued so far is expired now, as if the TTL had passed. */
  expireAll(): void {
    this.tokens.clear();
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
