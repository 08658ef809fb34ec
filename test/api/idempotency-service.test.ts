import { problemResponse } from '../../src/http/problem';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { IdempotencyRecord } from '../../src/db/models';
import { hashRequest } from '../../src/domain/request-hash';
import { ServiceError, serviceErrors } from '../../src/domain/errors';
import { purgeExpiredIdempotencyRecords, runIdempotent, type StoredResponse } from '../../src/services/idempotency';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An execute that counts its runs and answers a fresh id each time, so a replay is recognisable. */
function counter(delayMs = 0) {
  const state = { runs: 0 };
  const execute = async (): Promise<StoredResponse> => {
    state.runs++;
    if (delayMs) await sleep(delayMs);
    return { status: 201, body: JSON.stringify({ id: randomUUID(), run: state.runs }), contentType: 'application/json; charset=utf-8' };
  };
  return { state, execute };
}

async function expectProblem(promise: Promise<unknown>, status: number, code: string): Promise<ServiceError> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(ServiceError);
    expect((err as ServiceError).status).to.equal(status);
    expect((err as ServiceError).code).to.equal(code);
    return err as ServiceError;
  }
  throw new Error(`expected ${status} ${code}`);
}

describe('runIdempotent (SPEC 5.3)', () => {
  const scope = () => `test:${randomUUID()}`;

  it('executes once and replays the stored response byte for byte', async () => {
    const s = scope();
    const { state, execute } = counter();
    const first = await runIdempotent({ renderError: problemResponse, scope: s, key: 'k1', requestHash: 'h', execute });
    const again = await runIdempotent({ renderError: problemResponse, scope: s, key: 'k1', requestHash: 'h', execute });
    expect(state.runs).to.equal(1);
    expect(first.replayed).to.equal(false);
    expect(again.replayed).to.equal(true);
    expect(again.body).to.equal(first.body);
    expect(again.status).to.equal(201);
    expect(again.contentType).to.equal(first.contentType);
  });

  it('409 idempotency_key_mismatch for the same key with another request hash', async () => {
    const s = scope();
    const { execute } = counter();
    await runIdempotent({ renderError: problemResponse, scope: s, key: 'k', requestHash: 'h1', execute });
    await expectProblem(runIdempotent({ renderError: problemResponse, scope: s, key: 'k', requestHash: 'h2', execute }), 409, 'idempotency_key_mismatch');
  });

  it('keys are per scope: the same key in another scope executes on its own', async () => {
    const { state, execute } = counter();
    await runIdempotent({ renderError: problemResponse, scope: scope(), key: 'shared', requestHash: 'h', execute });
    const other = await runIdempotent({ renderError: problemResponse, scope: scope(), key: 'shared', requestHash: 'h', execute });
    expect(other.replayed).to.equal(false);
    expect(state.runs).to.equal(2);
  });

  it('409 idempotency_in_progress while the first request is still executing, then replays', async () => {
    const s = scope();
    const { state, execute } = counter(400);
    const first = runIdempotent({ renderError: problemResponse, scope: s, key: 'slow', requestHash: 'h', execute });
    await sleep(100);
    await expectProblem(runIdempotent({ renderError: problemResponse, scope: s, key: 'slow', requestHash: 'h', execute }), 409, 'idempotency_in_progress');
    const done = await first;
    const replay = await runIdempotent({ renderError: problemResponse, scope: s, key: 'slow', requestHash: 'h', execute });
    expect(replay.body).to.equal(done.body);
    expect(state.runs).to.equal(1);
  });

  it('of many simultaneous requests with one key exactly one executes', async () => {
    const s = scope();
    const { state, execute } = counter(200);
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => runIdempotent({ renderError: problemResponse, scope: s, key: 'race', requestHash: 'h', execute })));
    expect(state.runs).to.equal(1);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).to.have.length(1);
    expect(refused).to.have.length(7);
    for (const r of refused) expect((r.reason as ServiceError).code).to.equal('idempotency_in_progress');
  });

  it('stores a client-error problem raised by the handler and replays it', async () => {
    const s = scope();
    let runs = 0;
    const execute = async (): Promise<StoredResponse> => {
      runs++;
      throw serviceErrors.notFound('No such invoice.');
    };
    const first = await runIdempotent({ renderError: problemResponse, scope: s, key: 'nf', requestHash: 'h', execute });
    const again = await runIdempotent({ renderError: problemResponse, scope: s, key: 'nf', requestHash: 'h', execute });
    expect(runs).to.equal(1);
    expect(first.status).to.equal(404);
    expect(first.contentType).to.equal('application/problem+json');
    expect(JSON.parse(first.body)).to.include({ status: 404, code: 'not_found' });
    expect(again).to.deep.equal({ ...first, replayed: true });
  });

  it('does not store a server error, validation failure or 429: the same key can be retried', async () => {
    for (const failure of [new Error('boom'), serviceErrors.validation([{ code: 'required', path: 'name', message: 'name is required' }]), new ServiceError(429, 'rate_limited', 'Too many requests')]) {
      const s = scope();
      const { state, execute } = counter();
      let fail = true;
      const flaky = async () => {
        if (fail) {
          fail = false;
          throw failure;
        }
        return execute();
      };
      let thrown: unknown;
      await runIdempotent({ renderError: problemResponse, scope: s, key: 'k', requestHash: 'h', execute: flaky }).catch((e) => (thrown = e));
      expect(thrown).to.equal(failure);
      expect(await IdempotencyRecord.countDocuments({ scope: s })).to.equal(0);
      const retried = await runIdempotent({ renderError: problemResponse, scope: s, key: 'k', requestHash: 'h', execute: flaky });
      expect(retried.replayed).to.equal(false);
      expect(state.runs).to.equal(1);
    }
  });

  it('treats an expired record as absent, and the purge removes it', async () => {
    const s = scope();
    const { state, execute } = counter();
    await runIdempotent({ renderError: problemResponse, scope: s, key: 'old', requestHash: 'h1', execute });
    await IdempotencyRecord.updateOne({ scope: s, key: 'old' }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    // Even another body is fine: the old use of the key is forgotten.
    const fresh = await runIdempotent({ renderError: problemResponse, scope: s, key: 'old', requestHash: 'h2', execute });
    expect(fresh.replayed).to.equal(false);
    expect(state.runs).to.equal(2);

    await runIdempotent({ renderError: problemResponse, scope: s, key: 'gone', requestHash: 'h', execute });
    await IdempotencyRecord.updateOne({ scope: s, key: 'gone' }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const purged = await purgeExpiredIdempotencyRecords();
    expect(purged).to.be.at.least(1);
    expect(await IdempotencyRecord.countDocuments({ scope: s, key: 'gone' })).to.equal(0);
    expect(await IdempotencyRecord.countDocuments({ scope: s, key: 'old' })).to.equal(1);
  });

  it('keeps records for 24 hours', async () => {
    const s = scope();
    await runIdempotent({ renderError: problemResponse, scope: s, key: 'k', requestHash: 'h', execute: counter().execute });
    const record = await IdempotencyRecord.findOne({ scope: s, key: 'k' }).lean();
    const ttl = record!.expiresAt.getTime() - Date.now();
    expect(ttl).to.be.within(24 * 3600_000 - 60_000, 24 * 3600_000);
  });

  it('takes over an in-flight record whose process died (lease expired)', async () => {
    const s = scope();
    await IdempotencyRecord.create({ scope: s, key: 'dead', requestHash: 'h', state: 'in_flight', owner: 'crashed', lockedUntil: new Date(Date.now() - 1000), expiresAt: new Date(Date.now() + 3600_000) });
    const { state, execute } = counter();
    const res = await runIdempotent({ renderError: problemResponse, scope: s, key: 'dead', requestHash: 'h', execute });
    expect(res.replayed).to.equal(false);
    expect(state.runs).to.equal(1);
  });

  describe('bulk items keyed <batchKey>:<index> (SPEC 4.1 rule 3)', () => {
    // How the bulk endpoint uses it: each item runs under its own key with its own hash.
    const items = [{ number: 'INV-1' }, { number: 'INV-2' }, { number: 'INV-3' }];
    const itemHash = (item: unknown) => hashRequest('POST', '/v1/partner/invoices/bulk#item', item);

    async function sendBatch(s: string, batchKey: string, batch: unknown[], execute: () => Promise<StoredResponse>) {
      return Promise.allSettled(batch.map((item, index) => runIdempotent({ renderError: problemResponse, scope: s, key: `${batchKey}:${index}`, requestHash: itemHash(item), execute })));
    }

    it('resending the original batch replays every item; a shifted subset collides with 409 by hash mismatch', async () => {
      const s = scope();
      const { state, execute } = counter();
      const first = await sendBatch(s, 'batch-1', items, execute);
      expect(state.runs).to.equal(3);
      const resent = await sendBatch(s, 'batch-1', items, execute);
      expect(state.runs).to.equal(3);
      resent.forEach((r, i) => {
        expect(r.status).to.equal('fulfilled');
        const v = (r as PromiseFulfilledResult<{ body: string; replayed: boolean }>).value;
        expect(v.replayed).to.equal(true);
        expect(v.body).to.equal((first[i] as PromiseFulfilledResult<{ body: string }>).value.body);
      });
      // The client resends only items 2 and 3: they land at indexes 0 and 1, whose stored items differ.
      const subset = await sendBatch(s, 'batch-1', items.slice(1), execute);
      for (const r of subset) {
        expect(r.status).to.equal('rejected');
        expect(((r as PromiseRejectedResult).reason as ServiceError).code).to.equal('idempotency_key_mismatch');
      }
      expect(state.runs).to.equal(3);
    });

    it('after a partial failure, resending the batch executes only the failed item', async () => {
      const s = scope();
      let runs = 0;
      let failSecond = true;
      const execute = (index: number) => async (): Promise<StoredResponse> => {
        runs++;
        if (index === 1 && failSecond) {
          failSecond = false;
          throw new Error('temporal unavailable');
        }
        return { status: 201, body: JSON.stringify({ index, id: randomUUID() }), contentType: 'application/json' };
      };
      const run = () => Promise.allSettled(items.map((item, index) => runIdempotent({ renderError: problemResponse, scope: s, key: `b:${index}`, requestHash: itemHash(item), execute: execute(index) })));
      const first = await run();
      expect(first.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
      const second = await run();
      expect(second.map((r) => r.status)).to.deep.equal(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(second.map((r) => (r as PromiseFulfilledResult<{ replayed: boolean }>).value.replayed)).to.deep.equal([true, false, true]);
      expect(runs).to.equal(4);
    });
  });
});

describe('hashRequest', () => {
  it('ignores object key order but not values, method or path', () => {
    const a = hashRequest('POST', '/v1/x', { a: 1, b: { c: [1, 2], d: 'x' } });
    expect(hashRequest('post', '/v1/x', { b: { d: 'x', c: [1, 2] }, a: 1 })).to.equal(a);
    expect(hashRequest('POST', '/v1/x', { a: 1, b: { c: [2, 1], d: 'x' } })).not.to.equal(a);
    expect(hashRequest('POST', '/v1/y', { a: 1, b: { c: [1, 2], d: 'x' } })).not.to.equal(a);
    expect(hashRequest('PUT', '/v1/x', { a: 1, b: { c: [1, 2], d: 'x' } })).not.to.equal(a);
  });

  it('treats no body and an empty object alike', () => {
    expect(hashRequest('POST', '/p', undefined)).to.equal(hashRequest('POST', '/p', {}));
  });
});
