// Which webhook and status URLs the service may send to: one policy for test, sandbox and live alike (they run
// on the same production host), so https only, and never an address inside our own network (SSRF). The address
// check also runs at send time on the addresses the connection actually uses (see send.ts), because DNS can
// change after registration. Plain http and private or loopback addresses only when the development setting
// EINVOICE_DEV_ALLOW_PRIVATE_URLS=true allows them (`npm start`'s local receiver, the tests' receivers).
// Pure apart from reading that setting as the default policy.
import { isIP } from 'node:net';
import { config } from '../config';

export interface UrlPolicy {
  /** http, loopback and private addresses allowed (development only; production refuses to start with it). */
  allowPrivate: boolean;
}

/** The rule a URL broke; send.ts records `forbidden_address` and the others as the partner-visible failure class. */
export type UrlRule = 'invalid_url' | 'https_required' | 'credentials_in_url' | 'forbidden_address';

export interface UrlProblem {
  rule: UrlRule;
  /** Says the rule and what to send instead; the caller names the field. */
  message: string;
}

const EXAMPLE = 'https://erp.example.com/webhooks/einvoice';
const DEV_HINT = 'only a development setup (EINVOICE_DEV_ALLOW_PRIVATE_URLS=true) allows';

/** The policy of this process: EINVOICE_DEV_ALLOW_PRIVATE_URLS, read through config(). */
export function configuredUrlPolicy(): UrlPolicy {
  return { allowPrivate: config().devAllowPrivateUrls };
}

export function checkWebhookUrl(raw: string, policy: UrlPolicy): UrlProblem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { rule: 'invalid_url', message: `"${raw.slice(0, 200)}" is not an absolute URL; send e.g. ${EXAMPLE}` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { rule: 'https_required', message: `must use https (got ${url.protocol}); send e.g. ${EXAMPLE}` };
  if (url.username || url.password) return { rule: 'credentials_in_url', message: 'must not carry credentials (user:password@); send the URL without them: receivers authenticate us by the signature' };
  if (policy.allowPrivate) return null;
  if (url.protocol !== 'https:') return { rule: 'https_required', message: `must use https, not plain http (${DEV_HINT} http); send the https URL of your receiver` };
  const literal = hostAddress(url);
  const reason = literal ? forbiddenAddressReason(literal) : isLocalhostName(url.hostname) ? 'loopback' : null;
  if (reason) {
    return { rule: 'forbidden_address', message: `must point at a public address, not a ${reason} one (${literal ?? url.hostname}; ${DEV_HINT} those); send a public https URL` };
  }
  return null;
}

/** The problem with a webhook or status URL under `policy` (default: this process's), as one message, or null. */
export function webhookUrlProblem(raw: string, policy: UrlPolicy = configuredUrlPolicy()): string | null {
  const problem = checkWebhookUrl(raw, policy);
  return problem && `webhook and status URLs ${problem.message}`;
}

/** `localhost` and its subdomains are loopback by definition (RFC 6761), whatever DNS says. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The IP address of a URL's host when the host is a literal address, else null. */
export function hostAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/**
 * Why a webhook may not connect to this address (loopback, private, link-local, unique-local,
 * unspecified, ...), or null when it is a public unicast address. IPv4-mapped, IPv4-compatible, NAT64 and
 * 6to4 IPv6 addresses are judged by the IPv4 address they carry.
 */
export function forbiddenAddressReason(ip: string): string | null {
  const family = isIP(ip);
  if (family === 4) return ipv4Reason(ip.split('.').map(Number));
  if (family === 6) return ipv6Reason(ip);
  return 'unparseable';
}

function ipv4Reason([a, b, c]: number[]): string | null {
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && b >= 64 && b <= 127) return 'shared (carrier-grade NAT)';
  if (a === 192 && b === 0 && c === 0) return 'reserved';
  if (a === 198 && (b === 18 || b === 19)) return 'reserved';
  if (a >= 224) return a < 240 ? 'multicast' : 'reserved';
  return null;
}

function ipv6Reason(ip: string): string | null {
  const g = ipv6Groups(ip);
  if (!g) return 'unparseable';
  const v4 = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
  const zeroPrefix = g.slice(0, 5).every((x) => x === 0);
  if (zeroPrefix && g[5] === 0 && g[6] === 0 && g[7] <= 1) return g[7] === 0 ? 'unspecified' : 'loopback';
  if (zeroPrefix && (g[5] === 0xffff || g[5] === 0)) return ipv4Reason(v4(g[6], g[7])); // mapped / compatible
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4Reason(v4(g[6], g[7])); // NAT64
  if (g[0] === 0x2002) return ipv4Reason(v4(g[1], g[2])); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'site-local';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  return null;
}

/** Eight 16-bit groups; the WHATWG URL parser canonicalises every IPv6 spelling (incl. dotted tails) first. */
function ipv6Groups(ip: string): number[] | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${ip.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head, tail] = canonical.includes('::') ? canonical.split('::') : [canonical, undefined];
  const parse = (s: string | undefined) => (s ? s.split(':').map((h) => parseInt(h, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const groups = tail === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffff) ? groups : null;
}
