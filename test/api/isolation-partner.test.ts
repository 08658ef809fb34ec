// Issue 13 item 3, Partner API (beyond the GET/DELETE/retry/document/list checks of invoices-lifecycle.test.ts):
// partner B and a second SME of partner A get 404 on A's evidence, webhook deliveries and replay, see none of A's
// invoices through A's list cursor, and A's Idempotency-Key never hands them A's stored answer.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { connectSme } from '../../src/services/admin';
import { call, type ApiResponse } from '../helpers/http';
import { invoiceBody, postInvoice } from '../helpers/invoices';
import { expectNoLeak } from '../helpers/leaks';
import { newPartner, randomTrn, type TestPartner } from '../helpers/partners';

function expectNotFound(res: ApiResponse, secrets: string[]): void {
  expect(res.status, res.text).to.equal(404);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
  expectNoLeak(res, secrets);
}

describe('isolation: partner A, partner B and a second SME of A (Partner API)', () => {
  let owner: TestPartner;
  let callers: [string, TestPartner][];
  let secrets: string[];
  let invoiceId: string;
  let firstKey: string;
  let firstBody: unknown;

  before(async () => {
    owner = await newPartner();
    const stranger = await newPartner();
    const sister = await connectSme({ partnerId: owner.partnerId, trn: randomTrn(), name: 'Sister Co LLC' });
    callers = [
      ['partner B', stranger],
      ["A's second SME", { ...owner, sme: sister, headers: { ...owner.keyHeaders, 'x-erp-partner-secret': sister.connectionSecret } }],
    ];
    secrets = [owner.apiSecret, owner.sme.connectionSecret, owner.webhookSecret, stranger.apiSecret, stranger.sme.connectionSecret, sister.connectionSecret];
    firstKey = randomUUID();
    firstBody = invoiceBody(owner);
    const created = await postInvoice(owner, firstBody, firstKey);
    expect(created.status, created.text).to.equal(201);
    invoiceId = created.body.invoiceId;
    await postInvoice(owner, invoiceBody(owner)); // a second one, so the first list page has a cursor
  });

  it("A's evidence, webhook deliveries and webhook replay: 404 for everyone else", async () => {
    for (const [, caller] of callers) {
      expectNotFound(await call('GET', `/v1/partner/invoices/${invoiceId}/evidence`, { headers: caller.headers }), secrets);
      expectNotFound(await call('GET', `/v1/partner/invoices/${invoiceId}/webhook-deliveries`, { headers: caller.headers }), secrets);
      expectNotFound(await call('POST', `/v1/partner/invoices/${invoiceId}/replay-webhook`, { headers: { ...caller.headers, 'Idempotency-Key': randomUUID() } }), secrets);
    }
    expect((await call('GET', `/v1/partner/invoices/${invoiceId}/evidence`, { headers: owner.headers })).status).to.equal(200);
  });

  it("A's list cursor lists none of A's invoices for anyone else", async () => {
    const page1 = await call('GET', '/v1/partner/invoices?limit=1', { headers: owner.headers });
    expect(page1.body.nextCursor, page1.text).to.be.a('string');
    const ours = (await call('GET', '/v1/partner/invoices?limit=100', { headers: owner.headers })).body.data.map((i: { invoiceId: string }) => i.invoiceId);
    for (const [who, caller] of callers) {
      const res = await call('GET', `/v1/partner/invoices?limit=100&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { headers: caller.headers });
      expectNoLeak(res, secrets);
      expect(res.status, `${who}: ${res.text}`).to.be.oneOf([200, 400]);
      if (res.status === 200) expect(res.body.data.map((i: { invoiceId: string }) => i.invoiceId), who).not.to.include.members(ours);
    }
  });

  it("A's Idempotency-Key with A's very body: the others get their own answer, never A's stored one", async () => {
    for (const [who, caller] of callers) {
      const res = await postInvoice(caller, firstBody, firstKey);
      expect(res.headers.get('idempotent-replayed'), who).to.equal(null);
      expect(res.text, who).not.to.include(invoiceId);
      expect(res.status, `${who}: ${res.text}`).to.equal(403); // A's SME TRN is not theirs: trn_mismatch
      expectNoLeak(res, secrets);
      const bulk = await call('POST', '/v1/partner/invoices/bulk', { headers: { ...caller.headers, 'Idempotency-Key': firstKey }, json: { invoices: [firstBody] } });
      expect(bulk.text, who).not.to.include(invoiceId);
      expectNoLeak(bulk, secrets);
    }
    const again = await postInvoice(owner, firstBody, firstKey);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.invoiceId).to.equal(invoiceId);
  });
});
