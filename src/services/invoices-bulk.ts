// POST /v1/partner/invoices/bulk (SPEC 4.1 rule 3): each item is its own idempotent create under
// `<batchKey>:<index>`, so resending the original batch after a partial failure replays what was done and does
// what was not; a shifted subset collides with completed items by hash mismatch.
import { validateInvoiceBody } from '../domain/invoice-schema';
import type { FieldError, InvoiceCreateBody } from '@einvoice/pint-ae';
import { hashRequest } from '../domain/request-hash';
import { ServiceError, serviceErrors } from '../domain/errors';
import { logger } from '../logger';
import { claimKeys, completeClaims, keepLeases, originKey, release, runIdempotent, storableProblem, type ErrorRenderer, type OwnRecord, type StoredResponse } from './idempotency';
import type { PartnerOwner } from '../domain/owner';
import { createInvoice, insertInvoices, launchInvoice, prepareInvoice, type PreparedInvoice } from './invoices-create';
import { mapLimited } from './map-limited';

export type BulkItemResult =
  | { index: number; ok: true; invoiceId: string; number: string; status: string; heldReason?: string; heldErrors?: FieldError[]; warnings?: unknown[]; externalRef?: string }
  | { index: number; ok: false; error: { code: string; message: string; errors?: FieldError[] }; externalRef?: string };

export interface BulkResponse {
  results: BulkItemResult[];
  summary: { total: number; ok: number; failed: number };
}

export interface BulkRequest {
  owner: PartnerOwner;
  /** Idempotency key space of the caller (partner and SME). */
  scope: string;
  batchKey: string;
  /** The request path, bound into each item's hash. */
  path: string;
  items: unknown[];
  /** The surface's wire shape of a refused item, stored under the item's key. */
  renderError: ErrorRenderer;
}

/** Items that need their own round trips run a few at a time: enough to overlap them, few enough to stay fair. */
const ITEM_CONCURRENCY = 16;

/** One item, checked for shape and fingerprinted. */
interface Item {
  index: number;
  raw: unknown;
  value: InvoiceCreateBody | null;
  errors: FieldError[];
  ref: { externalRef?: string };
  hash: string;
  numberKey: string | null;
}

type Outcome = { result: BulkItemResult; replayed: boolean };

/**
 * Most items of a batch are new: their keys are claimed, their invoices inserted and their keys completed with one
 * write each for the whole batch (runBatch). Items whose key is already taken (a resent batch) and items that
 * repeat an earlier item's number take the one-at-a-time path afterwards, so the first of two with one number
 * wins it, every time.
 */
export async function submitBulk(req: BulkRequest): Promise<{ response: BulkResponse; allReplayed: boolean }> {
  const items = req.items.map((raw, index) => checkItem(req, raw, index));
  const outcomes: Outcome[] = new Array(items.length);
  const seenNumbers = new Set<string>();
  const batch: Item[] = [];
  const repeats: Item[] = [];
  for (const item of items) {
    if (!item.value) outcomes[item.index] = { result: invalid(item), replayed: false };
    else if (item.numberKey && seenNumbers.has(item.numberKey)) repeats.push(item);
    else batch.push(item), item.numberKey && seenNumbers.add(item.numberKey);
  }
  const taken = await runBatch(req, batch, outcomes);
  await mapLimited(taken, ITEM_CONCURRENCY, async (item) => (outcomes[item.index] = await submitItem(req, item)));
  // Repeats of one number in index order; different numbers side by side.
  const byNumber = new Map<string, Item[]>();
  for (const item of repeats) byNumber.set(item.numberKey!, [...(byNumber.get(item.numberKey!) ?? []), item]);
  await mapLimited([...byNumber.values()], ITEM_CONCURRENCY, async (group) => {
    for (const item of group) outcomes[item.index] = await submitItem(req, item);
  });

  const results = outcomes.map((o) => o.result);
  const mismatched = results.filter((r) => !r.ok && r.error.code === 'idempotency_key_mismatch');
  if (mismatched.length === results.length) {
    // A different batch under a used key (SPEC 4.1 rule 3): nothing was done, so answer as any reused key does.
    throw serviceErrors.conflict(
      'idempotency_key_mismatch',
      `Idempotency-Key "${req.batchKey}" was already used for a different batch: items ${mismatched.map((r) => r.index).join(', ')} differ from the items stored under the same index. To recover a partial failure resend the original body unchanged; for new invoices use a fresh key.`,
    );
  }
  const ok = results.filter((r) => r.ok).length;
  return { response: { results, summary: { total: results.length, ok, failed: results.length - ok } }, allReplayed: outcomes.every((o) => o.replayed) };
}

