import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { forbiddenAddressReason, hostAddress, webhookUrlProblem } from './url-policy';

// One HTTP POST of a signed webhook. Every failure is a result, never a throw: the caller records it and
// decides about retries (workflow timers), so a bad receiver cannot cause a Temporal activity-retry storm.

const SEND_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendResult {
  ok: boolean;
  /** HTTP status when the receiver answered, else null. */
  status: number | null;
  /** Transport, policy or non-2xx explanation, else null. */
  error: string | null;
  durationMs: number;
}

export interface SendRequest {
  url: string;
  mode: 'test' | 'live';
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}

export async function postWebhook(req: SendRequest): Promise<SendResult> {
  const started = Date.now();
  const done = (status: number | null, error: string | null): SendResult => ({
    ok: status !== null && status >= 200 && status < 300 && error === null,
    status,
    error,
    durationMs: Date.now() - started,
  });

  const problem = webhookUrlProblem(req.url, req.mode);
  if (problem) return done(null, `refused: ${problem}`);
  const url = new URL(req.url);
  if (req.mode === 'live') {
    // Literal IPs never go through `lookup`, so they are judged here (webhookUrlProblem did); names below.
    const literal = hostAddress(url);
    if (literal && forbiddenAddressReason(literal)) return done(null, `refused: ${literal} is not a public address`);
  }

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(done(status, error));
    };
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, {
      method: 'POST',
      agent: false, // a fresh connection per attempt: no pooled socket skips the address check
      lookup: req.mode === 'live' ? publicOnlyLookup : undefined,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(req.body), 'User-Agent': 'einvoice-webhooks/1', ...req.headers },
    });
    const timeoutMs = req.timeoutMs ?? SEND_TIMEOUT_MS;
    // After the status line a stalled body no longer matters: the receiver has answered.
    const timer = setTimeout(() => finish(status === null ? `timeout: no response within ${timeoutMs / 1000} s` : statusError(status, undefined)), timeoutMs);

    request.on('response', (res) => {
      status = res.statusCode ?? null;
      const error = statusError(status ?? 0, res.headers.location);
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) finish(error); // cap what a receiver can make us read
      });
      res.on('end', () => finish(error));
      res.on('error', () => finish(error));
    });
    request.on('error', (err: NodeJS.ErrnoException) => finish(transportError(err)));
    request.end(req.body);
  });
}

function statusError(status: number, location: string | undefined): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `HTTP ${status}: redirect${location ? ` to ${location}` : ''} not followed; register the final URL`;
  return `HTTP ${status}`;
}

function transportError(err: NodeJS.ErrnoException): string {
  if (err.code === 'EWEBHOOK_ADDRESS') return `refused: ${err.message}`;
  return err.code ? `${err.code}: ${err.message}` : err.message;
}

/** dns.lookup that fails when any address of the name is not public, so the socket can only reach the Internet. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    for (const { address } of addresses) {
      const reason = forbiddenAddressReason(address);
      if (reason) {
        const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${reason} address ${address}`);
        refusal.code = 'EWEBHOOK_ADDRESS';
        return callback(refusal, '', 0);
      }
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no addresses`), { code: 'ENOTFOUND' }), '', 0);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
