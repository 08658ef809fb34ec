import { expect } from 'chai';
import { parseRetentionYears, retentionEnd, retentionVerdict } from '../../../src/records/retention';

describe('records: retention (pure)', () => {
  it('ends five years after the end of the issue date\'s calendar year, whatever the day in the year', () => {
    expect(retentionEnd('2026-01-01', 5).toISOString()).to.equal('2032-01-01T00:00:00.000Z');
    expect(retentionEnd('2026-12-31', 5).toISOString()).to.equal('2032-01-01T00:00:00.000Z');
    expect(retentionEnd('2026-06-15', 15).toISOString()).to.equal('2042-01-01T00:00:00.000Z');
  });

  it('removable only when the period is over both now and at --before, and nothing holds it', () => {
    const policy = { years: 5, hold: false };
    expect(retentionVerdict('2026-06-15', policy, new Date('2031-12-31T23:59:59Z'))).to.include({ removable: false, why: 'within_retention' });
    expect(retentionVerdict('2026-06-15', policy, new Date('2032-01-01T00:00:00Z'))).to.include({ removable: true });
    // A purge "before" a date still inside the period removes nothing, even long after.
    expect(retentionVerdict('2026-06-15', policy, new Date('2040-01-01Z'), new Date('2031-06-01Z'))).to.include({ removable: false });
    // A far "before" does not reach into the future.
    expect(retentionVerdict('2026-06-15', policy, new Date('2027-01-01Z'), new Date('2999-01-01Z'))).to.include({ removable: false });
    expect(retentionVerdict('2000-01-01', { years: 5, hold: true }, new Date('2040-01-01Z'))).to.deep.equal({ removable: false, why: 'legal_hold', until: null });
  });

  it('years are whole, at least the legal five, at most 100', () => {
    expect(parseRetentionYears('15', 'x')).to.equal(15);
    for (const bad of ['4', '0', '-1', '5.5', 'ten', '', '101']) expect(() => parseRetentionYears(bad, '--years'), bad).to.throw(/--years must be a whole number of years from 5/);
  });
});
