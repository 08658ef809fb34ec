import { expect } from 'chai';
import { einvoice } from '../helpers/cli';

describe('einvoice --help', function () {
  this.timeout(300_000); // each case starts the real binary (tsx): a few seconds each on a busy machine

  const HELP: string[][] = [
    ['--help'],
    ['-h'],
    ['admin', '--help'],
    ['admin', 'tenant:create', '--help'],
    ['admin', 'credits:topup', '-h'],
    ['ops', '--help'],
    ...['stuck', 'find', 'reconcile', 'replay-webhook'].map((sub) => ['ops', sub, '--help']),
    ['render', '--help'],
    ['validate', '--help'],
  ];

  it('the command and every subcommand print their usage on stdout and exit 0', async () => {
    for (const args of HELP) {
      const res = await einvoice(...args);
      const label = args.join(' ');
      expect(res.code, `${label}: ${res.stderr}`).to.equal(0);
      expect(res.stderr, label).to.equal('');
      expect(res.stdout, label).to.match(/^usage:/);
      // a subcommand's help names that subcommand
      const sub = args.length === 3 ? args[1] : null;
      if (sub) expect(res.stdout, label).to.contain(`einvoice ${args[0]} ${sub}`);
    }
    const top = await einvoice('--help');
    for (const command of ['render', 'validate', 'admin', 'ops']) expect(top.stdout).to.contain(command);
    const ops = await einvoice('ops', '--help');
    for (const sub of ['retry', 'stuck', 'find', 'reconcile', 'replay-webhook', 'webhook-deliveries']) expect(ops.stdout).to.contain(`einvoice ops ${sub}`);
  });

  it('bad arguments print one line on stderr and exit 2', async () => {
    const BAD: string[][] = [
      [],
      ['frobnicate'],
      ['admin'],
      ['admin', 'nope'],
      ['ops'],
      ['ops', 'nope'],
      ['ops', 'stuck', '--older-than', 'soon'],
      ['ops', 'find'],
      ['ops', 'find', '--number', 'A-1', '--trn', '123'],
      ['ops', 'reconcile', '--bogus'],
      ['validate'],
    ];
    for (const args of BAD) {
      const res = await einvoice(...args);
      const label = args.join(' ') || '(none)';
      expect(res.code, `${label}: ${res.stderr}`).to.equal(2);
      expect(res.stdout, label).to.equal('');
      expect(res.stderr.trim().split('\n'), `${label}: ${res.stderr}`).to.have.length(1);
      expect(res.stderr, label).to.match(/^einvoice/);
    }
  });
});
