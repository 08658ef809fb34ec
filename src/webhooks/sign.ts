// Stripe-style signatures (SPEC 6.1): v1 = HMAC-SHA256(secret, `${t}.${rawBody}`), hex. Pure.
// The implementation is the package entry's plain JavaScript (lib/index.js), so the signature the service sends
// and the check integrators run are one piece of code; this module gives the service its usual import path.
export { computeSignature, signatureHeaders, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../lib';
