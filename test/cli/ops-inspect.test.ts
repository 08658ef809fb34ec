import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { einvoice } from '../helpers/cli';
import { call } from '../helpers/http';
import { describeInvoiceWorkflows, listInvoiceWorkflows, temporalClient } from '../../src/temporal/client';
import { invoiceWorkflowId } from '../../src/temporal/contract';
import { Invoice } from '../../src/db/models';
import { describeWhenStatus, getInvoice, invoiceBody, postInvoice, waitForStatus } from '../helpers/invoices';
import { newPartner } from '../helpers/partners';
import { mutation, newTenant, tenantInvoice } from '../helpers/tenants';
import { ensureWorker } from '../helpers/worker';
import { stuckInvoices } from '../../src/services/invoice-ops';
import { listStatusOf } from '../../src/domain/invoice-list-query';

const jsonLines = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('einvoice ops stuck | find | reconcile', function () {
  this.timeout(240_000);
  before(() => ensureWorker());

  it('stuck lists a delivered invoice awaiting its acknowledgement with the workflow state and its status query', async () => {
    const p = await newPartner();
    const { body } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name += ' [asp:no-ack]')));
    await waitForStatus(p, body.invoiceId, 'delivered');
    await describeWhenStatus(body.invoiceId, 'delivered');
    const res = await einvoice('ops', 'stuck', '--older-than', '0s');
    expect(res.code, res.stderr).to.equal(0);
    const listed = JSON.parse(res.stdout).find((s: any) => s.invoiceId === body.invoiceId);
    expect(listed).to.include({ status: 'delivered', partnerId: p.partnerId, sellerTrn: p.sme.trn, workflowId: invoiceWorkflowId(body.invoiceId) });
    expect(listed.workflow).to.include({ state: 'running', status: 'delivered' });
    // --minutes stays an alias; an hour filters it out
    const older = await einvoice('ops', 'stuck', '--minutes', '60');
    expect(older.code, older.stderr).to.equal(0);
    expect(JSON.parse(older.stdout).map((s: any) => s.invoiceId)).to.not.include(body.invoiceId);
    await einvoice('ops', 'retry', body.invoiceId); // polls the ASP now: the invoice ends acknowledged
    await waitForStatus(p, body.invoiceId, 'acknowledged');
  });

  it('stuck lists what should be moving, oldest first: not held drafts, Tenant drafts, reserved-TRN deliveries or ended invoices', async () => {
    // Rows from a day long gone, so this test's are the oldest in the shared store; each stored as the model stores it.
    const at = (minute: number) => new Date(Date.UTC(2001, 0, 1, 0, minute));
    const tag = randomUUID().slice(0, 8);
    const rows: Array<[string, Record<string, unknown>, boolean]> = [
      ['queued', { status: 'queued' }, true],
      ['draft', { status: 'draft' }, true],
      ['held', { status: 'draft', heldReason: 'missing_trn' }, false],
      ['tenant-draft', { status: 'draft', tenantId: `t-${tag}`, partnerId: null }, false],
      ['delivered', { status: 'delivered', aspSubmissionId: `sub-${tag}` }, true],
      ['reserved', { status: 'delivered', aspSubmissionId: null }, false],
      ['acknowledged', { status: 'acknowledged', aspSubmissionId: `sub2-${tag}` }, false],
      ['rejected', { status: 'rejected' }, false],
      ['blocked', { status: 'blocked_no_credit' }, true],
      ['validated', { status: 'validated' }, true],
    ];
    const docs = rows.map(([name, fields], i) => {
      const doc = { _id: `${name}-${tag}`, number: `STUCK-${tag}-${i}`, sellerTrn: '100000000000003', partnerId: `p-${tag}`, tenantId: null, heldReason: null, mode: 'test', updatedAt: at(i), createdAt: at(i), ...fields };
      return { ...doc, listStatus: listStatusOf(doc as unknown as Parameters<typeof listStatusOf>[0]) };
    });
    await Invoice.collection.insertMany(docs as never[]);
    try {
      const listed = await stuckInvoices(60, { limit: 1000 }, new Date(Date.UTC(2001, 0, 2)));
      const expected = rows.filter(([, , stuck]) => stuck).map(([name]) => `${name}-${tag}`);
      expect(listed.map((s) => s.invoiceId)).to.deep.equal(expected);
      expect(listed.map((s) => s.workflow.state)).to.deep.equal(expected.map(() => 'not_found'));
    } finally {
      await Invoice.collection.deleteMany({ _id: { $in: docs.map((d) => d._id) } } as never);
    }
  });

  it("stuck's listing (visibility) agrees with a describe of each workflow: running, completed, terminated, continued as new, absent", async () => {
    const p = await newPartner();
    const post = async (tag: string) => (await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name += tag)))).body.invoiceId as string;
    const [waiting, done, killed, retried] = [await post(' [asp:no-ack]'), await post(''), await post(' [asp:no-ack]'), await post(' [asp:reject]')];
    await waitForStatus(p, done, 'acknowledged');
    await waitForStatus(p, killed, 'delivered');
    await (await temporalClient()).workflow.getHandle(invoiceWorkflowId(killed)).terminate('ops test');
    await waitForStatus(p, retried, 'rejected');
    await einvoice('ops', 'retry', retried); // a second run, continued as new: two visibility rows for one workflow id
    expect((await waitForStatus(p, retried, 'rejected')).run).to.equal(2);
    await waitForStatus(p, waiting, 'delivered');
    await describeWhenStatus(waiting, 'delivered');
    const ids = [waiting, done, killed, retried, randomUUID()];

    const described = await describeInvoiceWorkflows(ids);
    expect(ids.map((id) => described.get(id)!.state)).to.deep.equal(['running', 'completed', 'terminated', 'running', 'not_found']);
    expect(described.get(waiting)!.status).to.equal('delivered');
    expect(described.get(retried)!.status).to.equal('rejected');
    // Visibility trails the workflows by a moment: the listing agrees once it has caught up.
    const without = (m: Map<string, { closedAt?: string }>) => ids.map((id) => ({ ...m.get(id)!, closedAt: Boolean(m.get(id)!.closedAt) }));
    let listed = await listInvoiceWorkflows(ids);
    for (let i = 0; i < 50 && JSON.stringify(without(listed)) !== JSON.stringify(without(described)); i++) {
      await new Promise((r) => setTimeout(r, 200));
      listed = await listInvoiceWorkflows(ids);
    }
    expect(without(listed)).to.deep.equal(without(described));
    expect(listed.get(done)!.closedAt).to.equal(described.get(done)!.closedAt);
  });

  it('find by number lists both surfaces; with --trn only that seller', async () => {
    const number = `OPS-${randomUUID().slice(0, 8)}`;
    const [a, b] = [await newPartner(), await newPartner()];
    const ia = (await postInvoice(a, invoiceBody(a, (x) => (x.number = number)))).body.invoiceId;
    const ib = (await postInvoice(b, invoiceBody(b, (x) => (x.number = number)))).body.invoiceId;
    const t = await newTenant();
    const draft = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t, (x) => (x.number = number)) });
    expect(draft.status, draft.text).to.be.oneOf([200, 201]);
    await waitForStatus(a, ia, 'acknowledged');
    await waitForStatus(b, ib, 'acknowledged');

    const all = await einvoice('ops', 'find', '--number', number);
    expect(all.code, all.stderr).to.equal(0);
    const found = JSON.parse(all.stdout);
    expect(found).to.have.length(3);
    const byId = (id: string) => found.find((f: any) => f.invoiceId === id);
    expect(byId(ia)).to.include({ number, sellerTrn: a.sme.trn, surface: 'partner', partnerId: a.partnerId, mode: 'test', status: 'acknowledged', reason: null, workflowId: invoiceWorkflowId(ia) });
    expect(byId(ia).workflow).to.include({ state: 'completed' });
    expect(byId(ia).webUi).to.contain(invoiceWorkflowId(ia));
    expect(byId(ia).updatedAt).to.be.a('string');
    const tenantRow = found.find((f: any) => f.surface === 'tenant');
    expect(tenantRow).to.include({ tenantId: t.tenantId, sellerTrn: t.trn, status: 'draft', partnerId: null });
    expect(tenantRow.workflow).to.include({ state: 'not_found' });

    const one = await einvoice('ops', 'find', '--number', number, '--trn', b.sme.trn);
    expect(one.code, one.stderr).to.equal(0);
    expect(JSON.parse(one.stdout).map((f: any) => f.invoiceId)).to.deep.equal([ib]);
    const none = await einvoice('ops', 'find', '--number', `NONE-${randomUUID()}`);
    expect([none.code, JSON.parse(none.stdout)]).to.deep.equal([0, []]);
  });

  it('reconcile restarts the workflow of a delivered invoice terminated by hand; --dry-run changes nothing', async () => {
    const p = await newPartner();
    const { body } = await postInvoice(p, invoiceBody(p, (b) => (b.buyer.name += ' [asp:no-ack]')));
    const invoiceId = body.invoiceId;
    await waitForStatus(p, invoiceId, 'delivered');
    const handle = (await temporalClient()).workflow.getHandle(invoiceWorkflowId(invoiceId));
    await handle.terminate('terminated by hand');
    const before = await Invoice.findById(invoiceId).lean();

    const dry = await einvoice('ops', 'reconcile', '--dry-run', '--older-than', '0s', '--partner', p.partnerId);
    expect(dry.code, dry.stderr).to.equal(0);
    const planned = jsonLines(dry.stdout);
    expect(planned.slice(0, -1)).to.deep.equal([
      {
        invoiceId,
        number: before!.number,
        status: 'delivered',
        workflowId: invoiceWorkflowId(invoiceId),
        workflow: { state: 'terminated', status: null },
        finding: 'no_running_workflow',
        action: 'would_restarted_and_polled',
      },
    ]);
    expect(planned.at(-1).summary).to.include({ dryRun: true, invoicesChecked: 1, repaired: 1, failed: 0 });
    expect(dry.stderr).to.contain('einvoice ops reconcile:');
    expect((await handle.describe()).status.name).to.equal('TERMINATED');
    expect(await Invoice.findById(invoiceId).lean()).to.deep.equal(before);

    const res = await einvoice('ops', 'reconcile', '--older-than', '0s', '--partner', p.partnerId);
    expect(res.code, res.stderr).to.equal(0);
    const [done, summary] = jsonLines(res.stdout);
    expect(done).to.include({ invoiceId, finding: 'no_running_workflow', action: 'restarted_and_polled' });
    expect(summary.summary).to.include({ dryRun: false, repaired: 1, failed: 0 });
    const final = await waitForStatus(p, invoiceId, 'acknowledged');
    expect(final.run).to.equal(1);
    expect((await getInvoice(p, invoiceId)).body.status).to.equal('acknowledged');

    // Consistent now: nothing to do.
    const again = await einvoice('ops', 'reconcile', '--older-than', '0s', '--partner', p.partnerId);
    expect(jsonLines(again.stdout)).to.have.length(1);
    expect(jsonLines(again.stdout)[0].summary).to.include({ repaired: 0, reported: 0, failed: 0 });
  });

  it('reconcile starts the workflow of an invoice stored queued without one (a crash between the write and the start)', async () => {
    const p = await newPartner();
    const { body } = await postInvoice(p, invoiceBody(p));
    await waitForStatus(p, body.invoiceId, 'acknowledged');
    // The same invoice as if the API had crashed after storing it queued: a second invoice stored directly.
    const copy = { ...(await Invoice.findById(body.invoiceId).lean())!, _id: randomUUID(), number: `REC-${randomUUID().slice(0, 8)}` } as any;
    Object.assign(copy, { status: 'queued', reason: null, run: 1, history: [{ status: 'queued', at: new Date(), reason: null, run: 1 }], aspSubmissionId: null, ackRef: null, documentUuid: null });
    delete copy.createdAt;
    delete copy.updatedAt;
    delete copy.listStatus; // derived from the status at create, as the API stores it
    await Invoice.create(copy);
    const res = await einvoice('ops', 'reconcile', '--older-than', '0s', '--partner', p.partnerId);
    expect(res.code, res.stderr).to.equal(0);
    const lines = jsonLines(res.stdout);
    expect(lines[0]).to.include({ invoiceId: copy._id, status: 'queued', finding: 'no_running_workflow', action: 'restarted' });
    expect(lines[0].workflow).to.deep.equal({ state: 'not_found', status: null });
    await waitForStatus(p, copy._id, 'acknowledged');
  });
});
