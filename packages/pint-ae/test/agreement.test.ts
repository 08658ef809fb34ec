// Native PINT-AE validator (src/rules) versus the official Schematron (../shared/pint-ae,
// run through SaxonJS by validate.mjs): same verdict and same set of fatal rule ids on every official
// example and on deterministic, seeded mutations of them. The official verdict is computed here, at
// test time; nothing is stored.
//
// Documents of 1,000 and 5,000 lines (mutations/large.ts) take SaxonJS minutes each (its time grows
// quadratically), so their official verdict comes from the same official stylesheets on Saxon-HE
// (bench/saxon, when Java and the Saxon-HE jar are installed), which is first checked to
// give SaxonJS's fatal ids on every official example and mutation.
//
// When the official engine stops with a dynamic XPath error (it throws: an amount that is not a
// number, an element given twice where a rule reads one value), the native validator must report
// `eval-error` on that document and the official throwing is its verdict: both reject it.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { EVAL_ERROR_ID, validatePintAeNative, type Finding } from '../src/rules';
import { generateMutants, KIND_NAMES, type Example } from './mutations/generator';
import { largeDocuments } from './mutations/large';
import { targetedMutants } from './mutations/targeted';
import { startSaxonHe, type SaxonHe } from '../bench/saxon/saxon-he';
import { EXAMPLES_DIR, OFFICIAL_VALIDATOR, SCHEMATRON_DIR } from './official';

const OFFICIAL = OFFICIAL_VALIDATOR;
const LARGE_MUTANTS_PER_DOCUMENT = 3;
const SEED = 20260522;
const MUTANTS_PER_EXAMPLE = 20;

interface OfficialFinding {
  id: string;
  flag: string;
  location: string;
  text: string;
}
type Official = (xml: string) => { fatal: OfficialFinding[]; warning: OfficialFinding[] };

interface Comparison {
  name: string;
  officialError?: string;
  officialIds: string[];
  nativeIds: string[];
  verdictAgrees: boolean;
  idsAgree: boolean;
  locationsAgree: boolean;
  locationDiff: string;
}

