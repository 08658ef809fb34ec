// What the simulated ASP does with one submission, so tests (and sandbox users) can try every path of the
// client: a rejection with a chosen reason, bursts of 5xx/429, slow answers, lost or doubled callbacks, and a
// document that is delivered but never reported. Set per buyer TRN (it lasts until cleared) or per request
// with the X-Sim-Scenario header (JSON), which replaces the buyer's scenario for that request.
import type { Mls } from '../asp-api';
import { ServiceError } from '../../domain/errors';

export const SCENARIO_HEADER = 'X-Sim-Scenario';

export interface Scenario {
  /** FAILED after PROCESSING with MLS RE and this reason (the XML itself was valid). */
  reject?: { reasonClass: NonNullable<Mls['reasonClass']>; ruleIds?: string[]; reasonCode?: string; message: string };
  /** The first `count` submits answer `status` (with Retry-After when given) and are not recorded. */
  errors?: { status: 500 | 503 | 429; count: number; retryAfterSeconds?: number };
  /** The submit answer is sent this late; the submission is recorded before the wait, like a slow real server. */
  slowMs?: number;
  /** No status callbacks at all: the client must poll. */
  loseCallbacks?: boolean;
  /** Every status callback is sent twice, byte for byte. */
  duplicateCallbacks?: boolean;
  /** Stops at DELIVERED: accepted and forwarded, never reported to the authority. */
  neverReport?: boolean;
}

/** The kind of a refused scenario (the simulator answers 400 invalid_request naming the field). */
export const INVALID_SCENARIO = 'invalid_scenario';

export function scenarioError(message: string): ServiceError {
  return new ServiceError(400, INVALID_SCENARIO, 'Invalid scenario', message);
}

const REASON_CLASSES = ['SV', 'BV', 'BW', 'FD'];
const ERROR_STATUSES = [500, 503, 429];

/** Checks an untrusted scenario (admin body or header) and returns it typed; the ServiceError invalid_scenario names the field. */
export function parseScenario(input: unknown): Scenario {
  if (!isObject(input)) throw scenarioError('scenario must be a JSON object');
  const s = input as Scenario;
  if (s.reject !== undefined) {
    const r = s.reject;
    if (!isObject(r)) throw scenarioError('reject must be an object');
    if (!REASON_CLASSES.includes(r.reasonClass)) throw scenarioError(`reject.reasonClass must be one of ${REASON_CLASSES.join(', ')}`);
    if (typeof r.message !== 'string' || !r.message) throw scenarioError('reject.message must be a non-empty string');
    if (r.ruleIds !== undefined && !(Array.isArray(r.ruleIds) && r.ruleIds.every((id) => typeof id === 'string'))) throw scenarioError('reject.ruleIds must be an array of strings');
    if (r.reasonCode !== undefined && typeof r.reasonCode !== 'string') throw scenarioError('reject.reasonCode must be a string');
  }
  if (s.errors !== undefined) {
    const e = s.errors;
    if (!isObject(e)) throw scenarioError('errors must be an object');
    if (!ERROR_STATUSES.includes(e.status)) throw scenarioError(`errors.status must be one of ${ERROR_STATUSES.join(', ')}`);
    if (!Number.isInteger(e.count) || e.count < 0) throw scenarioError('errors.count must be a non-negative integer');
    if (e.retryAfterSeconds !== undefined && !(Number.isInteger(e.retryAfterSeconds) && e.retryAfterSeconds >= 0)) throw scenarioError('errors.retryAfterSeconds must be a non-negative integer');
  }
  if (s.slowMs !== undefined && !(Number.isFinite(s.slowMs) && s.slowMs >= 0)) throw scenarioError('slowMs must be a non-negative number');
  for (const flag of ['loseCallbacks', 'duplicateCallbacks', 'neverReport'] as const) {
    if (s[flag] !== undefined && typeof s[flag] !== 'boolean') throw scenarioError(`${flag} must be a boolean`);
  }
  return s;
}

/** The buyer's TRN: its VAT CompanyID, else its EndpointID. A regex suffices: the simulator only steers by it. */
export function buyerTrnOf(xml: string): string | null {
  const party = /<cac:AccountingCustomerParty>([\s\S]*?)<\/cac:AccountingCustomerParty>/.exec(xml)?.[1];
  if (!party) return null;
  const taxScheme = /<cac:PartyTaxScheme>[\s\S]*?<cbc:CompanyID[^>]*>([^<]+)<\/cbc:CompanyID>/.exec(party)?.[1];
  const endpoint = /<cbc:EndpointID[^>]*>([^<]+)<\/cbc:EndpointID>/.exec(party)?.[1];
  return (taxScheme ?? endpoint)?.trim() || null;
}

/** Error bursts need a memory: how many of a burst have been served, per buyer scenario and per header. */
export class Scenarios {
  private readonly byBuyer = new Map<string, { scenario: Scenario; errorsServed: number }>();
  /** Header bursts count per document id, so "the first N submits" means the first N tries of that document. */
  private readonly headerErrorsServed = new Map<string, number>();

  /** Sets (or replaces, restarting its error burst) the scenario of one buyer TRN. */
  set(buyerTrn: string, scenario: Scenario): void {
    this.byBuyer.set(buyerTrn, { scenario: parseScenario(scenario), errorsServed: 0 });
  }

  get(buyerTrn: string): Scenario | undefined {
    return this.byBuyer.get(buyerTrn)?.scenario;
  }

  clear(buyerTrn?: string): void {
    if (buyerTrn === undefined) {
      this.byBuyer.clear();
      this.headerErrorsServed.clear();
    } else this.byBuyer.delete(buyerTrn);
  }

  /** The scenario of one submit: the header's when given, else the buyer's, else the plain path. */
  resolve(header: Scenario | null, buyerTrn: string | null): Scenario {
    return header ?? (buyerTrn ? this.get(buyerTrn) : undefined) ?? {};
  }

  /** The error this submit answers with, if its burst is not spent yet (and counts it as served). */
  takeError(header: Scenario | null, buyerTrn: string | null, documentId: string): Scenario['errors'] | null {
    if (header) {
      if (!header.errors) return null;
      const key = `${documentId}\n${JSON.stringify(header.errors)}`;
      const served = this.headerErrorsServed.get(key) ?? 0;
      if (served >= header.errors.count) return null;
      this.headerErrorsServed.set(key, served + 1);
      return header.errors;
    }
    const entry = buyerTrn ? this.byBuyer.get(buyerTrn) : undefined;
    if (!entry?.scenario.errors || entry.errorsServed >= entry.scenario.errors.count) return null;
    entry.errorsServed++;
    return entry.scenario.errors;
  }
}

function isObject(v: unknown): v is Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
