// A real HTTP ASP for sandbox use and tests: the API of ../asp-api.ts on loopback, with scenario controls and a
// per-document submission count that lets tests prove exactly-once delivery.
//
//   const sim = await createAspSimulator({ clients: [{ clientId, clientSecret }], callbackUrl, callbackSecret });
//   sim.setScenario('100987654300003', { errors: { status: 503, count: 2, retryAfterSeconds: 1 } });
//   ... sim.submissionsFor(documentId) ... await sim.stop();
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Submission } from '../asp-api';
import { logger } from '../../logger';
import { TokenIssuer, type SimClient } from './auth';
import { CallbackSender } from './callbacks';
import { Scenarios, type Scenario } from './scenarios';
import { simulatorApp } from './server';
import { DEFAULT_DELAYS, Submissions, type Delays } from './submissions';

export { aspSignature } from './callbacks';
export { buyerTrnOf, SCENARIO_HEADER, type Scenario } from './scenarios';
export type { SimClient } from './auth';
export type { Delays } from './submissions';

export interface AspSimulatorOptions {
  clients: SimClient[];
  /** Where signed status callbacks go; none are sent without it. */
  callbackUrl?: string;
  callbackSecret: string;
  /** Bearer token of the /_sim/* controls; without it they answer 404 (only /_sim/health stays open). */
  controlToken?: string | null;
  /** Milliseconds after the upload for PROCESSING, DELIVERED and REPORTED (defaults 50/100/150). */
  delays?: Partial<Delays>;
  /** Lifetime of an access token (default 3600). */
  tokenTtlSeconds?: number;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
}

export interface AspSimulator {
  /** Base URL, e.g. http://127.0.0.1:43121 (no trailing slash). */
  url: string;
  port: number;
  scenarios: Scenarios;
  setScenario(buyerTrn: string, scenario: Scenario): void;
  clearScenarios(buyerTrn?: string): void;
  /** Submissions recorded for a sender document id (accepted or refused by validation; never error-burst answers). */
  submissionsFor(documentId: string): number;
  submission(submissionId: string): Submission | undefined;
  submissionByDocumentId(documentId: string): Submission | undefined;
  /** Points callbacks elsewhere (or nowhere) from now on, e.g. once the service's port is known. */
  setCallbackUrl(url: string | undefined): void;
  /** Expires every token issued so far, to exercise the client's re-authentication. */
  expireTokens(): void;
  /** Resolves when every callback queued so far has been attempted. */
  callbacksSettled(): Promise<void>;
  stop(): Promise<void>;
}

export async function createAspSimulator(opts: AspSimulatorOptions): Promise<AspSimulator> {
  const tokens = new TokenIssuer(opts.clients, opts.tokenTtlSeconds ?? 3600);
  const scenarios = new Scenarios();
  const callbacks = new CallbackSender(opts.callbackUrl, opts.callbackSecret);
  const submissions = new Submissions({ ...DEFAULT_DELAYS, ...opts.delays }, (submission, scenario) => {
    if (!scenario.loseCallbacks) callbacks.send(submission, scenario.duplicateCallbacks ? 2 : 1);
  });

  const app = simulatorApp({ tokens, scenarios, submissions, controlToken: opts.controlToken ?? null });
  app.on('error', (err: unknown) => logger.error({ err, component: 'asp-simulator' }, 'ASP simulator: request failed'));
  const server = http.createServer(app.callback());
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://${host}:${port}`,
    port,
    scenarios,
    setScenario: (buyerTrn, scenario) => scenarios.set(buyerTrn, scenario),
    clearScenarios: (buyerTrn) => scenarios.clear(buyerTrn),
    submissionsFor: (documentId) => submissions.countFor(documentId),
    submission: (id) => submissions.get(id),
    submissionByDocumentId: (documentId) => submissions.byDocumentId(documentId),
    setCallbackUrl: (url) => {
      callbacks.url = url;
    },
    expireTokens: () => tokens.expireAll(),
    callbacksSettled: () => callbacks.drain(),
    async stop() {
      submissions.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
