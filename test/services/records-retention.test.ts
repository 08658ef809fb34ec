import { expect } from 'chai';
import { AspSubmission, AspSubmissionDocument, Invoice, InvoiceDocument } from '../../src/db/models';
import { EvidenceChainEntry } from '../../src/db/models/evidence-chain-entry';
import { verifyTrnChain } from '../../src/records/chain-verify';
import { purgeRecords, type PurgedRecord } from '../../src/records/records-purge';
import { setLegalHold, setRetentionYears } from '../../src/records/retention-policy';
import { verifyEvidenceChains } from '../../src/records/scheduled-verify';
import { chainBreaks } from '../../src/records/records-metrics';
import { purgeExpiredRecords } from '../../src/services/purge-expired';
import { config } from '../../src/config';
import { temporalClient } from '../../src/temporal/client';
import { einvoice } from '../helpers/cli';
import { invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';
import { ensureWorker } from '../helpers/worker';

/** Everything stored of one invoice: the invoice, its served document, its hand-over records, its chain. */
async function storedOf(invoiceId: string) {
  return {
    invoice: await Invoice.countDocuments({ _id: invoiceId }),
    document: await InvoiceDocument.countDocuments({ _id: invoiceId }),
    evidence: await AspSubmission.countDocuments({ invoiceId }),
    handedOverXml: await AspSubmissionDocument.countDocuments({ _id: `${invoiceId}-1` }),
    chain: await EvidenceChainEntry.countDocuments({ invoiceId }),
  };
}

async function acknowledged(p: TestPartner): Promise<string> {
  const { body } = await postInvoice(p, invoiceBody(p)); // issued 2025-02-07: retention ends 2031-01-01
  await waitForStatus(p, body.invoiceId, 'acknowledged');
  return body.invoiceId;
}

describe('records: retention and purge (real Temporal, API, store)', function () {
  this.timeout(180_000);
  before(() => ensureWorker());

  it('einvoice records purge inside the retention period removes nothing (--yes), and the chain still verifies', async () => {
    const p = await newPartner();
    const invoiceId = await acknowledged(p);
    const before = await storedOf(invoiceId);
    expect(before).to.deep.include({ invoice: 1, document: 1, evidence: 1, handedOverXml: 1 });
    const res = await einvoice('records', 'purge', '--before', '2999-01-01', '--yes', '--trn', p.sme.trn);
    expect(res.code, res.stderr).to.equal(0);
    const lines = res.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).to.have.length(1);
    expect(lines[0].summary).to.deep.include({ dryRun: false, examined: 1, purged: 0, kept: { withinRetention: 1, legalHold: 0 } });
    expect(await storedOf(invoiceId)).to.deep.equal(before);
    expect(await verifyTrnChain(p.sme.trn)).to.include({ ok: true });
    // Neither --dry-run nor --yes, or both: a usage error, nothing run.
    expect((await einvoice('records', 'purge', '--before', '2999-01-01')).code).to.equal(2);
  });

  it('after retention: a legal hold or a longer SME retention keeps the records; otherwise the purge removes them, chained first', async () => {
    const p = await newPartner();
    const invoiceId = await acknowledged(p);
    const at2035 = { trn: p.sme.trn, before: new Date('2035-01-01Z'), now: new Date('2035-01-01Z'), by: 'test' };
    const seen: PurgedRecord[] = [];
    expect(await purgeRecords({ ...at2035, dryRun: true, onRecord: (r) => seen.push(r) })).to.deep.include({ purged: 1 });
    expect(seen).to.deep.equal([{ collection: 'invoices', invoiceId, number: seen[0].number, trn: p.sme.trn, issueDate: '2025-02-07', retentionEndedAt: '2031-01-01T00:00:00.000Z', action: 'would_purge' }]);

    await setLegalHold({ sme: p.sme.smeId }, true);
    expect(await purgeRecords({ ...at2035, dryRun: false })).to.deep.include({ purged: 0, kept: { withinRetention: 0, legalHold: 1 } });
    await setLegalHold({ sme: p.sme.smeId }, false);
    await setLegalHold({ invoice: invoiceId }, true);
    expect(await purgeRecords({ ...at2035, dryRun: false })).to.deep.include({ purged: 0, kept: { withinRetention: 0, legalHold: 1 } });
    await setLegalHold({ invoice: invoiceId }, false);
    // Real estate: 15 years, until 2041.
    const set = await einvoice('records', 'retention', '--sme', p.sme.smeId, '--years', '15');
    expect(set.code, set.stderr).to.equal(0);
    expect(await purgeRecords({ ...at2035, dryRun: false })).to.deep.include({ purged: 0, kept: { withinRetention: 1, legalHold: 0 } });
    expect((await storedOf(invoiceId)).invoice).to.equal(1);
    await setRetentionYears({ sme: p.sme.smeId }, null);

    expect(await purgeRecords({ ...at2035, dryRun: false })).to.deep.include({ purged: 1 });
    const after = await storedOf(invoiceId);
    expect(after).to.deep.include({ invoice: 0, document: 0, evidence: 0, handedOverXml: 0 });
    const last = await EvidenceChainEntry.findOne({ trn: p.sme.trn }).sort({ seq: -1 }).lean();
    expect(last).to.include({ kind: 'deletion', invoiceId });
    expect(last!.data).to.include({ reason: 'retention_expired', by: 'test' });
    // The chain keeps its links: the purge is in it, the removed documents are not breaks.
    expect(await verifyTrnChain(p.sme.trn)).to.include({ ok: true, entries: after.chain });
  });

  it('the expiry purges (maintenance) and the indexes never remove invoices or evidence', async () => {
    const p = await newPartner();
    const invoiceId = await acknowledged(p);
    const before = await storedOf(invoiceId);
    await purgeExpiredRecords(new Date('2999-01-01Z'));
    expect(await storedOf(invoiceId)).to.deep.equal(before);
    for (const model of [Invoice, InvoiceDocument, AspSubmission, AspSubmissionDocument, EvidenceChainEntry]) {
      const indexes = await model.collection.indexes();
      expect(indexes.filter((i) => i.expireAfterSeconds !== undefined), model.collection.collectionName).to.deep.equal([]);
    }
  });

  it('the scheduled verification counts a break as a metric and reports the TRN; an intact chain passes', async () => {
    const p = await newPartner();
    const invoiceId = await acknowledged(p);
    const ok = await verifyEvidenceChains({ trns: [p.sme.trn] });
    expect(ok).to.deep.include({ chains: 1, breaks: [] });
    expect(ok.entriesVerified).to.be.at.least(2);
    const counted = (await chainBreaks.get()).values[0]?.value ?? 0;
    const docId = `${invoiceId}-1`;
    const xml = (await AspSubmissionDocument.findById(docId).lean())!.xml;
    await AspSubmissionDocument.updateOne({ _id: docId }, { $set: { xml: xml.replace('</', ' </') } });
    // The next full pass sees it (a day later); in between, only new entries are checked.
    const incremental = await verifyEvidenceChains({ trns: [p.sme.trn] });
    expect(incremental.breaks).to.deep.equal([]);
    const nextDay = await verifyEvidenceChains({ trns: [p.sme.trn], now: new Date(Date.now() + 24 * 3600_000) });
    expect(nextDay.breaks.map((b) => [b.trn, b.seq, b.kind])).to.deep.equal([[p.sme.trn, 1, 'handover']]);
    expect((await chainBreaks.get()).values[0].value).to.equal(counted + 1);
    await AspSubmissionDocument.updateOne({ _id: docId }, { $set: { xml } });
    // The maintenance schedule's workflow runs it after the expiry purge (an activity: the workflow does no I/O).
    const client = await temporalClient();
    const result = await client.workflow.execute('maintenanceWorkflow', { taskQueue: config().temporalTaskQueue, workflowId: `maintenance-records-${invoiceId}`, args: [] });
    expect(result.chains.chains).to.be.at.least(1);
    expect(result.chains).to.have.keys(['chains', 'entriesVerified', 'fullPasses', 'breaks']);
  });
});