function checkItem(req: BulkRequest, raw: unknown, index: number): Item {
  const externalRef = typeof (raw as { externalRef?: unknown })?.externalRef === 'string' ? (raw as { externalRef: string }).externalRef : undefined;
  const { value, errors } = validateInvoiceBody(raw, { bulkItem: true });
  return { index, raw, value: value ? withoutExternalRef(value) : null, errors, ref: externalRef !== undefined ? { externalRef } : {}, hash: value ? hashRequest('POST', `${req.path}#item`, raw) : '', numberKey: numberKey(raw) };
}

/** externalRef is the item's, not the invoice body's: it is stored beside the body. */
function withoutExternalRef(value: unknown): InvoiceCreateBody {
  const { externalRef: _ref, ...body } = value as InvoiceCreateBody & { externalRef?: string };
  return body as InvoiceCreateBody;
}

function invalid(item: Item): BulkItemResult {
  const message = item.errors.map((e) => `${e.path || 'item'}: ${e.message}`).join('; ');
  return { index: item.index, ok: false, error: { code: 'validation_failed', message, errors: item.errors }, ...item.ref };
}

/**
 * The batch path: claim every key in one insert, create every claimed invoice in one insert, start their
 * pipelines, store every answer in one write. Returns the items whose key was already taken.
 */
async function runBatch(req: BulkRequest, batch: Item[], outcomes: Outcome[]): Promise<Item[]> {
  const claims = await claimKeys(
    req.scope,
    batch.map((item) => ({ key: bulkItemKey(req.batchKey, item.index), requestHash: item.hash })),
  );
  const claimed = batch.flatMap((item, i) => (claims[i] ? [{ item, mine: claims[i] }] : []));
  const renewing = keepLeases(claimed.map((c) => c.mine));
  try {
    await createClaimed(req, claimed, outcomes);
  } finally {
    renewing.stop();
  }
  return batch.filter((_, i) => !claims[i]);
}

