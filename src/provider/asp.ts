// What the pipeline needs from an accredited service provider (ASP), whichever it is: the simulated one of
// test mode, or an HTTP client for sandbox and live. The activities receive one per mode as a dependency.
import { ServiceError } from '../domain/errors';
import type { AspVerdict } from '../temporal/contract';
import type { Submission } from './asp-api';

/** The ASP's answer to a submission; `answer` is its raw reply, kept as evidence. */
export type HandOver =
  | { accepted: true; submissionId: string; documentId?: string; answer?: Submission }
  | { accepted: false; reason: string; answer?: Submission };

export interface DocumentToSubmit {
  invoiceId: string;
  /** The pipeline run: with the invoice id it names the submission, so a retried step never submits twice. */
  run: number;
  /** The invoice body as submitted (the simulated ASP reads its steering markers). */
  body: unknown;
  /** The PINT-AE document. */
  xml: string;
}

export interface AspClient {
  /** Hands the document over; the same invoice and run again answers the first hand-over's result. */
  submit(doc: DocumentToSubmit): Promise<HandOver>;
  /** The final answer about an accepted submission, or pending. */
  poll(req: { invoiceId: string; submissionId: string; body: unknown }): Promise<(AspVerdict | { submissionId: string; status: 'pending' }) & { answer?: Submission }>;
  /**
   * true: this ASP's every verdict is in the evidence before it is announced, and its poll decides on the spot (the
   * in-process simulation of test mode). A verdict signal the evidence does not support is then refused without
   * polling, which would turn a forged signal into an early verdict. Otherwise (an ASP over HTTP) it is asked.
   */
  readonly verdictsInEvidence?: boolean;
}

/**
 * The ASP's failures, as the one ServiceError: its code is the kind that the activity's Temporal failure, the
 * metrics and the logs name; `retryable` tells the activity's retry whether to come back.
 */
export const aspErrors = {
  /** No provider configured for a mode: a plain refusal, not retried. */
  unavailable: (reason: string) => new ServiceError(503, 'provider_unavailable', 'Provider unavailable', reason),
  /** The ASP could not be reached or asked us to come back (network, timeout, 5xx, 429): try again later. */
  retryable: (message: string, retryAfterMs: number | null = null) =>
    new ServiceError(503, 'provider_unavailable_for_now', 'Provider unavailable for now', message, undefined, {}, { retryable: true, ...(retryAfterMs !== null ? { retryAfterMs } : {}) }),
  /** A refusal that resending cannot fix (400, 403, 404 on submit; our credentials): the invoice is rejected with it. */
  requestRefused: (message: string) => new ServiceError(502, 'provider_request_refused', 'Provider refused the request', message),
};

/** The mode has no ASP in this installation: submissions refused, polls pending. */
export function unavailableAsp(reason: string): AspClient {
  return {
    async submit() {
      throw aspErrors.unavailable(reason);
    },
    async poll({ submissionId }) {
      return { submissionId, status: 'pending' };
    },
  };
}
