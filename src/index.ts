// Package entry for integrators: the receiver-side webhook helpers only (no database or Temporal code).
export { verifyWebhook, type VerifyResult, type VerifyOptions, type HeaderBag } from './webhooks/verify';
export { computeSignature, signatureHeaders, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './webhooks/sign';
export { STATUS_CHANGED_EVENT, type StatusChangedEvent } from './webhooks/event';
