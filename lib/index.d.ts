// Types of index.js (plain CommonJS, the package entry). Keep in step with index.js; `npx tsc --noEmit -p .`
// checks the service's own use of them (src/webhooks/*.ts import index.js through this file).

export type VerifyResult = { ok: true; event: unknown } | { ok: false; reason: string };

export interface VerifyOptions {
  /** Largest accepted |now - t| in seconds (SPEC 8: 300). */
  toleranceSeconds?: number;
  /** "Now", for tests and replays of captured requests. Defaults to the clock. */
  now?: number | Date;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

/** The invoice.status_changed event (SPEC 6.1), as `verifyWebhook` returns it in `event` for that type. */
export interface StatusChangedEvent {
  event: 'invoice.status_changed';
  erpPartnerId: string;
  invoiceId: string;
  status: 'delivered' | 'rejected';
  reason: string | null;
  /** ISO-8601 at seconds precision; equals the signature's t. */
  timestamp: string;
}

export declare const SIGNATURE_HEADER: 'X-Webhook-Signature';
export declare const TIMESTAMP_HEADER: 'X-Webhook-Timestamp';
export declare const STATUS_CHANGED_EVENT: 'invoice.status_changed';

/** v1 = HMAC-SHA256(secret, `${t}.${rawBody}`), hex. */
export declare function computeSignature(secret: string, t: number, rawBody: string | Buffer): string;

/**
 * The headers of one signed attempt: X-Webhook-Signature (t=<unix>,v1=<hex>) and X-Webhook-Timestamp. Several
 * secrets (during a rotation, the new one first) give one v1 each: t=<unix>,v1=<new>,v1=<old>.
 */
export declare function signatureHeaders(secret: string | readonly string[], t: number, rawBody: string): Record<string, string>;

/**
 * SPEC 6.1's receiver check, in order: both headers, |now - t| <= toleranceSeconds (300), a constant-time
 * HMAC compare, only then JSON.parse. Give it the raw body exactly as received. Never throws. A header with
 * several v1 values (sent while the service rotates the webhook secret) passes when any one of them matches.
 */
export declare function verifyWebhook(rawBody: string | Buffer, headers: HeaderBag, secret: string, opts?: VerifyOptions): VerifyResult;
