// The wire contract of an accredited service provider's (ASP) submission API, as our HTTP client speaks it and
// our simulator (src/provider/simulator/) serves it. Modelled on UAE ASPs (5-corner model): submit with the
// sender's own document id (the idempotency key), statuses UPLOADED -> PROCESSING -> DELIVERED -> REPORTED or
// FAILED, answers as Message Level Status (MLS). Types only.
//
// Endpoints (JSON; every call but the token one carries `Authorization: Bearer <accessToken>`):
//   POST /oauth/token                 {clientId, clientSecret} -> 200 TokenResponse | 401
//   POST /v1/submissions              SubmitRequest -> 202 Submission | 400 | 401 | 409 DuplicateResponse
//                                     | 422 Submission (status FAILED, mls RE) | 429 / 500 / 503 (Retry-After)
//   GET  /v1/submissions/{id}         -> 200 Submission | 401 | 404
//   GET  /v1/submissions?documentId=  -> 200 { data: Submission[] } (0 or 1)
// Status callbacks: POST <callback URL> with a Submission body (event 'submission.status_changed'), signed
// `X-ASP-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.

export type AspStatus = 'UPLOADED' | 'PROCESSING' | 'DELIVERED' | 'REPORTED' | 'FAILED';

/** Message Level Status: AB accepted, AP accepted and forwarded, RE rejected. */
export interface Mls {
  code: 'AB' | 'AP' | 'RE';
  /** With RE: SV schema, BV business rule, BW business warning, FD forwarding failure. */
  reasonClass?: 'SV' | 'BV' | 'BW' | 'FD';
  /** Failing rule ids (BV/SV), e.g. ["ibr-135-ae"]. */
  ruleIds?: string[];
  /** Machine-readable reason where the ASP has one, e.g. "buyer_trn_invalid". */
  reasonCode?: string;
  message?: string;
}

export interface TokenResponse {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

export interface SubmitRequest {
  /** The sender's document id: our submission id, `<invoiceId>-<run>`. The same id again is a 409. */
  documentId: string;
  /** The PINT-AE XML, UTF-8 text. */
  xml: string;
}

export interface Submission {
  event?: 'submission.status_changed';
  /** The ASP's own id. */
  submissionId: string;
  documentId: string;
  status: AspStatus;
  history: { status: AspStatus; at: string }[];
  mls: Mls | null;
  /** The authority's acknowledgement reference, once REPORTED. */
  ackRef: string | null;
}

export interface DuplicateResponse {
  error: 'duplicate_document';
  message: string;
  submissionId: string;
}

export const ASP_SIGNATURE_HEADER = 'X-ASP-Signature';
