// `einvoice render BODY.json`, run in-process with injected I/O.
import { expect } from 'chai';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { renderCommand } from '../../../src/cli/render-command';
import { FIXTURES, officialValidator } from './render-helpers';

async function run(args: string[], files: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const readFile = async (p: string) => {
    if (p in files) return files[p];
    return fs.readFile(p, 'utf8');
  };
  const code = await renderCommand(args, { stdout, stderr, readFile });
  return { code, out, err };
}

describe('einvoice render', () => {
  it('prints the PINT-AE XML and exits 0', async () => {
    const r = await run([path.join(FIXTURES, '02-tax-invoice-discount-charge-iban.json')]);
    expect(r.code).to.equal(0);
    expect(r.err).to.equal('');
    expect(r.out).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?><Invoice /);
    const validate = await officialValidator();
    expect(validate(r.out).fatal).to.deep.equal([]);
  });

  it('uses --uuid as the document UUID', async () => {
    const r = await run([path.join(FIXTURES, '01-tax-invoice-minimal.json'), '--uuid', '4b6000ca-0128-4bdc-99a6-406f2909247f']);
    expect(r.out).to.contain('<cbc:UUID>4b6000ca-0128-4bdc-99a6-406f2909247f</cbc:UUID>');
  });

  it('prints {heldReason, heldErrors} on stderr and exits 1 for a body pre-submit checks hold', async () => {
    const body = JSON.parse(await fs.readFile(path.join(FIXTURES, '01-tax-invoice-minimal.json'), 'utf8'));
    body.lines[0].vatRate = 5;
    const r = await run(['held.json'], { 'held.json': JSON.stringify(body) });
    expect(r.code).to.equal(1);
    expect(r.out).to.equal('');
    const report = JSON.parse(r.err);
    expect(report.heldReason).to.equal('vat_rate_percent');
    expect(report.heldErrors).to.deep.equal([
      { code: 'vat_rate_percent', path: 'lines[0].vatRate', message: 'lines[0].vatRate 5 looks like a percentage: vatRate is a decimal fraction, send 0.05 (0.05 means 5 %)' },
    ]);
  });

  it('prints the shape errors the same way (heldReason validation_failed) and exits 1', async () => {
    const r = await run(['bad.json'], { 'bad.json': JSON.stringify({ trn: '1', lines: [] }) });
    expect(r.code).to.equal(1);
    const report = JSON.parse(r.err);
    expect(report.heldReason).to.equal('validation_failed');
    expect(report.heldErrors.map((e: { path: string }) => e.path)).to.include.members(['trn', 'seller', 'buyer', 'lines']);
  });

  it('exits 2 with one line for an unreadable file, invalid JSON or a usage mistake', async () => {
    const missing = await run(['/nonexistent/body.json']);
    expect(missing.code).to.equal(2);
    expect(missing.err).to.match(/^einvoice render: cannot read \/nonexistent\/body.json: .*\n$/);
    expect(missing.err.trim().split('\n')).to.have.length(1);
    const invalid = await run(['x.json'], { 'x.json': '{"trn": ' });
    expect(invalid.code).to.equal(2);
    expect(invalid.err).to.match(/^einvoice render: x.json is not valid JSON: .*\n$/);
    expect((await run([])).code).to.equal(2);
    expect((await run(['a.json', 'b.json'])).code).to.equal(2);
    expect((await run(['a.json', '--uuid'])).code).to.equal(2);
  });
});