function loadExamples(): Example[] {
  const out: Example[] = [];
  const walk = (dir: string) => {
    for (const f of fs.readdirSync(dir).sort()) {
      const p = path.join(dir, f);
      if (fs.statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.xml')) out.push({ name: path.relative(EXAMPLES_DIR, p), xml: fs.readFileSync(p, 'utf8') });
    }
  };
  walk(EXAMPLES_DIR);
  return out;
}

const PREFIX: Record<string, string> = {
  'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2': 'cbc:',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2': 'cac:',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2': 'ext:',
};

/** Official location (/*:Invoice[namespace-uri()='…'][1]/*:X[namespace-uri()='…'][2]) -> /Invoice/cac:X[2]. */
function officialLocation(loc: string): string {
  return loc
    .replace(/\*:([\w.-]+)\[namespace-uri\(\)='([^']*)'\]/g, (_m, local: string, ns: string) => (PREFIX[ns] ?? '') + local)
    .replace(/^\/([\w.-]+)\[1\]/, '/$1');
}

/** Native location with every step indexed (/Invoice/cac:X -> /Invoice/cac:X[1]), foreign prefixes dropped. */
function nativeLocation(loc: string): string {
  const steps = loc.split('/').slice(1);
  return (
    '/' +
    steps
      .map((s, i) => {
        const step = /^(cbc|cac|ext):/.test(s) ? s : s.replace(/^[\w.-]+:/, '');
        return i === 0 || step.endsWith(']') ? step : `${step}[1]`;
      })
      .join('/')
  );
}

const idSet = (findings: { id: string }[]) => [...new Set(findings.map((f) => f.id))].sort();

function compare(name: string, xml: string, official: Official): Comparison {
  let report: ReturnType<Official> | undefined;
  let officialError: string | undefined;
  try {
    report = official(xml);
  } catch (e) {
    officialError = `${(e as { code?: string }).code ?? 'error'}: ${(e as Error).message}`.slice(0, 200);
  }
  return compareWith(name, xml, report, officialError);
}

/** The native verdict on `xml` against an official report (or the official engine's dynamic error). */
function compareWith(name: string, xml: string, report: { fatal: { id: string; location: string }[] } | undefined, officialError?: string): Comparison {
  const native = validatePintAeNative(xml);
  const nativeIds = idSet(native.fatal);
  const nativeEvalError = nativeIds.includes(EVAL_ERROR_ID);
  if (!report) {
    return {
      name,
      officialError,
      officialIds: [],
      nativeIds,
      verdictAgrees: nativeEvalError,
      idsAgree: nativeEvalError,
      locationsAgree: true,
      locationDiff: '',
    };
  }
  const officialIds = idSet(report.fatal);
  const verdictAgrees = officialIds.length > 0 === nativeIds.length > 0 && !nativeEvalError;
  const idsAgree = verdictAgrees && officialIds.join(' ') === nativeIds.join(' ');
  const o = report.fatal.map((f) => `${f.id} @ ${officialLocation(f.location)}`).sort();
  const n = native.fatal.map((f: Finding) => `${f.id} @ ${nativeLocation(f.location)}`).sort();
  const locationsAgree = o.join('\n') === n.join('\n');
  const locationDiff = locationsAgree ? '' : `official only: ${o.filter((x) => !n.includes(x)).join('; ')} | native only: ${n.filter((x) => !o.includes(x)).join('; ')}`;
  return { name, officialIds, nativeIds, verdictAgrees, idsAgree, locationsAgree, locationDiff };
}

function describeDisagreement(c: Comparison): string {
  if (c.officialError) return `${c.name}\n    official stopped with ${c.officialError}; native fatal ids [${c.nativeIds.join(', ')}] (expected ${EVAL_ERROR_ID})`;
  const missing = c.officialIds.filter((i) => !c.nativeIds.includes(i));
  const extra = c.nativeIds.filter((i) => !c.officialIds.includes(i));
  return `${c.name}\n    official [${c.officialIds.join(', ')}] native [${c.nativeIds.join(', ')}]; native misses [${missing.join(', ')}], native adds [${extra.join(', ')}]`;
}

function summary(label: string, results: Comparison[]): string {
  const verdicts = results.filter((c) => c.verdictAgrees).length;
  const ids = results.filter((c) => c.idsAgree).length;
  const pct = ((100 * verdicts) / Math.max(1, results.length)).toFixed(1);
  return `native/official agreement (${label}): ${verdicts}/${results.length} documents (${pct}%), fatal-id sets identical on ${ids}/${results.length}`;
}

/** The small corpus (official examples, random and rule-directed mutations), compared once with SaxonJS. */
const examples = loadExamples();
const mutants = generateMutants(examples, MUTANTS_PER_EXAMPLE, SEED);
const targeted = targetedMutants(examples);
let smallCorpus: Promise<{ exampleResults: Comparison[]; mutantResults: Comparison[]; targetedResults: Comparison[] }> | undefined;
function compareSmallCorpus(): NonNullable<typeof smallCorpus> {
  smallCorpus ??= (async () => {
    const mod = (await import(OFFICIAL)) as { validatePintAe: Official };
    return {
      exampleResults: examples.map((e) => compare(e.name, e.xml, mod.validatePintAe)),
      mutantResults: mutants.map((m) => compare(m.name, m.xml, mod.validatePintAe)),
      targetedResults: targeted.mutants.map((m) => compare(m.name, m.xml, mod.validatePintAe)),
    };
  })();
  return smallCorpus;
}

describe('PINT-AE native validator agrees with the official Schematron', function () {
  this.timeout(900_000);
  let exampleResults: Comparison[] = [];
  let mutantResults: Comparison[] = [];
  let targetedResults: Comparison[] = [];

  before(async function () {
    const started = Date.now();
    ({ exampleResults, mutantResults, targetedResults } = await compareSmallCorpus());
    const mutated = [...mutantResults, ...targetedResults];
    const all = [...exampleResults, ...mutated];
    const errors = mutated.filter((c) => c.officialError).length;
    const firedIds = new Set(all.flatMap((c) => c.officialIds));
    console.log(`      ${summary('official examples', exampleResults)}`);
    console.log(`      ${summary(`random mutations, seed ${SEED}`, mutantResults)}`);
    console.log(`      ${summary('rule-directed mutations', targetedResults)}`);
    console.log(`      ${summary('all', all)}`);
    console.log(
      `      (${mutants.length} random mutants of ${KIND_NAMES.length} kinds + ${targeted.mutants.length} rule-directed; ` +
        `${mutated.filter((c) => c.officialIds.length > 0 || c.officialError).length} rejected by the official rules, ${errors} of them with an official dynamic error; ` +
        `${firedIds.size} distinct fatal rule ids exercised; ${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
  });

  it('reads every official example (billing and selfbilling, invoices and credit notes)', () => {
    expect(examples.length).to.be.at.least(32);
    for (const dir of ['billing/inv', 'billing/cn', 'selfbilling/inv', 'selfbilling/cn']) {
      expect(examples.some((e) => e.name.startsWith(dir + path.sep) || e.name.startsWith(dir + '/')), dir).to.equal(true);
    }
  });

  it('gives the official verdict and fatal ids on every official example', () => {
    const bad = exampleResults.filter((c) => !c.idsAgree);
    expect(bad.map(describeDisagreement), 'disagreements').to.deep.equal([]);
  });

  it('gives the official verdict and fatal ids on at least 500 mutated examples', () => {
    expect(mutantResults.length).to.be.at.least(500);
    const bad = mutantResults.filter((c) => !c.idsAgree);
    if (bad.length) console.log(`      disagreements:\n      ${bad.map(describeDisagreement).join('\n      ')}`);
    expect(bad.length, `${bad.length} disagreements (listed above)`).to.equal(0);
  });

  it('gives the official verdict and fatal ids on every rule-directed mutation', () => {
    expect(targeted.unusable, 'targets that no longer apply to their example').to.deep.equal([]);
    const bad = targetedResults.filter((c) => !c.idsAgree);
    expect(bad.map(describeDisagreement), 'disagreements').to.deep.equal([]);
  });

  it('reports every fatal finding at the same element as the official rules', () => {
    const bad = [...exampleResults, ...mutantResults, ...targetedResults].filter((c) => c.idsAgree && !c.locationsAgree);
    expect(bad.map((c) => `${c.name}: ${c.locationDiff}`)).to.deep.equal([]);
  });

  it('covers the mutation kinds the issue lists', () => {
    const kinds = new Set(mutants.flatMap((m) => [...m.name.matchAll(/ ([a-z-]+): /g)].map((x) => x[1])));
    for (const k of ['amount-fils', 'amount-half-fils', 'party-remove', 'trn', 'type-code', 'line-category', 'breakdown-category', 'emirate', 'btae', 'document-currency', 'dates', 'duplicate', 'remove-mandatory']) {
      expect(kinds, k).to.include(k);
    }
  });
});

describe('PINT-AE native validator agrees with the official Schematron on 1,000- and 5,000-line documents', function () {
  this.timeout(900_000);
  const large = largeDocuments(examples);
  const largeMutants = generateMutants(large, LARGE_MUTANTS_PER_DOCUMENT, SEED);
  let saxonHe: SaxonHe | undefined;
  const referenceResults: { name: string; saxonJs: string; saxonHe: string }[] = [];
  const largeResults: Comparison[] = [];

  before(async function () {
    const started = await startSaxonHe(SCHEMATRON_DIR);
    if ('unavailable' in started) {
      console.log(`      Saxon-HE unavailable (${started.unavailable}): the 1,000- and 5,000-line documents are not compared`);
      this.skip();
    }
    saxonHe = started as SaxonHe;
    const t0 = Date.now();
    // the reference first: Saxon-HE and SaxonJS name the same fatal rules on the whole small corpus
    const small = await compareSmallCorpus();
    const smallDocs = [...examples, ...mutants, ...targeted.mutants];
    const smallResults = [...small.exampleResults, ...small.mutantResults, ...small.targetedResults];
    for (const [i, d] of smallDocs.entries()) {
      const c = smallResults[i];
      const r = await saxonHe.validate(d.xml);
      referenceResults.push({
        name: d.name,
        saxonJs: c.officialError ? 'dynamic error' : c.officialIds.join(' '),
        saxonHe: r.error !== undefined ? 'dynamic error' : idSet(r.fatal).join(' '),
      });
    }
    for (const d of [...large, ...largeMutants]) {
      const r = await saxonHe.validate(d.xml);
      largeResults.push(compareWith(d.name, d.xml, r.error === undefined ? r : undefined, r.error));
    }
    console.log(`      ${summary(`${large.length} documents of 1,000 and 5,000 lines and ${largeMutants.length} mutations of them, Saxon-HE ${saxonHe.version}`, largeResults)}`);
    console.log(`      (Saxon-HE agrees with SaxonJS on ${referenceResults.filter((r) => r.saxonJs === r.saxonHe).length}/${referenceResults.length} small documents; ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  });

  after(() => saxonHe?.close());

  it('Saxon-HE (the reference for large documents) gives the fatal ids SaxonJS gives, on every small document', () => {
    expect(referenceResults.length).to.be.at.least(500);
    const bad = referenceResults.filter((r) => r.saxonJs !== r.saxonHe).map((r) => `${r.name}: SaxonJS [${r.saxonJs}] Saxon-HE [${r.saxonHe}]`);
    expect(bad).to.deep.equal([]);
  });

  it('has documents of 1,000 and 5,000 lines, valid and invalid ones', () => {
    const lines = (xml: string) => (xml.match(/<cac:(InvoiceLine|CreditNoteLine)>/g) ?? []).length;
    expect(large.map((d) => lines(d.xml))).to.include.members([1000, 5000]);
    expect(largeResults.some((c) => c.officialIds.length === 0 && !c.officialError)).to.equal(true);
    expect(largeResults.some((c) => c.officialIds.length > 0)).to.equal(true);
  });

  it('gives the official verdict, fatal ids and locations on every large document and mutation', () => {
    const bad = largeResults.filter((c) => !c.idsAgree);
    expect(bad.map(describeDisagreement), 'disagreements').to.deep.equal([]);
    const misplaced = largeResults.filter((c) => c.idsAgree && !c.locationsAgree);
    expect(misplaced.map((c) => `${c.name}: ${c.locationDiff}`)).to.deep.equal([]);
  });
});
