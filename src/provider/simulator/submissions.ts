// The simulated ASP's submissions: one per sender document id (the idempotency key), moved
// UPLOADED -> PROCESSING -> DELIVERED -> REPORTED (or FAILED) by timers, each change announced to a listener
// (the callback sender). Kept in memory: a simulator restart forgets everything, as a fresh sandbox would.
import { randomBytes, randomUUID } from 'node:crypto';
import type { AspStatus, Mls, Submission } from '../asp-api';
import type { Scenario } from './scenarios';

export interface Delays {
  /** Milliseconds after the upload at which the submission reaches each status. */
  processingMs: number;
  deliveredMs: number;
  reportedMs: number;
}

export const DEFAULT_DELAYS: Delays = { processingMs: 50, deliveredMs: 100, reportedMs: 150 };

/** Called on every status change after the upload (the upload itself is the synchronous 202/422 answer). */
export type StatusListener = (submission: Submission, scenario: Scenario) => void;

export class Submissions {
  private readonly byId = new Map<string, Submission>();
  private readonly idByDocument = new Map<string, string>();
  /** Submissions recorded per document id: the exactly-once evidence. Never decremented. */
  private readonly counts = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly delays: Delays,
    private readonly onChange: StatusListener,
  ) {}

  byDocumentId(documentId: string): Submission | undefined {
    const id = this.idByDocument.get(documentId);
    return id ? this.get(id) : undefined;
  }

  /** A copy, so callers (JSON answers, callbacks) never see a later change half-way. */
  get(submissionId: string): Submission | undefined {
    const s = this.byId.get(submissionId);
    return s && structuredClone(s);
  }

  countFor(documentId: string): number {
    return this.counts.get(documentId) ?? 0;
  }

  /** Records a valid document as UPLOADED (MLS AB) and starts its progression. */
  accept(documentId: string, scenario: Scenario): Submission {
    const s = this.record(documentId, 'UPLOADED', { code: 'AB' });
    this.progress(s, scenario);
    return structuredClone(s);
  }

  /** Records a document refused by validation: FAILED at once with MLS RE (the 422 answer). */
  refuse(documentId: string, mls: Mls): Submission {
    return structuredClone(this.record(documentId, 'FAILED', mls));
  }

  /** Stops every pending transition (simulator stop). */
  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private record(documentId: string, status: AspStatus, mls: Mls): Submission {
    const s: Submission = { submissionId: `sub_${randomUUID()}`, documentId, status, history: [{ status, at: new Date().toISOString() }], mls, ackRef: null };
    this.byId.set(s.submissionId, s);
    this.idByDocument.set(documentId, s.submissionId);
    this.counts.set(documentId, this.countFor(documentId) + 1);
    return s;
  }

  private progress(s: Submission, scenario: Scenario): void {
    // Each step at its own offset, never before the previous one (equal offsets fire in scheduling order).
    const processingMs = this.delays.processingMs;
    const deliveredMs = Math.max(this.delays.deliveredMs, processingMs);
    const reportedMs = Math.max(this.delays.reportedMs, deliveredMs);
    this.at(processingMs, () => this.move(s, scenario, 'PROCESSING', { code: 'AB' }));
    if (scenario.reject) {
      const r = scenario.reject;
      const mls: Mls = { code: 'RE', reasonClass: r.reasonClass, ruleIds: r.ruleIds ?? [], ...(r.reasonCode ? { reasonCode: r.reasonCode } : {}), message: r.message };
      this.at(deliveredMs, () => this.move(s, scenario, 'FAILED', mls));
      return;
    }
    this.at(deliveredMs, () => this.move(s, scenario, 'DELIVERED', { code: 'AP' }));
    if (scenario.neverReport) return;
    this.at(reportedMs, () => this.move(s, scenario, 'REPORTED', { code: 'AP' }, `FTA-${randomBytes(6).toString('hex').toUpperCase()}`));
  }

  /** Runs `step` `ms` after now; timers are unref'd so a forgotten simulator never holds the process open. */
  private at(ms: number, step: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      step();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private move(s: Submission, scenario: Scenario, status: AspStatus, mls: Mls, ackRef: string | null = null): void {
    if (ORDER[status] <= ORDER[s.status]) return; // never backwards, whatever the timers do
    s.status = status;
    s.mls = mls;
    if (ackRef) s.ackRef = ackRef;
    s.history.push({ status, at: new Date().toISOString() });
    this.onChange(structuredClone(s), scenario);
  }
}

const ORDER: Record<AspStatus, number> = { UPLOADED: 0, PROCESSING: 1, DELIVERED: 2, REPORTED: 3, FAILED: 3 };
