// Signed status callbacks to the service. Failures are logged and never retried: the service polls as its
// fallback, which is exactly what a lost callback must exercise. Callbacks of one submission go out one after
// the other, so the receiver sees its statuses in order.
import { createHmac } from 'node:crypto';
import { ASP_SIGNATURE_HEADER, type Submission } from '../asp-api';
import { logger } from '../../logger';

const log = logger.child({ component: 'asp-simulator' });
const CALLBACK_TIMEOUT_MS = 5_000;

/** `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; computed here, not with our webhook signer, since the ASP is a foreign party. */
export function aspSignature(secret: string, t: number, rawBody: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex')}`;
}

export class CallbackSender {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    public url: string | undefined,
    private readonly secret: string,
  ) {}

  /** Queues the callback of one status change; `times` is 2 for the duplicate-callbacks scenario. */
  send(submission: Submission, times: number): void {
    const url = this.url;
    if (!url || times < 1) return;
    const rawBody = JSON.stringify({ ...submission, event: 'submission.status_changed' } satisfies Submission);
    const t = Math.floor(Date.now() / 1000);
    const headers = { 'content-type': 'application/json', [ASP_SIGNATURE_HEADER]: aspSignature(this.secret, t, rawBody) };
    const id = submission.submissionId;
    const previous = this.queues.get(id) ?? Promise.resolve();
    const next = previous.then(async () => {
      for (let i = 0; i < times; i++) await post(url, headers, rawBody, submission);
    });
    this.queues.set(id, next);
    void next.then(() => {
      if (this.queues.get(id) === next) this.queues.delete(id);
    });
  }

  /** Resolves when every queued callback has been attempted (tests and stop()). */
  async drain(): Promise<void> {
    while (this.queues.size) await Promise.all([...this.queues.values()]);
  }
}

async function post(url: string, headers: Record<string, string>, rawBody: string, s: Submission): Promise<void> {
  try {
    const res = await fetch(url, { method: 'POST', headers, body: rawBody, signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS) });
    await res.arrayBuffer(); // free the connection
    if (!res.ok) log.warn({ url, httpStatus: res.status, submissionId: s.submissionId, status: s.status }, 'ASP simulator: callback refused');
  } catch (err) {
    const reason = [err, (err as Error).cause].filter(Boolean).map((e) => (e as Error).message ?? String(e)).join(': ');
    log.warn({ reason, url, submissionId: s.submissionId, status: s.status }, 'ASP simulator: callback failed');
  }
}
