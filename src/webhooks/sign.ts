import { createHmac } from 'node:crypto';

// Stripe-style signatures (SPEC 6.1): v1 = HMAC-SHA256(secret, `${t}.${rawBody}`), hex. Pure.

export const SIGNATURE_HEADER = 'X-Webhook-Signature';
export const TIMESTAMP_HEADER = 'X-Webhook-Timestamp';

export function computeSignature(secret: string, t: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`, 'utf8').update(rawBody).digest('hex');
}

/** The headers of one signed attempt. The retired x-webhook-secret header is never among them. */
export function signatureHeaders(secret: string, t: number, rawBody: string): Record<string, string> {
  return {
    [SIGNATURE_HEADER]: `t=${t},v1=${computeSignature(secret, t, rawBody)}`,
    [TIMESTAMP_HEADER]: String(t),
  };
}
