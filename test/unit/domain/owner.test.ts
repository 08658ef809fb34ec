// The owner module: the one place that tells a Partner API owner (partner + SME) from a Tenant API owner (tenant +
// mode). What each gets for its stored fields, filters, labels and party; and the migration's update of old shapes.
import { expect } from 'chai';
import { invoiceUpdate } from '../../../src/db/migrations/invoice-owner-fields';
import { numberKey, ownerAccount, ownerFields, ownerFilter, ownerLabel, partyOf, spendingScope, storedOwnerOf, tenantNumbers, type OwnerRef } from '../../../src/domain/owner';

const PARTNER: OwnerRef = { kind: 'partner', partnerId: 'p1', smeId: 's1' };
const TENANT: OwnerRef = { kind: 'tenant', tenantId: 't1', mode: 'sandbox' };

describe('owner (src/domain/owner.ts)', () => {
  it('an SME numbers per issue year, a tenant per mode whatever the year', () => {
    expect(numberKey(PARTNER, 'A-1', '2026-03-01')).to.deep.equal({ numberScope: 'sme:s1', numberPeriod: 2026, number: 'A-1' });
    expect(numberKey(TENANT, 'A-1', '2026-03-01')).to.deep.equal({ numberScope: 'tenant:t1:sandbox', numberPeriod: 0, number: 'A-1' });
    expect(tenantNumbers({ kind: 'tenant', tenantId: 't1', mode: 'sandbox' })).to.deep.equal({ numberScope: 'tenant:t1:sandbox', numberPeriod: 0 });
  });

  it('stored fields: smeId only ever an SME; the filter is the partition alone (it names the owner)', () => {
    expect(ownerFields(PARTNER)).to.deep.equal({ partnerId: 'p1', smeId: 's1', tenantId: null, numberScope: 'sme:s1' });
    expect(ownerFields(TENANT)).to.deep.equal({ partnerId: null, smeId: null, tenantId: 't1', numberScope: 'tenant:t1:sandbox' });
    expect(ownerFilter(PARTNER)).to.deep.equal({ numberScope: 'sme:s1' });
    expect(ownerFilter(TENANT)).to.deep.equal({ numberScope: 'tenant:t1:sandbox' });
    // Two SMEs, two tenants, or one tenant's two modes never share a partition.
    const scopes = [PARTNER, { ...PARTNER, smeId: 's2' }, TENANT, { ...TENANT, tenantId: 't2' }, { ...TENANT, mode: 'live' }].map((o) => ownerFilter(o as OwnerRef).numberScope);
    expect(new Set(scopes).size).to.equal(scopes.length);
  });

  it('labels, party, account and the scope that spends an account', () => {
    expect([ownerLabel(PARTNER), ownerLabel(TENANT)]).to.deep.equal(['partner:p1 sme:s1', 'tenant:t1:sandbox']);
    expect([partyOf(PARTNER), partyOf(TENANT)]).to.deep.equal([{ kind: 'partner', id: 'p1' }, { kind: 'tenant', id: 't1' }]);
    expect([ownerAccount(PARTNER), ownerAccount(TENANT)]).to.deep.equal([{ kind: 'sme', id: 's1' }, { kind: 'tenant', id: 't1' }]);
    expect([spendingScope({ kind: 'sme', id: 's1' }), spendingScope({ kind: 'tenant', id: 't1' })]).to.deep.equal(['sme:s1', 'tenant:t1:live']);
  });

  it('a stored row names its owner by tenantId; the migration brings the old shape to the new one', () => {
    expect(storedOwnerOf({ partnerId: 'p1', smeId: 's1', tenantId: null, mode: 'test' })).to.deep.equal(PARTNER);
    expect(storedOwnerOf({ partnerId: null, smeId: null, tenantId: 't1', mode: 'sandbox' })).to.deep.equal(TENANT);
    expect(invoiceUpdate({ partnerId: null, tenantId: 't1', smeId: 'tenant:t1:sandbox', mode: 'sandbox', number: 'A-1', issueYear: 0, issueDate: '2026-03-01' })).to.deep.equal({
      $set: { numberScope: 'tenant:t1:sandbox', numberPeriod: 0, smeId: null },
      $unset: { issueYear: '' },
    });
    expect(invoiceUpdate({ partnerId: 'p1', smeId: 's1', mode: 'test', number: 'A-1', issueYear: 2025, issueDate: '2025-12-31' })).to.deep.equal({
      $set: { numberScope: 'sme:s1', numberPeriod: 2025 },
      $unset: { issueYear: '' },
    });
  });
});
