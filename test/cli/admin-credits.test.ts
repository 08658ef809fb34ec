import { expect } from 'chai';
import { CreditLedgerEntry, SmeConnection } from '../../src/db/models';
import { einvoice } from '../helpers/cli';
import { newPartner } from '../helpers/partners';

describe('einvoice admin credits:topup', function () {
  this.timeout(120_000);

  it('prints {"balance": n}, adds up, and writes one topup ledger entry each', async () => {
    const p = await newPartner({ mode: 'live' });
    const first = await einvoice('admin', 'credits:topup', '--sme', p.sme.smeId, '--amount', '10');
    expect(first.code, first.stderr).to.equal(0);
    expect(JSON.parse(first.stdout)).to.deep.equal({ balance: 10 });
    const second = await einvoice('admin', 'credits:topup', '--sme', p.sme.smeId, '--amount', '5');
    expect(JSON.parse(second.stdout)).to.deep.equal({ balance: 15 });
    expect((await SmeConnection.findById(p.sme.smeId).lean())!.credits).to.equal(15);
    const entries = await CreditLedgerEntry.find({ ownerKind: 'sme', ownerId: p.sme.smeId }).lean();
    expect(entries.map((e) => [e.kind, e.amount]).sort()).to.deep.equal([
      ['topup', 10],
      ['topup', 5],
    ]);
  });

  it('usage errors exit 2 with one line: no owner, both owners, a bad --amount', async () => {
    const cases: [string[], RegExp][] = [
      [['--amount', '5'], /pass exactly one of --sme <smeId> or --tenant <tenantId>/],
      [['--sme', 'x', '--tenant', 't1', '--amount', '5'], /pass exactly one of/],
      [['--sme', 'x'], /--amount is required/],
      [['--sme', 'x', '--amount', '0'], /--amount: amount must be a whole number of credits from 1 to 1000000, got "0"/],
      [['--sme', 'x', '--amount', '2.5'], /got "2.5"/],
      [['--sme', 'x', '--amount', 'lots'], /got "lots"/],
    ];
    for (const [args, message] of cases) {
      const res = await einvoice('admin', 'credits:topup', ...args);
      expect(res.code, args.join(' ')).to.equal(2);
      expect(res.stdout).to.equal('');
      expect(res.stderr.trim().split('\n')[0]).to.match(message);
    }
  });

  it('an unknown SME is a one-line error, exit 1', async () => {
    const res = await einvoice('admin', 'credits:topup', '--sme', 'no-such-sme', '--amount', '5');
    expect(res.code).to.equal(1);
    expect(res.stderr.trim().split('\n')).to.have.length(1);
    expect(res.stderr).to.contain('No SME no-such-sme');
  });
});
