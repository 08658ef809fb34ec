// What the pipeline needs from an accredited service provider (ASP), whichever it is: the simulated one of
// test mode, or an HTTP client for sandbox and live. The activities receive one per mode as a dependency.
import type { AspVerdict } from '../temporal/contract';

export type HandOver = { accepted: true; submissionId: string } | { accepted: false; reason: string };

export interface DocumentToSubmit {
  invoiceId: string;
  /** The pipeline run: with the invoice id it names the submission, so a retried step never submits twice. */
  run: number;
  /** The invoice body as submitted (the simulated ASP reads its steering markers). */
  body: unknown;
}

export interface AspClient {
  /** Hands the document over; the same invoice and run again answers the first hand-over's result. */
  submit(doc: DocumentToSubmit): Promise<HandOver>;
  /** The final answer about an accepted submission, or pending. */
  poll(req: { invoiceId: string; submissionId: string; body: unknown }): Promise<AspVerdict | { submissionId: string; status: 'pending' }>;
}

/** No provider configured for a mode: submitting is a plain refusal the activity reports as non-retryable. */
export class AspUnavailableError extends Error {
  readonly code = 'provider_unavailable';
}

/** The mode has no ASP in this installation: submissions refused, polls pending. */
export function unavailableAsp(reason: string): AspClient {
  return {
    async submit() {
      throw new AspUnavailableError(reason);
    },
    async poll({ submissionId }) {
      return { submissionId, status: 'pending' };
    },
  };
}
