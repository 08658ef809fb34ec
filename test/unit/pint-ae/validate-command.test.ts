// `einvoice validate DOC.xml` (src/cli/validate-command.ts), run in-process with in-memory streams.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { validateCommand } from '../../../src/cli/validate-command';

const EXAMPLE = path.resolve(__dirname, '../../../../shared/pint-ae/examples/billing/inv/Standard tax invoice.xml');

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  }) as Writable & { text: () => string };
  w.text = () => chunks.join('');
  return w;
}

async function run(args: string[], files: Record<string, string>) {
  const stdout = sink();
  const stderr = sink();
  const code = await validateCommand(args, {
    stdout,
    stderr,
    readFile: async (p) => {
      if (!(p in files)) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${p}'`), { code: 'ENOENT' });
      return files[p];
    },
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe('einvoice validate', () => {
  const valid = fs.readFileSync(EXAMPLE, 'utf8');

  it('prints {fatal: [], warning: []} and exits 0 for a valid document', async () => {
    const r = await run(['doc.xml'], { 'doc.xml': valid });
    expect(r.code).to.equal(0);
    expect(JSON.parse(r.stdout)).to.deep.equal({ fatal: [], warning: [] });
    expect(r.stderr).to.equal('');
  });

  it('prints the findings with id, location and text, and exits 1 on a fatal finding', async () => {
    const bad = valid.replace('<cbc:CompanyID>198765432102003</cbc:CompanyID>', '<cbc:CompanyID>19876543210200</cbc:CompanyID>');
    const r = await run(['doc.xml'], { 'doc.xml': bad });
    expect(r.code).to.equal(1);
    const out = JSON.parse(r.stdout) as { fatal: { id: string; location: string; text: string }[]; warning: unknown[] };
    expect(out.fatal).to.deep.equal([
      {
        id: 'ibr-132-ae',
        location: '/Invoice/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID',
        text: '[ibr-132-ae]-VAT identifier [IBT-031, IBT-048, IBT-063, BTAE-14] should be TRN [VAT registration number] and must be 15 digits, starting with 1, ending with 03.',
      },
    ]);
    expect(out.warning).to.deep.equal([]);
  });

  it('exits 2 with one line on stderr for an unreadable file', async () => {
    const r = await run(['missing.xml'], {});
    expect(r.code).to.equal(2);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.match(/^einvoice validate: cannot read missing\.xml: .*ENOENT.*\n$/);
    expect(r.stderr.trim().split('\n')).to.have.length(1);
  });

  it('exits 2 with one line on stderr for a file that is not XML', async () => {
    const r = await run(['doc.json'], { 'doc.json': '{"not": "xml"}' });
    expect(r.code).to.equal(2);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.match(/^einvoice validate: doc\.json is not well-formed XML: .*\(line 1, column 1\)\n$/);
  });

  it('exits 2 with a usage line without exactly one argument', async () => {
    for (const args of [[], ['a.xml', 'b.xml']]) {
      const r = await run(args, {});
      expect(r.code).to.equal(2);
      expect(r.stderr).to.equal('einvoice validate: usage: einvoice validate DOC.xml\n');
    }
  });
});
