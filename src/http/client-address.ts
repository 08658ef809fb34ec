import { isIPv4, isIPv6 } from 'node:net';

/**
 * Pure: the key per-address limits count a client under. IPv4 (also written IPv4-mapped, `::ffff:a.b.c.d`) is the
 * address itself; IPv6 is its /64 prefix, because one host is routinely handed a whole /64 and would otherwise get
 * 2^64 fresh counters. Anything else (no address: a socket already gone) is one shared key.
 */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return mapped;
  if (isIPv4(ip)) return ip;
  if (isIPv6(ip)) return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
  return 'unknown';
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded, lower case without leading zeros. */
function ipv6Groups(ip: string): string[] {
  const [head, tail = ''] = ip.split('%')[0].toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = ip.includes('::') ? [...left, ...Array<string>(missing).fill('0'), ...right] : left;
  return groups.map((g) => String(parseInt(g, 16).toString(16)));
}
