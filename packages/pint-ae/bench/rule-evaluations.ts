// How much rule evaluation one native validation does: the asserts evaluated and the context
// matches tried (bench:pint-ae divides what 20x Saxon-HE leaves after the parse by these).
// Counted on copies of the rules in a RuleSet of their own: the service's rule set, already
// compiled and warm, is neither touched nor slowed.
import { RULES, profileOf } from '../src/rules';
import { RuleSet, type Findings, type Rule } from '../src/rules/engine';
import { parseXml } from '../src/rules/xml';

export interface Evaluations {
  asserts: number;
  matches: number;
}

/** The counts, and the findings of the counted run (the same as the service's, or the count is off). */
export function ruleEvaluations(xml: string): Evaluations & { findings: Findings } {
  const n: Evaluations = { asserts: 0, matches: 0 };
  const counted = RULES.map(
    (r): Rule => ({
      ...r,
      match: r.match && ((el, ctx) => (n.matches++, r.match!(el, ctx))),
      asserts: r.asserts.map((a) => ({ id: a.id, test: (el, ctx) => (n.asserts++, a.test(el, ctx)) })),
    }),
  );
  const findings = new RuleSet(counted).run(parseXml(xml), profileOf(xml));
  return { ...n, findings };
}
