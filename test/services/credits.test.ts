// The credits service against the real store: the balance never goes below zero and a run is charged once,
// whatever the concurrency (the conditional update and the spend claim are what the store contract proves safe).
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { toApplicationFailure } from '../../activities/failures';
import { reserveDeliveryCredit } from '../../activities/invoice-pipeline';
import { CreditLedgerEntry, Invoice, SmeConnection } from '../../src/db/models';
import { spendEntryId, type CreditOwner } from '../../src/domain/credits';
import { ServiceError } from '../../src/domain/errors';
import { creditsOverview, recentEntries, spend, spendForDelivery, topUp } from '../../src/services/credits';
import { newPartner, type TestPartner } from '../helpers/partners';

const balanceOf = async (owner: CreditOwner) => (await SmeConnection.findById(owner.id, { credits: 1 }).lean())!.credits;
const spendsOf = (owner: CreditOwner) => CreditLedgerEntry.find({ ownerKind: owner.kind, ownerId: owner.id, kind: 'spend' }).lean();

async function ownerWith(credits: number): Promise<{ p: TestPartner; owner: CreditOwner }> {
  const p = await newPartner({ mode: 'live' });
  const owner: CreditOwner = { kind: 'sme', id: p.sme.smeId };
  if (credits) await topUp(owner, credits);
  return { p, owner };
}

/** A stored invoice of the partner's SME, as the pipeline sees it at its credit step. */
async function storedInvoice(p: TestPartner, mode: 'test' | 'live', run = 1): Promise<string> {
  const _id = randomUUID();
  await Invoice.create({
    _id,
    partnerId: p.partnerId,
    smeId: p.sme.smeId,
    mode,
    number: `INV-${_id.slice(0, 8)}`,
    numberScope: `sme:${p.sme.smeId}`,
    numberPeriod: 2025,
    issueDate: '2025-01-15',
    sellerTrn: p.sme.trn,
    status: 'validated',
    run,
    body: {},
  });
  return _id;
}