/** Creates the invoices of the claimed items (one insert), starts their pipelines, stores their answers (one write). */
async function createClaimed(req: BulkRequest, claimed: { item: Item; mine: OwnRecord }[], outcomes: Outcome[]): Promise<void> {
  const answers = new Map<Item, StoredResponse>();
  const fail = async (item: Item, mine: OwnRecord, err: unknown) => {
    const problem = storableProblem(err, req.renderError);
    if (problem) return void answers.set(item, problem);
    await release(mine);
    outcomes[item.index] = { result: unexpectedFailure(item, err), replayed: false };
  };

  const prepared: { item: Item; mine: OwnRecord; invoice: PreparedInvoice }[] = [];
  for (const { item, mine } of claimed) {
    try {
      const origin = originKey(req.scope, { key: bulkItemKey(req.batchKey, item.index), requestHash: item.hash });
      prepared.push({ item, mine, invoice: prepareInvoice(req.owner, item.value!, { externalRef: item.ref.externalRef, origin }) });
    } catch (err) {
      await fail(item, mine, err);
    }
  }
  let refusals: (ServiceError | null)[] | null = null;
  try {
    refusals = await insertInvoices(prepared.map((p) => p.invoice));
  } catch (err) {
    await Promise.all(prepared.map((p) => fail(p.item, p.mine, err)));
  }
  const inserted = refusals ? prepared.filter((_, i) => refusals![i] === null) : [];
  refusals?.forEach((refusal, i) => refusal && answers.set(prepared[i].item, storableProblem(refusal, req.renderError)!));
  await mapLimited(inserted, ITEM_CONCURRENCY, async ({ item, mine, invoice }) => {
    try {
      answers.set(item, { status: 201, body: JSON.stringify(await launchInvoice(invoice)), contentType: JSON_CONTENT_TYPE });
    } catch (err) {
      await fail(item, mine, err);
    }
  });

  const done = claimed.filter(({ item }) => answers.has(item)).map(({ item, mine }) => ({ mine, response: answers.get(item)! }));
  try {
    await completeClaims(done);
  } catch (err) {
    // The invoices exist and these answers are true; the keys stay in flight until their lease ends.
    logger.error({ err, batchKey: req.batchKey }, 'bulk: storing the item answers failed');
  }
  for (const { item } of claimed) {
    const answer = answers.get(item);
    if (answer) outcomes[item.index] = { result: fromStored(item.index, answer, item.ref), replayed: false };
  }
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** SPEC 4.1 rule 3: each bulk item runs under the batch key, a colon and its index. */
function bulkItemKey(batchKey: string, index: number): string {
  return `${batchKey}:${index}`;
}

function unexpectedFailure(item: Item, err: unknown): BulkItemResult {
  logger.error({ err, index: item.index }, 'bulk item failed unexpectedly');
  return { index: item.index, ok: false, error: { code: 'internal_error', message: 'This item failed on our side; resend the batch unchanged with the same Idempotency-Key to retry it.' }, ...item.ref };
}

function numberKey(item: unknown): string | null {
  const { number, issueDate } = (item ?? {}) as { number?: unknown; issueDate?: unknown };
  return typeof number === 'string' ? `${typeof issueDate === 'string' ? issueDate.slice(0, 4) : ''}:${number.trim()}` : null;
}

/** One item on its own: replays a completed key, refuses a mismatched or busy one, or creates the invoice. */
async function submitItem(req: BulkRequest, item: Item): Promise<Outcome> {
  try {
    const key = bulkItemKey(req.batchKey, item.index);
    const stored = await runIdempotent({
      scope: req.scope,
      key,
      requestHash: item.hash,
      renderError: req.renderError,
      execute: async () => {
        const queued = await createInvoice(req.owner, item.value!, { externalRef: item.ref.externalRef, origin: originKey(req.scope, { key, requestHash: item.hash }) });
        return { status: 201, body: JSON.stringify(queued), contentType: JSON_CONTENT_TYPE };
      },
    });
    return { result: fromStored(item.index, stored, item.ref), replayed: stored.replayed };
  } catch (err) {
    if (err instanceof ServiceError) return { result: { index: item.index, ok: false, error: { code: err.code, message: err.detail ?? err.title }, ...item.ref }, replayed: false };
    return { result: unexpectedFailure(item, err), replayed: false };
  }
}

function fromStored(index: number, stored: StoredResponse, ref: { externalRef?: string }): BulkItemResult {
  const body = JSON.parse(stored.body) as Record<string, unknown>;
  if (stored.status === 201) {
    const { invoiceId, number, status, heldReason, heldErrors, warnings } = body as { invoiceId: string; number: string; status: string; heldReason?: string; heldErrors?: FieldError[]; warnings?: unknown[] };
    return { index, ok: true, invoiceId, number, status, ...(heldReason ? { heldReason, heldErrors } : {}), ...(warnings ? { warnings } : {}), ...ref };
  }
  const errors = (body.meta as { errors?: FieldError[] } | undefined)?.errors;
  return { index, ok: false, error: { code: String(body.code ?? 'error'), message: String(body.detail ?? body.humanMessage ?? body.title ?? `status ${stored.status}`), ...(Array.isArray(errors) ? { errors } : {}) }, ...ref };
}
