// The list's status filter: one stored field, listStatus, whose values are the listed statuses (held drafts apart).
import { expect } from 'chai';
import { listFilter, listStatusOf, statusFilter } from '../../../src/domain/invoice-list-query';

describe('list status (src/domain/invoice-list-query.ts)', () => {
  it('an invoice lists as held when it is a draft with a heldReason, else as its stored status', () => {
    expect(listStatusOf({ status: 'draft', heldReason: 'missing_trn' })).to.equal('held');
    expect(listStatusOf({ status: 'draft', heldReason: null })).to.equal('draft');
    expect(listStatusOf({ status: 'draft' })).to.equal('draft');
    expect(listStatusOf({ status: 'queued', heldReason: null })).to.equal('queued');
    expect(listStatusOf({ status: 'rejected' })).to.equal('rejected');
  });

  it('any set of statuses is one $in on listStatus, without repeats', () => {
    expect(statusFilter(['held'])).to.deep.equal({ listStatus: { $in: ['held'] } });
    expect(statusFilter(['draft'])).to.deep.equal({ listStatus: { $in: ['draft'] } });
    expect(statusFilter(['draft', 'held'])).to.deep.equal({ listStatus: { $in: ['draft', 'held'] } });
    expect(statusFilter(['held', 'queued', 'held'])).to.deep.equal({ listStatus: { $in: ['held', 'queued'] } });
  });

  it('beside the owner, the cursor and the other filters', () => {
    const cursor = { createdAt: new Date(1000), id: 'b' };
    expect(listFilter({ numberScope: 'sme:s' }, { status: ['held', 'queued'], limit: 25, cursor })).to.deep.equal({
      numberScope: 'sme:s',
      listStatus: { $in: ['held', 'queued'] },
      $or: [{ createdAt: { $lt: cursor.createdAt } }, { createdAt: cursor.createdAt, _id: { $lt: 'b' } }],
    });
    expect(listFilter({ numberScope: 'sme:s' }, { limit: 25, number: 'A-1' })).to.deep.equal({ numberScope: 'sme:s', number: 'A-1' });
  });
});