async function refusal(work: Promise<unknown>): Promise<ServiceError> {
  try {
    await work;
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a ServiceError');
}

describe('credits service (real store)', function () {
  this.timeout(60_000);

  describe('topUp', () => {
    it('adds to the balance, answers it, and writes a topup ledger entry with the balance after', async () => {
      const { owner } = await ownerWith(0);
      expect(await topUp(owner, 5)).to.deep.equal({ balance: 5 });
      expect(await topUp(owner, 3)).to.deep.equal({ balance: 8 });
      const entries = await recentEntries(owner, 10);
      expect(entries.map(({ kind, amount, balanceAfter }) => ({ kind, amount, balanceAfter }))).to.deep.equal([
        { kind: 'topup', amount: 3, balanceAfter: 8 },
        { kind: 'topup', amount: 5, balanceAfter: 5 },
      ]);
      expect(await creditsOverview(owner)).to.include({ balance: 8 });
    });

    it('20 concurrent top-ups of 1: balance 20 and the balances after are exactly 1..20', async () => {
      const { owner } = await ownerWith(0);
      const answers = await Promise.all(Array.from({ length: 20 }, () => topUp(owner, 1)));
      expect(answers.map((a) => a.balance).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await balanceOf(owner)).to.equal(20);
    });

    it('refuses an unknown SME (404) and an amount that is not a whole number from 1 (400, path amount)', async () => {
      const unknown = await refusal(topUp({ kind: 'sme', id: 'no-such-sme' }, 1));
      expect([unknown.status, unknown.code]).to.deep.equal([404, 'not_found']);
      expect(unknown.message).to.contain('sme:connect');
      const { owner } = await ownerWith(0);
      for (const bad of [0, -1, 1.5, Number.NaN, 10_000_000]) {
        const err = await refusal(topUp(owner, bad));
        expect([err.status, err.code], String(bad)).to.deep.equal([400, 'validation_failed']);
        expect((err.meta!.errors as { path: string }[])[0].path).to.equal('amount');
      }
      expect(await balanceOf(owner)).to.equal(0);
      expect(await recentEntries(owner)).to.deep.equal([]);
    });
  });

  describe('spend', () => {
    it('50 concurrent spends on a balance of 10: exactly 10 succeed, balance 0, 10 spend entries with balances 9..0', async () => {
      const { owner } = await ownerWith(10);
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => spend(owner, { invoiceId: randomUUID(), run: 1 })));
      expect(outcomes.filter((o) => o === 'spent')).to.have.length(10);
      expect(outcomes.filter((o) => o === 'no_credit')).to.have.length(40);
      expect(await balanceOf(owner)).to.equal(0);
      const spends = await spendsOf(owner);
      expect(spends).to.have.length(10);
      expect(spends.map((s) => s.balanceAfter).sort((a, b) => a! - b!)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('the same invoice and run spends once, sequentially and concurrently; the next run spends again', async () => {
      const { owner } = await ownerWith(5);
      const invoiceId = randomUUID();
      expect(await spend(owner, { invoiceId, run: 1 })).to.equal('spent');
      expect(await spend(owner, { invoiceId, run: 1 })).to.equal('already_spent');
      expect(await balanceOf(owner)).to.equal(4);

      // 20 attempts at once: one claims and spends; the rest see the claim (settled, or in flight: retry later).
      const other = randomUUID();
      const settled = await Promise.allSettled(Array.from({ length: 20 }, () => spend(owner, { invoiceId: other, run: 1 })));
      const fulfilled = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      const rejected = settled.flatMap((s) => (s.status === 'rejected' ? [(s.reason as ServiceError).code] : []));
      expect(fulfilled.filter((o) => o === 'spent')).to.have.length(1);
      expect(fulfilled.filter((o) => o !== 'spent')).to.satisfy((rest: string[]) => rest.every((o) => o === 'already_spent'));
      expect(rejected).to.satisfy((codes: string[]) => codes.every((c) => c === 'credit_spend_in_progress'));
      expect(await spend(owner, { invoiceId: other, run: 1 })).to.equal('already_spent');
      expect(await balanceOf(owner)).to.equal(3);

      expect(await spend(owner, { invoiceId, run: 2 })).to.equal('spent');
      expect(await balanceOf(owner)).to.equal(2);
      expect((await spendsOf(owner)).map((s) => s._id).sort()).to.deep.equal([spendEntryId(invoiceId, 1), spendEntryId(invoiceId, 2), spendEntryId(other, 1)].sort());
    });

    it('no credit: nothing spent and no ledger entry; after a top-up the same run spends', async () => {
      const { owner } = await ownerWith(0);
      const invoiceId = randomUUID();
      expect(await spend(owner, { invoiceId, run: 1 })).to.equal('no_credit');
      expect(await spendsOf(owner)).to.deep.equal([]);
      expect(await balanceOf(owner)).to.equal(0);
      await topUp(owner, 1);
      expect(await spend(owner, { invoiceId, run: 1 })).to.equal('spent');
      expect(await balanceOf(owner)).to.equal(0);
    });

    it('a claim left open by a dead attempt: in flight at first (retry), then counted as spent, never charged again', async () => {
      const { owner } = await ownerWith(3);
      const invoiceId = randomUUID();
      const claim = { _id: spendEntryId(invoiceId, 1), ownerKind: 'sme' as const, ownerId: owner.id, kind: 'spend' as const, amount: 1, invoiceId, run: 1 };
      await CreditLedgerEntry.create({ ...claim, at: new Date() });
      expect((await refusal(spend(owner, { invoiceId, run: 1 }))).code).to.equal('credit_spend_in_progress');
      await CreditLedgerEntry.updateOne({ _id: claim._id }, { $set: { at: new Date(Date.now() - 5 * 60_000) } });
      expect(await spend(owner, { invoiceId, run: 1 })).to.equal('already_spent');
      expect(await balanceOf(owner)).to.equal(3);
    });
  });

  describe('spendForDelivery and the reserveDeliveryCredit activity', () => {
    it('live: one credit per run however often the activity runs; test mode is free; the balance shows in the ledger', async () => {
      const { p, owner } = await ownerWith(2);
      const live = await storedInvoice(p, 'live');
      const results = await Promise.allSettled([reserveDeliveryCredit({ invoiceId: live }), reserveDeliveryCredit({ invoiceId: live }), reserveDeliveryCredit({ invoiceId: live })]);
      // An attempt that met the claim in flight fails retryable (Temporal runs it again); none charges twice.
      for (const r of results) if (r.status === 'rejected') expect(toApplicationFailure(r.reason)).to.include({ type: 'credit_spend_in_progress', nonRetryable: false });
      expect(await reserveDeliveryCredit({ invoiceId: live })).to.deep.equal({ ok: true });
      expect(await balanceOf(owner)).to.equal(1);

      const test = await storedInvoice(p, 'test');
      expect(await spendForDelivery({ invoiceId: test })).to.equal('free');
      expect(await balanceOf(owner)).to.equal(1);

      const second = await storedInvoice(p, 'live');
      expect(await reserveDeliveryCredit({ invoiceId: second })).to.deep.equal({ ok: true });
      const third = await storedInvoice(p, 'live');
      expect(await reserveDeliveryCredit({ invoiceId: third })).to.deep.equal({ ok: false });
      expect(await balanceOf(owner)).to.equal(0);
      const spends = await recentEntries(owner);
      expect(spends.filter((e) => e.kind === 'spend').map((e) => e.invoiceId).sort()).to.deep.equal([live, second].sort());
    });

    it('a deleted invoice is the non-retryable invoice_not_found the workflow ends quietly on', async () => {
      try {
        await reserveDeliveryCredit({ invoiceId: randomUUID() });
        expect.fail('expected a failure');
      } catch (err) {
        expect(toApplicationFailure(err)).to.include({ type: 'invoice_not_found', nonRetryable: true });
      }
    });
  });
});
