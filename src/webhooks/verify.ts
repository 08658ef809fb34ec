// Receiver-side check of an invoice.status_changed webhook, exported from the package for integrators.
// It returns a result instead of throwing, so a receiver answers 400 on `ok: false` without try/catch.
// The implementation is lib/index.js (plain JavaScript, the package's `main`, usable without a build or tsx);
// this module re-exports it for the service's own code and tests.
export { verifyWebhook, type VerifyResult, type VerifyOptions, type HeaderBag } from '../../lib';
