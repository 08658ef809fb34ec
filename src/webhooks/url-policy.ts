// Which webhook URLs and addresses the service may send to. Live partners receive legally relevant events,
// so only https, and never an address inside our own network (SSRF): the address check runs at send time on
// the addresses the connection actually uses (see send.ts), because DNS can change after registration.
// Test partners may use http and loopback (local receivers during integration). Pure: no I/O here.
import { isIP } from 'node:net';

export function webhookUrlProblem(raw: string, mode: 'test' | 'live'): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"${raw}" is not an absolute URL; send e.g. https://erp.example.com/webhooks/einvoice`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `webhook URLs must use https (got ${url.protocol})`;
  if (mode === 'live' && url.protocol !== 'https:') return 'live partners must use an https webhook URL';
  if (url.username || url.password) return 'webhook URLs must not carry credentials; authenticate with the signature instead';
  if (mode === 'live') {
    const literal = hostAddress(url);
    const reason = literal ? forbiddenAddressReason(literal) : null;
    if (reason) return `live webhook URLs must not point at a ${reason} address (${literal})`;
  }
  return null;
}

/** The IP address of a URL's host when the host is a literal address, else null. */
export function hostAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/**
 * Why a live webhook may not connect to this address (loopback, private, link-local, unique-local,
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
