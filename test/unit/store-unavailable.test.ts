import { expect } from 'chai';
import { MongoBulkWriteError, MongoNetworkError, MongoServerError } from 'mongodb';
import { isStoreUnavailable } from '../../src/http/store-unavailable';

describe('isStoreUnavailable: which driver errors mean "the store is away" (503, not 500)', () => {
  it('server selection, network errors, and a write batch cut by a lost connection', () => {
    // (the driver builds this one from a topology description; its name is what counts)
    expect(isStoreUnavailable(Object.assign(new Error('Server selection timed out after 10000 ms'), { name: 'MongoServerSelectionError' }))).to.equal(true);
    expect(isStoreUnavailable(new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017'))).to.equal(true);
    const cut = new MongoBulkWriteError({ message: 'read ECONNRESET', code: undefined, writeErrors: [] } as never, { insertedCount: 0 } as never);
    expect(cut.name).to.equal('MongoBulkWriteError');
    expect(isStoreUnavailable(cut)).to.equal(true);
    expect(isStoreUnavailable(Object.assign(new Error('wrapped'), { cause: new MongoNetworkError('socket closed') }))).to.equal(true);
    expect(isStoreUnavailable(Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' }))).to.equal(true);
  });

  it('not a duplicate key, a server-side refusal, or any other error', () => {
    expect(isStoreUnavailable(new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 }))).to.equal(false);
    expect(isStoreUnavailable(new TypeError('x is undefined'))).to.equal(false);
    expect(isStoreUnavailable(null)).to.equal(false);
  });
});
