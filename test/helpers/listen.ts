import type Koa from 'koa';
import type { AddressInfo } from 'node:net';

/** Serves a Koa app on an ephemeral port and returns its base URL (tests build tiny apps on the real middleware). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function listen(app: Koa<any, any>): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
