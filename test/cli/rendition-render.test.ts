// `einvoice render --html|--pdf`: the rendition of a request body's document or of a PINT-AE XML file,
// run in-process with injected I/O.
import { expect } from 'chai';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { renderCommand } from '../../src/cli/render-command';

const FIXTURES = path.join(__dirname, '../fixtures/bodies');
const EXAMPLE = path.resolve(__dirname, '../../../shared/pint-ae/examples/billing/cn/Standard tax credit Note.xml');

async function run(args: string[], files: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  let err = '';
  stdout.on('data', (c: Buffer) => out.push(Buffer.from(c)));
  stderr.on('data', (c) => (err += c));
  const readFile = async (p: string) => (p in files ? files[p] : fs.readFile(p, 'utf8'));
  const code = await renderCommand(args, { stdout, stderr, readFile });
  return { code, out: Buffer.concat(out), err };
}

describe('einvoice render --html|--pdf', () => {
  it('renders a request body as HTML: its document, bilingual', async () => {
    const r = await run([path.join(FIXTURES, '02-tax-invoice-discount-charge-iban.json'), '--html']);
    expect([r.code, r.err]).to.deep.equal([0, '']);
    const html = r.out.toString('utf8');
    expect(html).to.match(/^<!DOCTYPE html>/);
    expect(html).to.include('فاتورة ضريبية');
  });

  it('renders a PINT-AE XML file as PDF', async () => {
    const r = await run([EXAMPLE, '--pdf']);
    expect([r.code, r.err]).to.deep.equal([0, '']);
    expect(r.out.subarray(0, 5).toString()).to.equal('%PDF-');
  });

  it('exits 2 for XML without --html or --pdf, or both; 1 for XML that is no invoice or credit note', async () => {
    expect((await run(['doc.xml'], { 'doc.xml': '<Invoice/>' })).code).to.equal(2);
    const both = await run([EXAMPLE, '--html', '--pdf']);
    expect(both.code).to.equal(2);
    expect(both.err).to.include('give one of --html and --pdf');
    const order = await run(['o.xml', '--html'], { 'o.xml': '<Order xmlns="urn:x"/>' });
    expect(order.code).to.equal(1);
    expect(order.err).to.include('root element is <Order>');
  });
});
