import { expect } from 'chai';
import type { Config } from '../../src/config';
import { onSurface, surfaceOf } from '../../src/http/surface';
import { duplicateNumber, type NumberUniqueness } from '../../src/services/duplicate-number';
import { missingProviderSetting } from '../../src/services/provider-configured';
import { invoiceDisplay, partnerNames, tenantNames } from '../../src/services/invoice-workflow-display';

// The mechanisms both surfaces share (issue 36): each idea is asked one way, whichever API asks.
describe('one mechanism per idea across the Partner and Tenant APIs', () => {
  it('the surface is what the router set, and reading it outside a router is a wiring error', async () => {
    const ctx = { state: {} as Record<string, unknown> };
    await onSurface('tenant')(ctx as never, async () => {});
    expect(surfaceOf(ctx as never)).to.equal('tenant');
    expect(() => surfaceOf({ state: {} } as never)).to.throw(/onSurface/);
  });

  it('a provider is missing for live and sandbox only, by their own settings', () => {
    const cfg = (live: string | null, sandbox: string | null) => ({ providerLiveUrl: live, providerSandboxUrl: sandbox }) as Config;
    expect(missingProviderSetting('test', cfg(null, null))).to.equal(null);
    expect(missingProviderSetting('live', cfg(null, 'http://sim'))).to.equal('PROVIDER_LIVE_URL');
    expect(missingProviderSetting('live', cfg('https://asp', null))).to.equal(null);
    expect(missingProviderSetting('sandbox', cfg('https://asp', null))).to.equal('PROVIDER_SANDBOX_URL');
    expect(missingProviderSetting('sandbox', cfg(null, 'http://sim'))).to.equal(null);
  });

  it('the duplicate-number refusal words each owner\'s rule and names the holder', () => {
    const sme: NumberUniqueness = { where: { numberScope: 'sme:s', numberPeriod: 2025 }, usedBy: 'this SME in 2025', rule: 'per SME per year. A held invoice can be DELETEd and its number reused.', meta: { issueYear: 2025 } };
    const err = duplicateNumber(sme, 'INV-1', { _id: 'i1', status: 'queued' });
    expect([err.status, err.code]).to.deep.equal([409, 'invoice_number_duplicate']);
    expect(err.detail).to.equal('Invoice number INV-1 is already used by this SME in 2025; numbers are unique per SME per year. A held invoice can be DELETEd and its number reused.');
    expect(Object.keys(err.meta!)).to.deep.equal(['number', 'issueYear', 'invoiceId', 'status']);
    const tenant: NumberUniqueness = { where: { numberScope: 'tenant:t:live', numberPeriod: 0 }, usedBy: 'this tenant in live mode', rule: 'per tenant and mode.' };
    const t = duplicateNumber(tenant, 'A-1', null);
    expect(t.detail).to.equal('Invoice number A-1 is already used by this tenant in live mode; numbers are unique per tenant and mode.');
    expect(t.meta).to.deep.equal({ number: 'A-1' });
  });

  it('the Web UI display is the body\'s part plus the owner\'s names, for either owner', () => {
    const body = { buyer: { name: 'Noor' }, currency: 'AED', issueDate: '2025-02-01', lines: [] };
    expect(invoiceDisplay(body, partnerNames({ erpName: 'ERP' }, { legalName: 'SME' }))).to.include({ buyerName: 'Noor', partnerName: 'ERP', smeName: 'SME' });
    expect(invoiceDisplay(body, tenantNames({ legalName: 'Falcon' }))).to.include({ buyerName: 'Noor', tenantName: 'Falcon' });
    expect(invoiceDisplay(null, tenantNames(null))).to.deep.equal({ tenantName: null });
  });
});
