// The double-arithmetic fast path of the line amounts (render's hot path) against the BigInt path,
// and decimalPlaces of numbers against decimal.js, on random values of many magnitudes.
import { expect } from 'chai';
import { Decimal, decimalPlaces, numberText } from '../src/model/money';
import { taxCategoryInfo } from '../src/model/tax-categories';
import { exactLineAmounts, smallLineAmounts } from '../src/model/totals';
import type { InvoiceLine } from '../src/model/invoice-types';

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A decimal of random magnitude and 0-9 decimals, sometimes at half a fils or beyond 2^53. */
function decimalOf(rnd: () => number): number {
  const decimals = Math.floor(rnd() * 10);
  const magnitude = 10 ** Math.floor(rnd() * (rnd() < 0.8 ? 8 : 18));
  return Number((rnd() * magnitude).toFixed(decimals));
}

const CATEGORIES = ['standard_5', 'zero_rated_export', 'exempt_financial', 'out_of_scope', 'reverse_charge_electronic_devices'];

describe('line amounts on doubles (fast path)', () => {
  it('gives the BigInt path\'s amounts and texts wherever it answers', () => {
    const rnd = random(14);
    let answered = 0;
    for (let i = 0; i < 100_000; i++) {
      const line = {
        description: 'x',
        quantity: decimalOf(rnd),
        unitPrice: decimalOf(rnd),
        taxCategory: CATEGORIES[i % CATEGORIES.length],
        ...(rnd() < 0.4 ? { discountAmount: rnd() < 0.5 ? decimalOf(rnd) : Math.round(rnd() * 1000) / 100 } : {}),
        ...(rnd() < 0.4 ? { chargeAmount: rnd() < 0.5 ? decimalOf(rnd) : Math.round(rnd() * 1000) / 100 } : {}),
      } as InvoiceLine;
      const info = taxCategoryInfo(line.taxCategory)!;
      const q = numberText(line.quantity);
      const p = numberText(line.unitPrice);
      const small = smallLineAmounts(line, info, q, p);
      if (!small) continue;
      answered++;
      expect(small, JSON.stringify(line)).to.deep.equal(exactLineAmounts(line, info, q, p));
    }
    expect(answered).to.be.greaterThan(40_000);
  });

  it('follows the official double rounding on every half-fils product the same way', () => {
    const info = taxCategoryInfo('standard_5')!;
    let adjusted = 0;
    for (let quantity = 1; quantity <= 60; quantity++) {
      for (let k = 1; k < 4000; k += 2) {
        const unitPrice = Number((k * 0.005).toFixed(3)); // x.xx5: every odd quantity gives half a fils
        const line = { description: 'x', quantity, unitPrice, taxCategory: 'standard_5', ...(k % 3 === 0 ? { chargeAmount: 0.75 } : {}), ...(k % 5 === 0 ? { discountAmount: 0.1 } : {}) } as InvoiceLine;
        const q = numberText(quantity);
        const p = numberText(unitPrice);
        const small = smallLineAmounts(line, info, q, p);
        const exact = exactLineAmounts(line, info, q, p);
        expect(small, JSON.stringify(line)).to.deep.equal(exact);
        // decimal half-up of the exact amount (in mils), to count the lines where the official rule differs
        const mils = Math.round(quantity * k * 5 + (line.chargeAmount ? 750 : 0) - (line.discountAmount ? 100 : 0));
        if (BigInt(Math.floor(mils / 10) + (mils % 10 >= 5 ? 1 : 0)) !== exact.net) adjusted++;
      }
    }
    expect(adjusted).to.be.greaterThan(100); // the neighbouring-fils branch was exercised
  });

  it('answers for ordinary lines, half fils included', () => {
    const line = { description: 'x', quantity: 7, unitPrice: 0.145, taxCategory: 'standard_5' } as InvoiceLine;
    const info = taxCategoryInfo('standard_5')!;
    const small = smallLineAmounts(line, info, '7', '0.145');
    expect(small).to.deep.equal(exactLineAmounts(line, info, '7', '0.145'));
    expect(small!.netText).to.equal('1.01'); // the official rule's double rounding (see totals.ts)
  });
});

describe('decimalPlaces of numbers without decimal.js', () => {
  it('agrees with decimal.js', () => {
    const rnd = random(15);
    for (let i = 0; i < 100_000; i++) {
      const v = (rnd() < 0.5 ? -1 : 1) * decimalOf(rnd) * (rnd() < 0.05 ? 1e-12 : 1);
      expect(decimalPlaces(v), String(v)).to.equal(new Decimal(v).decimalPlaces());
    }
    for (const v of [0, -0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 0.1 + 0.2]) expect(decimalPlaces(v), String(v)).to.equal(new Decimal(v).decimalPlaces());
  });
});
