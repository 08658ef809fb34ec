import { proxyLocalActivities } from '@temporalio/workflow';
import type { LocalActivityOptions } from '@temporalio/common';
import type { Activities } from '../activities';

// The invoice workflow's steps and their timeouts and retries. They are local activities: each takes milliseconds,
// and as a normal activity would cost a schedule/start/complete round trip and a workflow task through the
// Temporal server. So the steps up to the hand-over run in one workflow task, each one marker in the history
// (named, with its result: the Web UI lists them as local activities).

const STATUS_WRITES: LocalActivityOptions = {
  // quick, and worth retrying through a database blip
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
};
const VALIDATE: LocalActivityOptions = {
  // render and native rules take milliseconds; the official Schematron has its own budget
  // (PINT_AE_SCHEMATRON_BUDGET_MS, keep it well under this timeout)
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
};
const ASP: LocalActivityOptions = {
  // talking to the ASP: transport failures are retried with backoff for up to a day before the invoice is rejected
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '24 hours',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
};

export const { advanceInvoiceStatus, beginInvoiceRun, reserveDeliveryCredit } = proxyLocalActivities<Activities>(STATUS_WRITES);
export const { prepareInvoiceDocument, validateInvoiceDocument } = proxyLocalActivities<Activities>(VALIDATE);
export const { deliverInvoice, pollAspVerdict, confirmAspVerdict } = proxyLocalActivities<Activities>(ASP);
