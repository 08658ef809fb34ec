// The integrators' exports, for the service's own TypeScript (tests import '../../src'). The package's `main` is
// lib/index.js (plain JavaScript, no build step), which implements them; src/webhooks/{sign,verify}.ts re-export it.
export { verifyWebhook, type VerifyResult, type VerifyOptions, type HeaderBag } from './webhooks/verify';
export { computeSignature, signatureHeaders, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './webhooks/sign';
export { STATUS_CHANGED_EVENT, type StatusChangedEvent } from './webhooks/event';
