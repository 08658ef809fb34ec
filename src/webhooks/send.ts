import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { config } from '../config';
import { checkWebhookUrl, forbiddenAddressReason } from './url-policy';
import { statusFailure, timeoutFailure, transportFailure, type SendFailure } from './send-failure';

// One HTTP POST of a signed webhook. Every failure is a result, never a throw: the caller records it and
// decides about retries (workflow timers), so a bad receiver cannot cause a Temporal activity-retry storm.

const SEND_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendResult {
  ok: boolean;
  /** HTTP status when the receiver answered, else null. */
  status: number | null;
  /** The class of failure (send-failure.ts), shown to the receiver's owner as `lastError`; null on success. */
  error: string | null;
  /** The full explanation for our logs only (may name addresses): never stored where partners read. */
  detail: string | null;
  durationMs: number;
}

export interface SendRequest {
  url: string;
  /** Override EINVOICE_DEV_ALLOW_PRIVATE_URLS (tests); the policy is the same in every mode. */
  allowPrivate?: boolean;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}

export async function postWebhook(req: SendRequest): Promise<SendResult> {
  const started = Date.now();
  const done = (status: number | null, failure: SendFailure | null): SendResult => ({
    ok: status !== null && status >= 200 && status < 300 && failure === null,
    status,
    error: failure?.error ?? null,
    detail: failure?.detail ?? null,
    durationMs: Date.now() - started,
  });

  // Literal IPs never go through `lookup`, so checkWebhookUrl judges them here; names are judged in the lookup.
  const allowPrivate = req.allowPrivate ?? config().devAllowPrivateUrls;
  const problem = checkWebhookUrl(req.url, { allowPrivate });
  if (problem) return done(null, { error: problem.rule, detail: `refused: ${problem.message}` });
  const url = new URL(req.url);

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    const finish = (failure: SendFailure | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(done(status, failure));
    };
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, {
      method: 'POST',
      agent: false, // a fresh connection per attempt: no pooled socket skips the address check
      lookup: allowPrivate ? undefined : publicOnlyLookup,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(req.body), 'User-Agent': 'einvoice-webhooks/1', ...req.headers },
    });
    const timeoutMs = req.timeoutMs ?? SEND_TIMEOUT_MS;
    // After the status line a stalled body no longer matters: the receiver has answered.
    const timer = setTimeout(() => finish(status === null ? timeoutFailure(timeoutMs) : statusFailure(status)), timeoutMs);

    request.on('response', (res) => {
      status = res.statusCode ?? null;
      const error = statusFailure(status ?? 0, res.headers.location);
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) finish(error); // cap what a receiver can make us read
      });
      res.on('end', () => finish(error));
      res.on('error', () => finish(error));
    });
    request.on('error', (err: NodeJS.ErrnoException) => finish(transportFailure(err)));
    request.end(req.body);
  });
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
