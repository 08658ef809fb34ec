import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { AspSubmission, AspSubmissionDocument, Invoice, InvoiceDocument } from '../../src/db/models';
import { EvidenceChainEntry } from '../../src/db/models/evidence-chain-entry';
import { canonicalJson, sha256Hex, type ChainEntry } from '../../src/records/chain-hash';
import { recordAnswer } from '../../src/services/asp-evidence';
import { setLegalHold } from '../../src/records/retention-policy';
import { call } from '../helpers/http';
import { einvoice } from '../helpers/cli';
import { getInvoice, invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { ensureWorker } from '../helpers/worker';

const del = (p: TestPartner, id: string) => call('DELETE', `/v1/partner/invoices/${id}`, { headers: { ...p.headers, 'Idempotency-Key': randomUUID() } });
const chainOf = (trn: string) => EvidenceChainEntry.find({ trn }).sort({ seq: 1 }).lean<ChainEntry[]>();

/** The chain of an acknowledged invoice, once its REPORTED answer (with the ackRef) is chained. */
async function acknowledgedAndChained(p: TestPartner, patch?: (b: any) => void): Promise<{ invoiceId: string; chain: ChainEntry[] }> {
  const { body } = await postInvoice(p, invoiceBody(p, patch));
  await waitForStatus(p, body.invoiceId, 'acknowledged');
  // The answer is chained before the workflow is signalled, so acknowledged implies it: one look is enough.
  const chain = await chainOf(p.sme.trn);
  return { invoiceId: body.invoiceId, chain };
}

/** Runs `einvoice records verify --trn`, parsed. */
async function cliVerify(trn: string): Promise<{ code: number; report: any; stderr: string }> {
  const res = await einvoice('records', 'verify', '--trn', trn);
  return { code: res.code, report: JSON.parse(res.stdout || 'null'), stderr: res.stderr };
}

describe('records: evidence chain, DELETE of what was handed over, verify (real Temporal, API, store)', function () {
  this.timeout(180_000);
  before(() => ensureWorker());

  it('chains the hand-over (SHA-256 of the XML sent) and each ASP status with its time and the ackRef', async () => {
    const p = await newPartner();
    const { invoiceId, chain } = await acknowledgedAndChained(p);
    const record = await AspSubmission.findById(`${invoiceId}-1`).lean();
    const xml = (await AspSubmissionDocument.findById(`${invoiceId}-1`).lean())!.xml;
    const handover = chain.find((e) => e.kind === 'handover')!;
    expect(handover).to.include({ seq: 1, invoiceId, trn: p.sme.trn });
    expect(handover.data).to.include({ run: 1, sha256: sha256Hex(Buffer.from(xml, 'utf8')), documentUuid: record!.documentUuid });
    const answers = chain.filter((e) => e.kind === 'asp_answer');
    expect(answers.map((e) => e.data.status), JSON.stringify(chain)).to.have.members(Object.keys(record!.statusAt as object));
    for (const a of answers) expect(a.at).to.equal((record!.statusAt as Record<string, string>)[a.data.status as string]);
    expect(answers.some((a) => a.data.ackRef === record!.ackRef && record!.ackRef)).to.equal(true);
    expect(chain.map((e) => e.seq)).to.deep.equal(chain.map((_, i) => i + 1));
    // A repeated answer (a duplicate callback, a retried activity) appends nothing.
    const last = record!.answers.at(-1)!.body as any;
    await recordAnswer(last, 'callback');
    expect((await chainOf(p.sme.trn)).length).to.equal(chain.length);
    const ok = await cliVerify(p.sme.trn);
    expect(ok.code, ok.stderr).to.equal(0);
    expect(ok.report).to.deep.include({ trn: p.sme.trn, ok: true, entries: chain.length });
    expect(ok.report.head).to.deep.equal({ seq: chain.length, hash: chain.at(-1)!.hash });
  });

  it('DELETE refuses what was handed over, acknowledged or rejected by the ASP: 409 handed_over, issue a credit note', async () => {
    const p = await newPartner();
    const { invoiceId } = await acknowledgedAndChained(p);
    const refused = await del(p, invoiceId);
    expect([refused.status, refused.body.code]).to.deep.equal([409, 'handed_over']);
    const { body: rejected } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name += ' [asp:reject]')));
    await waitForStatus(p, rejected.invoiceId, 'rejected');
    const res = await del(p, rejected.invoiceId);
    expect(res.status).to.equal(409);
    expect(res.headers.get('content-type')).to.contain('application/problem+json');
    expect(res.body).to.include({ code: 'handed_over' });
    expect(res.body.detail).to.match(/credit note/);
    expect(res.body.meta).to.deep.equal({ status: 'rejected', runs: [1] });
    expect((await getInvoice(p, rejected.invoiceId)).body.status).to.equal('rejected');
    expect(await Invoice.db.collection('deleted_invoices').findOne({ _id: rejected.invoiceId } as never)).to.equal(null);
    // Its number stays taken.
    const again = await postInvoice(p, invoiceBody(p, (b) => (b.number = rejected.number)));
    expect(again.status).to.equal(409);
  });

  it('a held invoice is deleted after its deletion record (archive and chain entry), its number freed; under legal hold it is kept', async () => {
    const p = await newPartner();
    const { body: held } = await postInvoice(p, invoiceBody(p, (b) => delete b.buyer.address));
    expect(held.status).to.equal('held');
    const stored = await Invoice.findById(held.invoiceId).lean();
    await setLegalHold({ invoice: held.invoiceId }, true);
    const onHold = await del(p, held.invoiceId);
    expect([onHold.status, onHold.body.code]).to.deep.equal([409, 'legal_hold']);
    await setLegalHold({ invoice: held.invoiceId }, false);
    expect((await del(p, held.invoiceId)).status).to.equal(204);
    const archive = await Invoice.db.collection('deleted_invoices').findOne({ _id: held.invoiceId } as never);
    expect(archive).to.include({ number: held.number, deletedBy: `partner:${p.partnerId} sme:${p.sme.smeId}` });
    const [entry] = await chainOf(p.sme.trn);
    expect(entry).to.include({ kind: 'deletion', invoiceId: held.invoiceId, number: held.number, seq: 1 });
    expect(entry.data).to.deep.include({ bodySha256: sha256Hex(canonicalJson(stored!.body)), status: 'draft' });
    expect((await postInvoice(p, invoiceBody(p, (b) => (b.number = held.number)))).status).to.be.oneOf([201, 202]);
    expect((await cliVerify(p.sme.trn)).code).to.equal(0);
    // A changed archived body is a break at the deletion entry.
    await Invoice.db.collection('deleted_invoices').updateOne({ _id: held.invoiceId } as never, { $set: { 'body.number': 'X-1' } });
    const broken = await cliVerify(p.sme.trn);
    expect(broken.code).to.equal(1);
    expect(broken.report).to.include({ ok: false, seq: 1, kind: 'deletion' });
  });

  it('a changed byte of the stored XML, of GET …/document\'s copy or of the evidence is reported at its entry (exit 1); restored, it verifies', async () => {
    const p = await newPartner();
    const { invoiceId, chain } = await acknowledgedAndChained(p);
    const handover = chain.find((e) => e.kind === 'handover')!;
    const reported = chain.find((e) => e.data.status === 'REPORTED')!;
    const docId = `${invoiceId}-1`;
    const flip = (xml: string) => xml.replace('<cbc:ID>', '<cbc:ID>X');

    const sent = (await AspSubmissionDocument.findById(docId).lean())!.xml;
    await AspSubmissionDocument.updateOne({ _id: docId }, { $set: { xml: flip(sent) } });
    let v = await cliVerify(p.sme.trn);
    expect(v.code).to.equal(1);
    expect(v.report).to.include({ ok: false, seq: handover.seq, kind: 'handover', invoiceId });
    expect(v.report.reason).to.match(/stored XML handed over in run 1/);
    expect(v.stderr).to.contain(`entry ${handover.seq}`);
    await AspSubmissionDocument.updateOne({ _id: docId }, { $set: { xml: sent } });

    const served = (await InvoiceDocument.findById(invoiceId).lean())!.xml;
    expect(served).to.equal(sent);
    await InvoiceDocument.updateOne({ _id: invoiceId }, { $set: { xml: flip(served) } });
    v = await cliVerify(p.sme.trn);
    expect(v.report).to.include({ ok: false, seq: handover.seq });
    expect(v.report.reason).to.match(/GET …\/document/);
    await InvoiceDocument.updateOne({ _id: invoiceId }, { $set: { xml: served } });

    const at = reported.at;
    await AspSubmission.updateOne({ _id: docId }, { $set: { 'statusAt.REPORTED': '2020-01-01T00:00:00.000Z' } });
    v = await cliVerify(p.sme.trn);
    expect(v.report).to.include({ ok: false, seq: reported.seq, kind: 'asp_answer' });
    await AspSubmission.updateOne({ _id: docId }, { $set: { 'statusAt.REPORTED': at } });

    const ackRef = (await AspSubmission.findById(docId).lean())!.ackRef;
    await AspSubmission.updateOne({ _id: docId }, { $set: { ackRef: 'FTA-FORGED' } });
    v = await cliVerify(p.sme.trn);
    expect(v.report).to.include({ ok: false, kind: 'asp_answer' });
    expect(v.report.reason).to.match(/ackRef/);
    await AspSubmission.updateOne({ _id: docId }, { $set: { ackRef } });

    // The chain itself: an entry's content changed (its stored hash kept) is an altered entry.
    await EvidenceChainEntry.updateOne({ trn: p.sme.trn, seq: handover.seq }, { $set: { 'data.sha256': sha256Hex('forged') } });
    v = await cliVerify(p.sme.trn);
    expect(v.report).to.include({ ok: false, seq: handover.seq });
    expect(v.report.reason).to.match(/altered/);
    await EvidenceChainEntry.updateOne({ trn: p.sme.trn, seq: handover.seq }, { $set: { 'data.sha256': handover.data.sha256 } });

    expect((await cliVerify(p.sme.trn)).code).to.equal(0);
  });
});
