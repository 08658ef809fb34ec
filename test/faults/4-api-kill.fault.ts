// Fault: kill -9 of the API during a 100-item bulk request, then the same request resent with the same
// Idempotency-Key (issue 13, item 1). The kill lands once the batch's invoices are in the store and before the
// request has answered (its workflows partly started, its answers not stored): the resend must answer all 100
// items, with exactly 100 invoices stored, and every one must reach acknowledged.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Invoice } from '../../src/db/models';
import { postJson, sleep, startFaultStack, until, type FaultStack, type JsonResponse } from '../../scripts/faults/stack';
import { invoiceBody } from '../helpers/invoices';
import { newPartner, type TestPartner } from '../helpers/partners';

const ITEMS = 100;

describe('fault: kill -9 the API mid-bulk, resend with the same key', function () {
  this.timeout(10 * 60_000);
  let stack: FaultStack;
  let p: TestPartner;

  before(async () => {
    stack = await startFaultStack({});
    p = await newPartner();
  });

  after(async () => {
    await stack?.stop();
  });

  it(`${ITEMS} items: the resend lists every one, exactly ${ITEMS} invoices exist, all acknowledged`, async () => {
    const key = randomUUID();
    const body = { invoices: Array.from({ length: ITEMS }, () => invoiceBody(p)) };
    const headers = { ...p.headers, 'Idempotency-Key': key };
    const send = () => postJson(`${stack.base}/v1/partner/invoices/bulk`, headers, body);

    const first = send().then(
      (res) => ({ answered: res.status }),
      (err: Error) => ({ answered: `no answer (${err.message})` }),
    );
    await until('the batch stored and not yet answered', async () => (await Invoice.countDocuments({ smeId: p.sme.smeId })) > 0, 60_000, 10);
    await stack.killApi();
    const atKill = await Invoice.countDocuments({ smeId: p.sme.smeId });
    const firstOutcome = await first;
    console.log(`    [api-kill] SIGKILL with ${atKill} invoices stored; the first request got ${JSON.stringify(firstOutcome.answered)}`);
    expect(firstOutcome.answered, 'the kill landed before the answer').to.be.a('string');

    await stack.startApi();
    const restartedAt = Date.now();
    // The dead request's keys stay in flight until their lease runs out: items answer 409 idempotency_in_progress
    // until then, and the client resends.
    let res: JsonResponse | null = null;
    let resends = 0;
    await until('every item answered by a resend', async () => {
      res = await send();
      resends++;
      return res.status === 207 && res.body.summary.ok === ITEMS;
    }, 3 * 60_000, 2000);
    const final = res! as JsonResponse;
    const results = final.body.results as { ok: boolean; invoiceId: string; status: string }[];
    const ids = new Set(results.map((r) => r.invoiceId));
    const stored = await Invoice.countDocuments({ smeId: p.sme.smeId });
    console.log(`    [api-kill] after ${resends} resend(s), ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart: ${final.body.summary.ok} ok, ${ids.size} distinct ids, ${stored} stored`);
    expect(ids.size, 'distinct invoice ids in the answer').to.equal(ITEMS);
    expect(stored, 'invoices stored').to.equal(ITEMS);
    expect(results.every((r) => r.status === 'queued')).to.equal(true);

    await until(`all ${ITEMS} acknowledged`, async () => (await Invoice.countDocuments({ smeId: p.sme.smeId, status: 'acknowledged' })) === ITEMS, 5 * 60_000, 1000);
    const storedIds = (await Invoice.find({ smeId: p.sme.smeId }, { _id: 1 }).lean()).map((i) => i._id);
    expect(new Set(storedIds)).to.deep.equal(ids);
    await sleep(500);
    const replay = await send();
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body.results.map((r: { invoiceId: string }) => r.invoiceId)).to.deep.equal(results.map((r) => r.invoiceId));
    console.log('    [api-kill] all acknowledged; a further resend replays the same answer');
  });
});
