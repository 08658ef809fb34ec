// Sends generated requests over real sockets with keep-alive (node:http, so bytes, headers and methods go out as
// generated, which fetch would refuse or rewrite), a few at a time.
import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Bodies longer than this are cut (the checks read the start; openapi.json and Swagger UI's assets are long). */
const MAX_READ = 256 * 1024;

export function keepAliveAgent(sockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: sockets });
}

/**
 * One request. A kept-alive socket the server closed just as we reused it resets the connection before any answer
 * (the race Node's documentation describes for reusedSocket): that one is sent again on a fresh connection.
 */
export async function send(base: string, agent: http.Agent, req: RawRequest): Promise<RawResponse> {
  try {
    return await sendOnce(base, agent, req);
  } catch (err) {
    if ((err as { reusedSocket?: boolean }).reusedSocket) return sendOnce(base, false, req);
    throw err;
  }
}

function sendOnce(base: string, agent: http.Agent | false, req: RawRequest): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    let answered = false;
    const r = http.request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers: { ...req.headers, 'Content-Length': String(req.body?.length ?? 0) }, agent }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let length = 0;
      res.on('data', (c: Buffer) => {
        if (length < MAX_READ) chunks.push(c);
        length += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // A server that answers before reading the whole body (401, 413) may close while we still write: the answer
    // counts, the write error does not. No answer at all is the caller's failure.
    r.on('error', (err: NodeJS.ErrnoException) => {
      if (!answered) reject(Object.assign(err, { reusedSocket: r.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE') }));
    });
    r.end(req.body);
  });
}

/** Runs `work` over `items` with at most `concurrency` at once; results in item order. */
export async function pool<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i], i);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}
