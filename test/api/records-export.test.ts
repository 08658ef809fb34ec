// Issue 34 point 4: the audit export. Real API socket, real worker and store, the real `einvoice` binary: an
// export of a period holds every handed-over document of it, byte for byte as GET …/document serves it, with a
// manifest `records verify --archive` accepts; a changed byte anywhere in the archive is reported.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readTarFile } from '../../src/records/tar-read';
import { einvoice } from '../helpers/cli';
import { apiBase, call } from '../helpers/http';
import { invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { expectTenantError, newTenant } from '../helpers/tenants';
import { ensureWorker } from '../helpers/worker';

const CREDIT_NOTE = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/bodies/07-credit-note-01-cancellation.json'), 'utf8'));

async function download(p: { headers: Record<string, string> }, query: string, file: string): Promise<Response> {
  const res = await fetch(`${await apiBase()}${query}`, { headers: p.headers });
  if (res.status === 200) fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return res;
}

async function filesOf(file: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for await (const item of readTarFile(file)) {
    if (item.kind === 'bad') throw new Error(item.reason);
    out.set(item.name, item.data);
  }
  return out;
}

/** A copy of the archive with one byte of `name`'s content changed. */
function withChangedByte(file: string, needle: Buffer, out: string): void {
  const bytes = fs.readFileSync(file);
  const at = bytes.indexOf(needle);
  expect(at, 'the needle is in the archive').to.be.greaterThan(-1);
  bytes[at] ^= 0x01;
  fs.writeFileSync(out, bytes);
}

describe('records export (issue 34 point 4): the audit archive and its check', () => {
  let p: TestPartner;
  let dir: string;
  const ids: string[] = [];

  before(async () => {
    await ensureWorker();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-export-test-'));
    p = await newPartner();
    const bodies = [
      invoiceBody(p, (b) => (b.issueDate = '2026-07-01')),
      invoiceBody(p, (b) => (b.issueDate = '2026-09-30')),
      invoiceBody(p, (b) => (b.issueDate = '2026-10-01')), // outside the period
      { ...structuredClone(CREDIT_NOTE), trn: p.sme.trn, seller: { ...CREDIT_NOTE.seller, trn: p.sme.trn }, number: `CN-${Date.now()}`, issueDate: '2026-08-15' },
    ];
    for (const body of bodies) {
      const res = await postInvoice(p, body);
      expect(res.status, res.text).to.equal(201);
      ids.push(res.body.invoiceId);
    }
    for (const id of ids) await waitForStatus(p, id, ['acknowledged', 'delivered']);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('GET /v1/partner/records holds every document of the period as sent, with a manifest records verify --archive accepts', async () => {
    const file = path.join(dir, 'q3.tar');
    const res = await download(p, '/v1/partner/records?from=2026-07-01&to=2026-09-30', file);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/x-tar/);
    expect(res.headers.get('content-disposition')).to.include(`records-${p.sme.trn}-2026-07-01-2026-09-30.tar`);

    const files = await filesOf(file);
    const inPeriod = [ids[0], ids[1], ids[3]];
    for (const id of inPeriod) {
      const served = await call('GET', `/v1/partner/invoices/${id}/document`, { headers: p.headers });
      const dirName = id === ids[3] ? 'credit-notes' : 'invoices';
      expect(files.get(`${dirName}/${id}/run-1.xml`)?.toString('utf8'), `document of ${id}`).to.equal(served.text);
      expect(files.has(`${dirName}/${id}/evidence.json`)).to.equal(true);
    }
    expect([...files.keys()].some((n) => n.includes(ids[2])), 'the invoice of 2026-10-01 is outside the period').to.equal(false);
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
    expect(manifest.documents.map((r: { invoiceId: string }) => r.invoiceId)).to.have.members(inPeriod);
    const credit = manifest.documents.find((r: { invoiceId: string }) => r.invoiceId === ids[3]);
    expect(credit).to.include({ documentType: 'credit_note', taxExclusiveAmount: '1500.00', taxAmount: '75.00', payableAmount: '1575.00' });
    for (const row of manifest.documents) expect(row.chainSeq, `${row.number} is in the chain`).to.be.a('number');
    expect(files.get('manifest.csv')!.toString('utf8').split('\r\n')[0]).to.equal('number,issueDate,documentType,currency,taxExclusiveAmount,taxAmount,payableAmount,status,ackRef,sha256,chainSeq,invoiceId,run,path');

    const verdict = await einvoice('records', 'verify', '--archive', file);
    expect(verdict.code, verdict.stdout + verdict.stderr).to.equal(0);
    expect(JSON.parse(verdict.stdout)).to.include({ ok: true, documents: 3, unchained: 0 });
  });

  it('a changed byte in a document, the manifest or the chain is reported, naming the file', async () => {
    const file = path.join(dir, 'q3b.tar');
    expect((await download(p, '/v1/partner/records?from=2026-07-01&to=2026-09-30', file)).status).to.equal(200);
    const files = await filesOf(file);
    const doc = `invoices/${ids[0]}/run-1.xml`;
    const cases: [string, Buffer, RegExp][] = [
      ['document', files.get(doc)!.subarray(300, 340), new RegExp(`${doc}: its bytes hash to`)],
      ['manifest', Buffer.from(`"invoiceId":"${ids[1]}"`), /manifest\.json/],
      ['chain', files.get('chain/entries.jsonl')!.subarray(0, 40), /chain\/entries\.jsonl/],
    ];
    for (const [what, needle, expected] of cases) {
      const changed = path.join(dir, `changed-${what}.tar`);
      withChangedByte(file, needle, changed);
      const verdict = await einvoice('records', 'verify', '--archive', changed);
      expect(verdict.code, `${what}: ${verdict.stdout}`).to.equal(1);
      const out = JSON.parse(verdict.stdout);
      expect(out.ok).to.equal(false);
      expect(out.problems.join('\n'), what).to.match(expected);
    }
    const truncated = path.join(dir, 'truncated.tar');
    fs.writeFileSync(truncated, fs.readFileSync(file).subarray(0, 3000));
    const cut = await einvoice('records', 'verify', '--archive', truncated);
    expect(cut.code).to.equal(1);
    expect(JSON.parse(cut.stdout).problems.join('\n')).to.match(/truncated/);
  });

  it('einvoice records export --trn writes the same period for the TRN, and verify accepts it', async () => {
    const out = path.join(dir, 'cli.tar');
    const res = await einvoice('records', 'export', '--trn', p.sme.trn, '--from', '2026-07-01', '--to', '2026-09-30', '--out', out, '--mode', 'test');
    expect(res.code, res.stderr).to.equal(0);
    expect(JSON.parse(res.stdout)).to.include({ out, documents: 3, invoices: 3 });
    const verdict = await einvoice('records', 'verify', '--archive', out);
    expect(verdict.code, verdict.stdout).to.equal(0);
    const unknown = await einvoice('records', 'export', '--trn', '100000000999903', '--from', '2026-07-01', '--to', '2026-09-30', '--out', path.join(dir, 'none.tar'));
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.match(/no SME or tenant has TRN 100000000999903/);
    const bad = await einvoice('records', 'export', '--trn', p.sme.trn, '--from', '2026-07-01', '--to', '2027-12-31', '--out', path.join(dir, 'x.tar'));
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.match(/--to.*at most 365 days after --from/);
  });

  it('refusals name the parameter, the rule and what to send (Partner and Tenant)', async () => {
    const cases: [string, string, string][] = [
      ['from=2026-07-01', 'to', 'required'],
      ['from=2026-02-30&to=2026-03-01', 'from', 'invalid_date'],
      ['from=2026-07-01&to=2026-06-30', 'to', 'invalid_range'],
      ['from=2025-01-01&to=2026-12-31', 'to', 'range_too_large'],
      ['from=2026-07-01&to=2026-07-02&status=delivered', 'status', 'unknown_parameter'],
    ];
    for (const [query, param, code] of cases) {
      const res = await call('GET', `/v1/partner/records?${query}`, { headers: p.headers });
      expect(res.status, res.text).to.equal(400);
      expect(res.body.meta.errors[0], query).to.include({ path: param, code });
      expect(res.body.meta.errors[0].message).to.be.a('string').and.include(param);
    }
    const t = await newTenant();
    const refused = await call('GET', '/v1/records?from=2026-07-01', { headers: t.headers });
    expectTenantError(refused, 400, 'invalid_body');
    expect(JSON.stringify(refused.body)).to.include('"to"');
    // An empty period is a valid archive too (no documents, the chain head as it is).
    const file = path.join(dir, 'tenant.tar');
    expect((await download(t, '/v1/records?from=2026-07-01&to=2026-07-31', file)).status).to.equal(200);
    const verdict = await einvoice('records', 'verify', '--archive', file);
    expect(verdict.code, verdict.stdout).to.equal(0);
    expect(JSON.parse(verdict.stdout)).to.include({ ok: true, documents: 0 });
  });
});
