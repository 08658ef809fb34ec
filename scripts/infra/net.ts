import fs from 'node:fs';
import net from 'node:net';

/** True when something accepts TCP connections on host:port within the timeout. */
export function isReachable(hostPort: string, timeoutMs = 1000): Promise<boolean> {
  const { host, port } = splitHostPort(hostPort);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export function splitHostPort(hostPort: string): { host: string; port: number } {
  const i = hostPort.lastIndexOf(':');
  return { host: hostPort.slice(0, i) || '127.0.0.1', port: Number(hostPort.slice(i + 1)) };
}

/**
 * A loopback port free right now. Where the kernel says which ports it hands out to outgoing connections (Linux's
 * ip_local_port_range), one from below that range: a port the OS gives for port 0 comes from that range, and an
 * outgoing connection (to the store, to Temporal) could take it before the caller's server binds it (a bench child
 * failed so with EADDRINUSE). Below the range only an explicit listener can take it. Elsewhere the OS picks.
 */
export async function freePort(): Promise<number> {
  const range = quietPortRange();
  for (let attempt = 0; range && attempt < 50; attempt++) {
    const port = range.from + Math.floor(Math.random() * (range.to - range.from));
    if ((await listenAndClose(port).catch(() => null)) !== null) return port;
  }
  return listenAndClose(0);
}

/** Where freePort looks first: from 20000 up to the kernel's ephemeral range (and below 27000, MongoDB's 27017). */
export function quietPortRange(rangeFile = '/proc/sys/net/ipv4/ip_local_port_range'): { from: number; to: number } | null {
  let ephemeralStart: number;
  try {
    ephemeralStart = Number(fs.readFileSync(rangeFile, 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return null;
  }
  const to = Math.min(ephemeralStart, 27000);
  return Number.isInteger(ephemeralStart) && to - 20000 >= 1000 ? { from: 20000, to } : null;
}

function listenAndClose(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return false;
}
