// The evidence chain of a Tenant invoice in sandbox mode: our HTTP ASP client, the simulator's signed callbacks and
// polls record the answers, each chained once under the tenant's TRN.
import { expect } from 'chai';
import { AspSubmission } from '../../src/db/models';
import { EvidenceChainEntry } from '../../src/db/models/evidence-chain-entry';
import type { AspSimulator } from '../../src/provider/simulator';
import type { ChainEntry } from '../../src/records/chain-hash';
import { verifyTrnChain } from '../../src/records/chain-verify';
import { startAspSimulator, stopAspSimulator } from '../helpers/asp-simulator';
import { call } from '../helpers/http';
import { mutation, newTenant, tenantInvoice, waitForTenantStatus } from '../helpers/tenants';

describe('records: the evidence chain of a Tenant sandbox invoice (ASP simulator, callbacks over HTTP)', function () {
  this.timeout(120_000);
  let sim: AspSimulator;
  before(async () => {
    sim = await startAspSimulator('PROVIDER_SANDBOX_URL');
  });
  after(() => stopAspSimulator(sim));

  it('chains the hand-over and every status the callbacks report, once each, under the tenant TRN; verify accepts it', async () => {
    const t = await newTenant({ mode: 'sandbox' });
    const created = await call('POST', '/v1/invoices', { headers: mutation(t), json: tenantInvoice(t) });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id;
    await call('POST', '/v1/invoices/submit', { headers: mutation(t), json: { ids: [id] } });
    const done = await waitForTenantStatus(t, id, ['acknowledged', 'rejected']);
    expect(done.status, done.reason).to.equal('acknowledged');

    const record = await AspSubmission.findById(`${id}-1`).lean();
    const chain = await EvidenceChainEntry.find({ trn: t.trn }).sort({ seq: 1 }).lean<ChainEntry[]>();
    // A callback may overtake the submit answer: the hand-over is in the chain, not necessarily first.
    expect(chain.filter((e) => e.kind === 'handover')).to.have.length(1);
    expect(chain.find((e) => e.kind === 'handover')).to.include({ invoiceId: id, number: created.body.number });
    const statuses = chain.filter((e) => e.kind === 'asp_answer').map((e) => e.data.status);
    expect(new Set(statuses).size, 'each status once').to.equal(statuses.length);
    expect(statuses).to.include.members(Object.keys(record!.statusAt as object));
    expect(chain.some((e) => e.data.ackRef === done.ackRef)).to.equal(true);
    expect(await verifyTrnChain(t.trn)).to.include({ ok: true, entries: chain.length });
  });
});
