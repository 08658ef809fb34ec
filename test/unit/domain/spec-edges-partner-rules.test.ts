// The pure rules behind issue 35 cases 7 and 8 (src/domain/submission-rules.ts), on an injected "today".
import { expect } from 'chai';
import { checkIssueDate, issueDateRule, uaeToday, withSmeRegistration } from '../../../src/domain/submission-rules';
import type { InvoiceCreateBody } from '@einvoice/pint-ae';
import { ServiceError } from '../../../src/domain/errors';

describe('issue-date limits (issueDateRule)', () => {
  const today = '2026-11-27';

  it('14 days back or less, and up to 1 day ahead: nothing to say', () => {
    for (const d of ['2026-11-13', '2026-11-27', '2026-11-28']) expect(issueDateRule(d, today), d).to.equal(null);
  });

  it('15 days back up to 5 years: a late_issuance warning with the number of days', () => {
    expect(issueDateRule('2026-11-12', today)).to.deep.include({ warning: { code: 'late_issuance', path: 'issueDate', days: 15, message: (issueDateRule('2026-11-12', today) as any).warning.message } });
    const oldest = issueDateRule('2021-11-27', today) as any;
    expect(oldest.warning).to.include({ code: 'late_issuance', days: 1826 });
    expect(oldest.warning.message).to.contain('14 days').and.contain('art. 67');
  });

  it('more than 5 years back: refused, naming the path, the rule and what to send', () => {
    const r = issueDateRule('2021-11-26', today, 'issueDate') as any;
    expect(r.refusal).to.include({ code: 'issue_date_too_old', path: 'issueDate' });
    expect(r.refusal.message).to.contain('2021-11-27').and.contain('art. 78').and.contain('send the date');
    expect((issueDateRule('1990-01-01', today) as any).refusal.code).to.equal('issue_date_too_old');
  });

  it('more than 1 day ahead: refused', () => {
    const r = issueDateRule('2026-11-29', today) as any;
    expect(r.refusal).to.include({ code: 'issue_date_in_future', path: 'issueDate' });
    expect(r.refusal.message).to.contain("send today's date");
    expect((issueDateRule('2099-01-01', today) as any).refusal.code).to.equal('issue_date_in_future');
  });

  it('29 February: five years back is 28 February', () => {
    expect(issueDateRule('2023-02-28', '2028-02-29')).to.have.property('warning');
    expect(issueDateRule('2023-02-27', '2028-02-29')).to.have.property('refusal');
  });

  it('today is the UAE day (UTC+4): 21:00 UTC is already the next day', () => {
    expect(uaeToday(new Date('2026-11-27T19:59:59Z'))).to.equal('2026-11-27');
    expect(uaeToday(new Date('2026-11-27T20:00:00Z'))).to.equal('2026-11-28');
  });

  it('checkIssueDate throws the 400 issue_date_out_of_range with meta.errors, or returns the warnings', () => {
    const now = new Date('2026-11-27T08:00:00Z');
    expect(checkIssueDate('2026-11-27', { now })).to.deep.equal([]);
    expect(checkIssueDate('2026-10-01', { now })[0]).to.include({ code: 'late_issuance', days: 57 });
    try {
      checkIssueDate('2026-12-25', { now });
      expect.fail('no refusal');
    } catch (err) {
      expect(err).to.be.instanceOf(ServiceError);
      expect(err).to.include({ status: 400, code: 'issue_date_out_of_range' });
      expect((err as ServiceError).meta).to.deep.equal({ errors: [issueDateRule('2026-12-25', '2026-11-27', 'issueDate')!['refusal' as never]] });
    }
  });
});

describe('the SME registration fills its own party (withSmeRegistration)', () => {
  const reg = { tradeLicenseNumber: 'DED-1', address: { line1: 'Bay Square 3', city: 'Dubai', emirate: 'Dubai', country: 'AE' } };
  const body = (patch: Partial<InvoiceCreateBody> = {}): InvoiceCreateBody =>
    ({
      trn: '100123456700003',
      number: 'N-1',
      issueDate: '2026-11-27',
      currency: 'AED',
      seller: { name: 'S', country: 'AE', address: { line1: 'Street 1', city: 'Dubai' } },
      buyer: { name: 'B', country: 'AE', address: { line1: 'Street 2', city: 'Abu Dhabi', emirate: 'AUH' }, trn: '100987654300003' },
      lines: [],
      ...patch,
    }) as InvoiceCreateBody;

  it('a sale: the seller gets the trade licence and the emirate it left out; the body is not changed in place', () => {
    const sent = body();
    const filled = withSmeRegistration(sent, reg);
    expect(filled.seller).to.deep.include({ tradeLicenseNumber: 'DED-1', address: { line1: 'Street 1', city: 'Dubai', emirate: 'Dubai' } });
    expect(filled.buyer).to.deep.equal(sent.buyer);
    expect(sent.seller!.tradeLicenseNumber).to.equal(undefined);
  });

  it('what the body says wins; a seller without an address gets the registered one', () => {
    const own = withSmeRegistration(body({ seller: { name: 'S', country: 'AE', tradeLicenseNumber: 'MINE', address: { line1: 'L', city: 'C', emirate: 'SHJ' } } }), reg);
    expect(own.seller).to.deep.include({ tradeLicenseNumber: 'MINE', address: { line1: 'L', city: 'C', emirate: 'SHJ' } });
    const none = withSmeRegistration(body({ seller: { name: 'S', country: 'AE' } }), reg);
    expect(none.seller!.address).to.deep.equal({ line1: 'Bay Square 3', city: 'Dubai', emirate: 'Dubai' });
  });

  it('a purchase fills the buyer (the SME); passport parties and foreign addresses are left alone; no registration: unchanged', () => {
    const purchase = withSmeRegistration(body({ invoiceType: 'purchase', buyer: { name: 'B', country: 'AE', address: { line1: 'X', city: 'Y' } } }), reg);
    expect(purchase.buyer).to.deep.include({ tradeLicenseNumber: 'DED-1', address: { line1: 'X', city: 'Y', emirate: 'Dubai' } });
    expect(purchase.seller!.tradeLicenseNumber).to.equal(undefined);
    const pas = withSmeRegistration(body({ seller: { name: 'S', country: 'AE', legalRegistrationType: 'PAS', address: { line1: 'L', city: 'C', emirate: 'DXB' } } }), reg);
    expect(pas.seller!.tradeLicenseNumber).to.equal(undefined);
    const abroad = withSmeRegistration(body({ seller: { name: 'S', country: 'GB', address: { line1: 'L', city: 'London' } } }), reg);
    expect(abroad.seller!.address).to.deep.equal({ line1: 'L', city: 'London' });
    const sent = body();
    expect(withSmeRegistration(sent, { tradeLicenseNumber: null, address: null })).to.deep.equal(sent);
  });
});
