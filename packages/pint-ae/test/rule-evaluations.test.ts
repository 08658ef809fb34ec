// The bench's count of rule work (bench/rule-evaluations.ts) divides the 20x budget by it:
// it must count what the engine evaluates, on copies that judge as the service's rules do.
import { expect } from 'chai';
import { renderInvoice } from '../src/render';
import { validatePintAeNative } from '../src/rules';
import { sampleInvoice as benchBody } from '../src/sample';
import { ruleEvaluations } from '../bench/rule-evaluations';

describe('bench: rule evaluations per validation', () => {
  it('grows by the same count with each line of the same kind', () => {
    // the bench invoice repeats its lines' pattern every 20 lines (tax category of 4, discount of 5)
    const [a, b, c] = [20, 40, 60].map((n) => renderInvoice(benchBody(n)));
    const [ea, eb, ec] = [a, b, c].map(ruleEvaluations);
    expect(ea.asserts).to.be.greaterThan(0);
    expect(ea.matches).to.be.greaterThan(0);
    expect(eb.asserts - ea.asserts).to.be.greaterThan(0).and.equal(ec.asserts - eb.asserts);
    expect(eb.matches - ea.matches).to.be.greaterThan(0).and.equal(ec.matches - eb.matches);
  });

  it('finds what the service finds, on a valid invoice and on one with broken totals', () => {
    const valid = renderInvoice(benchBody(3));
    const broken = valid.replace(/<cbc:PayableAmount currencyID="AED">[^<]*</, '<cbc:PayableAmount currencyID="AED">1.00<');
    expect(broken).not.to.equal(valid);
    for (const xml of [valid, broken]) expect(ruleEvaluations(xml).findings).to.deep.equal(validatePintAeNative(xml));
    expect(ruleEvaluations(broken).findings.fatal).not.to.deep.equal([]);
  });
});
