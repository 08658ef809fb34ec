// The accredited service provider over HTTP (src/provider/asp-api.ts): authenticates, submits with our document
// id, reads submissions back, and maps the ASP's answers to ours. Transient failures (network, timeouts, 5xx,
// 429) are retried a few times here, honouring Retry-After, then surface as a retryable provider_unavailable_for_now so the activity's
// durable retry takes over; a 409 for our document id is the first submission, read back, never a second one.
import { ServiceError } from '../domain/errors';
import { aspErrors, type AspClient, type HandOver } from './asp';
import type { DuplicateResponse, Submission, TokenResponse } from './asp-api';
import { verdictOf } from './asp-verdicts';

export interface AspHttpOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Per request. */
  timeoutMs?: number;
  /** In-process attempts for transient failures before handing over to the activity's retry. */
  attempts?: number;
  /** Longest Retry-After honoured in process; a longer one is left to the activity's retry. */
  maxInlineWaitMs?: number;
}

export function aspHttpClient(opts: AspHttpOptions): AspClient & { submission(id: string): Promise<Submission> } {
  const http = new AspHttp(opts);
  return {
    async submit({ invoiceId, run, xml }): Promise<HandOver> {
      const documentId = `${invoiceId}-${run}`;
      const res = await http.call('POST', '/v1/submissions', { documentId, xml });
      if (res.status === 202) return accepted(res.body as Submission);
      if (res.status === 409) {
        // Our earlier attempt got there (its answer was lost): that submission is the one.
        const original = await http.call('GET', `/v1/submissions/${encodeURIComponent((res.body as DuplicateResponse).submissionId)}`);
        if (original.status !== 200) throw aspErrors.retryable(`duplicate submission ${documentId} could not be read back (HTTP ${original.status})`);
        return accepted(original.body as Submission);
      }
      if (res.status === 422) {
        const failed = res.body as Submission;
        const verdict = verdictOf(failed);
        return { accepted: false, reason: verdict.status === 'rejected' ? (verdict.reason ?? 'refused by the ASP') : 'refused by the ASP', answer: failed };
      }
      throw aspErrors.requestRefused(`the ASP refused the submission of ${documentId}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    },

    async poll({ submissionId }) {
      const sub = await this.submission(submissionId);
      return { ...verdictOf(sub), answer: sub };
    },

    async submission(id: string): Promise<Submission> {
      const res = await http.call('GET', `/v1/submissions/${encodeURIComponent(id)}`);
      if (res.status !== 200) throw aspErrors.requestRefused(`the ASP has no submission ${id} (HTTP ${res.status})`);
      return res.body as Submission;
    },
  };
}

function accepted(sub: Submission): HandOver {
  return { accepted: true, submissionId: sub.submissionId, documentId: sub.documentId, answer: sub };
}

interface Answer {
  status: number;
  body: unknown;
}

/** Transport: bearer token (re-authenticating once on 401), timeouts, transient retries with Retry-After. */
class AspHttp {
  private token: { value: string; until: number } | null = null;
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly maxInlineWaitMs: number;

  constructor(private readonly opts: AspHttpOptions) {
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.attempts = opts.attempts ?? 3;
    this.maxInlineWaitMs = opts.maxInlineWaitMs ?? 10_000;
  }

  async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    let reauthenticated = false;
    for (let attempt = 1; ; attempt++) {
      let res: Answer & { retryAfterMs: number | null };
      try {
        res = await this.send(method, path, body, await this.bearer());
      } catch (err) {
        if (err instanceof ServiceError) throw err; // our credentials refused: resending cannot help
        if (attempt >= this.attempts) throw aspErrors.retryable(`ASP unreachable: ${(err as Error).message}`);
        await sleep(backoffMs(attempt));
        continue;
      }
      if (res.status === 401 && !reauthenticated) {
        this.token = null; // expired or revoked: one fresh token, then the answer stands
        reauthenticated = true;
        attempt--;
        continue;
      }
      if (res.status === 429 || res.status >= 500) {
        const waitMs = res.retryAfterMs ?? backoffMs(attempt);
        if (attempt >= this.attempts || waitMs > this.maxInlineWaitMs) throw aspErrors.retryable(`ASP answered HTTP ${res.status}`, res.retryAfterMs);
        await sleep(waitMs);
        continue;
      }
      return res;
    }
  }

  private async bearer(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const res = await this.send('POST', '/oauth/token', { clientId: this.opts.clientId, clientSecret: this.opts.clientSecret }, null);
    if (res.status === 429 || res.status >= 500) throw new Error(`the ASP's token endpoint answered HTTP ${res.status}`); // transient
    if (res.status !== 200) throw aspErrors.requestRefused(`the ASP refused our credentials (HTTP ${res.status}); check PROVIDER_CLIENT_ID and PROVIDER_CLIENT_SECRET (live) or PROVIDER_SANDBOX_CLIENT_ID and PROVIDER_SANDBOX_CLIENT_SECRET (sandbox)`);
    const token = res.body as TokenResponse;
    this.token = { value: token.accessToken, until: Date.now() + Math.max(0, token.expiresIn - 30) * 1000 };
    return token.accessToken;
  }

  private async send(method: string, path: string, body: unknown, bearer: string | null): Promise<Answer & { retryAfterMs: number | null }> {
    const res = await fetch(new URL(path, this.opts.baseUrl), {
      method,
      headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(this.timeoutMs),
      redirect: 'manual',
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text for the error message
    }
    return { status: res.status, body: parsed, retryAfterMs: retryAfterMs(res.headers.get('Retry-After')) };
  }
}

/** Retry-After in seconds or as an HTTP date. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

const backoffMs = (attempt: number) => Math.min(200 * 2 ** (attempt - 1), 2_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
