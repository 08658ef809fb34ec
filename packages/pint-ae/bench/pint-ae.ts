// npm run bench:pint-ae — PINT-AE render + native validation against the official Schematron and
// against @e-invoice-eu/core, in one process on one core (Node runs this single-threaded).
//
// Prints, per document size (1, 10, 100, 1,000, 5,000 lines): our render time, native validation
// time, their sum, the official Schematron on SaxonJS (up to 100 lines only: it grows quadratically)
// and on Saxon-HE in a warm JVM (bench/saxon: what the phive and ISAITB validators run; when
// Java and the Saxon-HE jar are present), and the ratios to native; then our render time as a
// fraction of @e-invoice-eu/core producing UBL for an equivalent 10- and 100-line invoice from its own
// JSON format; then whether the performance targets below are met.
import path from 'node:path';
import type { InvoiceCreateBody } from '../src/model/invoice-types';
import { OFFICIAL_VALIDATOR, SCHEMATRON_DIR } from '../test/official';
import { sampleInvoice as body } from '../src/sample';
import { startSaxonHe } from './saxon/saxon-he';
import { computeTotals } from '../src/model/totals';
import { renderInvoice } from '../src/render';
import { ElementPool, parseXml } from '../src/rules/xml';
import { ruleEvaluations } from './rule-evaluations';

type Report = { fatal: { id: string }[]; warning: unknown[] };
type Validator = (xml: string) => Report;

const SIZES = [1, 10, 100, 1000, 5000];
const OFFICIAL_MAX_LINES = 100;
/** Turns native and Saxon-HE take at each size (three at 5,000 lines, where Saxon-HE needs 1.5 s per validation). */
const ROUNDS = 5;
/** Untimed run of each size before an engine's sizes are timed (see main). */
const WARM_UP_MS = 400;
/** Elements reused by the bench's own parse timings (as the native validator's pool). */
const PARSE_POOL = new ElementPool(1 << 17);

/** The same invoice in @e-invoice-eu/core's internal format (UBL, EN 16931 customization). */
function einvoiceEuData(b: InvoiceCreateBody): unknown {
  const t = computeTotals(b);
  const cur = { currency: 'AED' };
  const money = (v: string) => v;
  const cat = (code: string, percent: string | null, lineLevel = false) => ({
    'cbc:ID': code,
    ...(percent !== null ? { 'cbc:Percent': percent } : {}),
    ...(code === 'E' && !lineLevel ? { 'cbc:TaxExemptionReason': 'Certain financial services' } : {}),
    'cac:TaxScheme': { 'cbc:ID': 'VAT' },
  });
  const party = (p: InvoiceCreateBody['seller'], endpoint: string, seller: boolean) => ({
    'cbc:EndpointID': endpoint,
    'cbc:EndpointID@schemeID': '0235',
    'cac:PostalAddress': {
      'cbc:StreetName': p.address!.line1,
      'cbc:CityName': p.address!.city,
      'cbc:CountrySubentity': 'DXB',
      'cac:Country': { 'cbc:IdentificationCode': 'AE' },
    },
    // its schema wants an array for the seller (VAT and tax registration) and an object for the buyer
    'cac:PartyTaxScheme': seller
      ? [{ 'cbc:CompanyID': p.trn!, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }]
      : { 'cbc:CompanyID': p.trn!, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } },
    'cac:PartyLegalEntity': { 'cbc:RegistrationName': p.name },
  });
  const codeOf = (c: string | undefined) => (c === 'zero_rated_healthcare' ? 'Z' : c === 'exempt_financial' ? 'E' : 'S');
  return {
    'ubl:Invoice': {
      'cbc:CustomizationID': 'urn:cen.eu:en16931:2017',
      'cbc:ProfileID': 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
      'cbc:ID': b.number,
      'cbc:IssueDate': b.issueDate,
      'cbc:DueDate': b.dueDate!,
      'cbc:InvoiceTypeCode': '380',
      'cbc:DocumentCurrencyCode': 'AED',
      'cbc:BuyerReference': 'PO-1',
      'cac:AccountingSupplierParty': { 'cac:Party': party(b.seller, '1001234567', true) },
      'cac:AccountingCustomerParty': { 'cac:Party': party(b.buyer, '1009876543', false) },
      'cac:PaymentMeans': [
        { 'cbc:PaymentMeansCode': '30', 'cac:PayeeFinancialAccount': { 'cbc:ID': b.paymentAccountIdentifier! } },
      ],
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': money(t.tax),
          'cbc:TaxAmount@currencyID': cur.currency,
          'cac:TaxSubtotal': t.breakdown.map((x) => ({
            'cbc:TaxableAmount': x.taxable,
            'cbc:TaxableAmount@currencyID': cur.currency,
            'cbc:TaxAmount': x.tax,
            'cbc:TaxAmount@currencyID': cur.currency,
            'cac:TaxCategory': cat(x.category, x.percent),
          })),
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': t.lineExtension,
        'cbc:LineExtensionAmount@currencyID': cur.currency,
        'cbc:TaxExclusiveAmount': t.taxExclusive,
        'cbc:TaxExclusiveAmount@currencyID': cur.currency,
        'cbc:TaxInclusiveAmount': t.taxInclusive,
        'cbc:TaxInclusiveAmount@currencyID': cur.currency,
        'cbc:PayableAmount': t.payable,
        'cbc:PayableAmount@currencyID': cur.currency,
      },
      'cac:InvoiceLine': b.lines.map((l, i) => ({
        'cbc:ID': String(i + 1),
        'cbc:InvoicedQuantity': String(l.quantity),
        'cbc:InvoicedQuantity@unitCode': 'H87',
        'cbc:LineExtensionAmount': t.lines[i].lineExtension,
        'cbc:LineExtensionAmount@currencyID': cur.currency,
        ...(l.discountAmount || l.chargeAmount
          ? {
              'cac:AllowanceCharge': [
                ...(l.discountAmount
                  ? [{ 'cbc:ChargeIndicator': 'false', 'cbc:AllowanceChargeReasonCode': '95', 'cbc:Amount': l.discountAmount.toFixed(2), 'cbc:Amount@currencyID': 'AED' }]
                  : []),
                ...(l.chargeAmount
                  ? [{ 'cbc:ChargeIndicator': 'true', 'cbc:AllowanceChargeReasonCode': 'ABK', 'cbc:Amount': l.chargeAmount.toFixed(2), 'cbc:Amount@currencyID': 'AED' }]
                  : []),
              ],
            }
          : {}),
        'cac:Item': {
          'cbc:Description': l.description,
          'cbc:Name': l.description,
          'cac:ClassifiedTaxCategory': cat(codeOf(l.taxCategory), codeOf(l.taxCategory) === 'S' ? '5' : '0', true),
        },
        'cac:Price': { 'cbc:PriceAmount': String(l.unitPrice), 'cbc:PriceAmount@currencyID': 'AED' },
      })),
    },
  };
}

/**
 * Time per call in ms: after a warm-up, calls run in batches of about 1/10 of `budgetMs` until the
 * budget is spent (at least `minBatches`); the result is the median of the batch means, so a burst of
 * other work on the machine does not skew it.
 */
async function time(fn: () => unknown, budgetMs: number, minBatches = 5): Promise<number> {
  let t0 = process.hrtime.bigint();
  await fn();
  await fn();
  const estimate = Math.max(Number(process.hrtime.bigint() - t0) / 2e6, 0.001);
  const perBatch = Math.max(1, Math.round(budgetMs / 10 / estimate));
  const means: number[] = [];
  const start = process.hrtime.bigint();
  while (means.length < minBatches || Number(process.hrtime.bigint() - start) / 1e6 < budgetMs) {
    t0 = process.hrtime.bigint();
    for (let i = 0; i < perBatch; i++) await fn();
    means.push(Number(process.hrtime.bigint() - t0) / 1e6 / perBatch);
  }
  means.sort((a, b) => a - b);
  return means[Math.floor(means.length / 2)];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (v: number) => (v < 1 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(0)) + ' ms';
const pad = (s: string, n: number) => s.padStart(n);

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..');
  process.chdir(root); // validate.mjs resolves saxon-js from the working directory
  let native: Validator | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    native = (require('../src/rules') as { validatePintAeNative: Validator }).validatePintAeNative;
  } catch (err) {
    console.log(`native validator unavailable (src/rules): ${(err as Error).message}`);
  }
  const officialModule = OFFICIAL_VALIDATOR;
  let official: Validator | undefined;
  try {
    official = ((await import(officialModule)) as { validatePintAe: Validator }).validatePintAe;
  } catch (err) {
    console.log(`official Schematron unavailable (${officialModule}): ${(err as Error).message}`);
  }

  console.log(`PINT-AE benchmark — Node ${process.version}, ${process.platform}/${process.arch}, one process on one core`);
  console.log('Documents: tax invoices with S, Z and E lines, line discounts and charges (render includes the pre-submit checks).\n');

  // Each component is timed on all sizes before the next is loaded: SaxonJS keeps a large heap that
  // slows the garbage collection of everything timed after it (in the service the official pass runs
  // in its own worker thread, if at all).
  const docs = SIZES.map((n) => {
    const b = body(n);
    return { n, body: b, xml: renderInvoice(b) };
  });
  const rows: { lines: number; render: number; nativeMs: number; officialMs?: number; saxonHeMs?: number; saxonHeRatio?: number; parseMs?: number; bytes: number }[] = docs.map((d) => ({
    lines: d.n,
    render: NaN,
    nativeMs: NaN,
    bytes: d.xml.length,
  }));
  // Each engine first runs every size for a while, untimed: the first size timed (1 line) was
  // otherwise measured while the JIT (V8's, or the JVM's for Saxon-HE) was still compiling the
  // code the larger sizes run, which made Saxon-HE's 1-line figure larger than its 10-line one.
  for (const d of docs) await time(() => renderInvoice(d.body), WARM_UP_MS);
  for (const [i, d] of docs.entries()) rows[i].render = await time(() => renderInvoice(d.body), d.n >= 1000 ? 3000 : 1500);
  // Saxon-HE runs in its own process (a JVM), timed there: it does not share this heap.
  const saxonHe = await startSaxonHe(SCHEMATRON_DIR).catch((err: Error) => ({ unavailable: err.message }));
  const saxonHeNote = 'unavailable' in saxonHe ? `Saxon-HE not run: ${saxonHe.unavailable}` : `Saxon-HE ${saxonHe.version}, warm JVM`;
  const saxon = 'unavailable' in saxonHe ? undefined : saxonHe;
  if (native) for (const d of docs) await time(() => native!(d.xml), WARM_UP_MS);
  if (saxon) for (const d of docs) if (d.n <= 1000) await saxon.time(d.xml, WARM_UP_MS); // 5,000 lines: too long to warm up on
  for (const [i, d] of docs.entries()) {
    const r = native?.(d.xml);
    if (r?.fatal.length) console.log(`  ! native validator: ${r.fatal.length} fatal finding(s) on the ${d.n}-line document: ${r.fatal.map((f) => f.id).join(', ')}`);
    const s = await saxon?.validate(d.xml);
    if (s && (s.error || s.fatal.length)) console.log(`  ! Saxon-HE: ${s.error ?? s.fatal.map((f) => f.id).join(', ')} on the ${d.n}-line document`);
    // Native and Saxon-HE take turns, ROUNDS times each: on a shared machine the speed available
    // changes within a minute, and timing one engine's sizes after the other's put those swings
    // into the ratio. The ratio
    // reported is the median of the rounds' ratios, each from two timings taken back to back.
    const rounds = d.n >= 5000 ? 3 : ROUNDS;
    const nativeBudget = (d.n >= 1000 ? 3000 : 1500) / rounds;
    const saxonBudget = (d.n >= 5000 ? 8000 : d.n >= 1000 ? 4000 : 2000) / rounds;
    const nativeMs: number[] = [];
    const saxonMs: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      if (native) nativeMs.push(await time(() => native!(d.xml), nativeBudget));
      if (saxon) saxonMs.push(await saxon.time(d.xml, saxonBudget));
      if (native && saxon) ratios.push(saxonMs[round] / nativeMs[round]);
    }
    // parsing alone (into a pool, as the native validator parses): the floor of any validation
    rows[i].parseMs = await time(() => parseXml(d.xml, PARSE_POOL), d.n >= 1000 ? 1500 : 750);
    if (native) rows[i].nativeMs = median(nativeMs);
    if (saxon) rows[i].saxonHeMs = median(saxonMs);
    if (native && saxon) rows[i].saxonHeRatio = median(ratios);
  }
  saxon?.close();
  if (official) {
    for (const [i, d] of docs.entries()) {
      if (d.n > OFFICIAL_MAX_LINES) continue;
      const r = official(d.xml); // also the warm-up (loads the compiled stylesheets)
      if (r.fatal.length) console.log(`  ! official Schematron: ${r.fatal.length} fatal finding(s) on the ${d.n}-line document: ${r.fatal.map((f) => f.id).join(', ')}`);
      rows[i].officialMs = await time(() => official!(d.xml), d.n >= 100 ? 1 : 3000, d.n >= 100 ? 3 : 5);
    }
  }

  console.log(`official Schematron on SaxonJS (Node) and on ${saxonHeNote}\n`);
  console.log('lines | XML size |   render | native validate | render+native |  SaxonJS | SaxonJS / native | Saxon-HE | Saxon-HE / native');
  console.log('------+----------+----------+-----------------+---------------+----------+------------------+----------+------------------');
  for (const r of rows) {
    console.log(
      [
        pad(String(r.lines), 5),
        pad(`${(r.bytes / 1024).toFixed(0)} KiB`, 8),
        pad(ms(r.render), 8),
        pad(ms(r.nativeMs), 15),
        pad(ms(r.render + r.nativeMs), 13),
        pad(r.officialMs === undefined ? 'not run' : ms(r.officialMs), 8),
        pad(r.officialMs === undefined ? '-' : `${(r.officialMs / r.nativeMs).toFixed(0)}x`, 16),
        pad(r.saxonHeMs === undefined ? 'not run' : ms(r.saxonHeMs), 8),
        pad(r.saxonHeRatio === undefined ? '-' : `${r.saxonHeRatio.toFixed(1)}x`, 17),
      ].join(' | '),
    );
  }
  console.log(`\nSaxon-HE / native is the median of ${ROUNDS} rounds' ratios (3 at 5,000 lines), native and Saxon-HE timed in turns.`);
  console.log(
    `SaxonJS is run up to ${OFFICIAL_MAX_LINES} lines only: its rules compare every line with all lines,`,
  );
  console.log('so its time grows quadratically (about 216 s for 1,000 lines on a 2-core machine).');
  const o10 = rows.find((r) => r.lines === 10)!.officialMs;
  const o100 = rows.find((r) => r.lines === 100)!.officialMs;
  if (o10 && o100) console.log(`Here: 10 -> 100 lines multiplied the official time by ${(o100 / o10).toFixed(1)} (x10 would be linear).`);

  // @e-invoice-eu/core, UBL from its own JSON format.
  let theirs: Record<number, number> = {};
  const theirSizes: Record<number, number> = {};
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { InvoiceService } = require('@e-invoice-eu/core') as typeof import('@e-invoice-eu/core');
    const silent = { log() {}, warn() {}, error() {} };
    const service = new InvoiceService(silent);
    for (const n of [10, 100]) {
      const data = einvoiceEuData(body(n)) as Parameters<typeof service.generate>[0];
      const out = await service.generate(data, { format: 'UBL', lang: 'en-us' });
      if (typeof out !== 'string' || !out.includes('<cac:InvoiceLine>')) throw new Error('@e-invoice-eu/core produced no UBL invoice');
      theirSizes[n] = out.length;
      theirs[n] = await time(() => service.generate(data, { format: 'UBL', lang: 'en-us' }), 2000);
    }
  } catch (err) {
    console.log(`\n@e-invoice-eu/core could not be timed: ${(err as Error).message}`);
    theirs = {};
  }
  if (theirs[10]) {
    console.log('\n@e-invoice-eu/core (UBL from its internal JSON format) vs our render, same invoice content:');
    for (const n of [10, 100]) {
      const ours = rows.find((r) => r.lines === n)!.render;
      console.log(`  ${pad(String(n), 3)} lines: @e-invoice-eu/core ${ms(theirs[n])} (${(theirSizes[n] / 1024).toFixed(0)} KiB of UBL), ours ${ms(ours)} -> ours takes ${((ours / theirs[n]) * 100).toFixed(3)} % of its time (${(theirs[n] / ours).toFixed(0)}x faster)`);
    }
  }

  // Performance targets. Every invoice created is rendered and validated, so both must stay cheap
  // for ordinary invoices and grow linearly for large ones, and the native validator must be far
  // faster than the official Schematron it replaces on that path.
  const r10 = rows.find((r) => r.lines === 10)!;
  const r100 = rows.find((r) => r.lines === 100)!;
  const r1000 = rows.find((r) => r.lines === 1000)!;
  const perLine = (r: typeof r100) => ({ render: (r.render / r.lines) * 1000, native: (r.nativeMs / r.lines) * 1000, both: ((r.render + r.nativeMs) / r.lines) * 1000 });
  const p100 = perLine(r100);
  const p1000 = perLine(r1000);
  const check = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  const linear = (a: number, b: number) => `${check(b / a < 1.5)} (${a.toFixed(1)} us -> ${b.toFixed(1)} us per line, x${(b / a).toFixed(2)})`;
  console.log('\nTargets:');
  if (theirs[10]) console.log(`  faster than @e-invoice-eu/core (10 and 100 lines):      ${check(r10.render < theirs[10] && r100.render < theirs[100])}`);
  if (o10) console.log(`  native >= 100x faster than official at 10 lines:        ${check(o10 / r10.nativeMs >= 100)} (${(o10 / r10.nativeMs).toFixed(0)}x)`);
  console.log(`  render + native validate < 1 ms for 10 lines:           ${check(r10.render + r10.nativeMs < 1)} (${ms(r10.render + r10.nativeMs)}; render alone ${ms(r10.render)})`);
  console.log(`  render + native validate < 100 ms for 1,000 lines:      ${check(r1000.render + r1000.nativeMs < 100)} (${ms(r1000.render + r1000.nativeMs)}; render alone ${ms(r1000.render)})`);
  console.log(`  linear growth 100 -> 1,000 lines, render + native:      ${linear(p100.both, p1000.both)}`);
  console.log(`                                    render alone:        ${linear(p100.render, p1000.render)}`);
  console.log(`                                    native alone:        ${linear(p100.native, p1000.native)}`);

  // Issue 14 (validator-speed): linear in lines, and an order of magnitude ahead of Saxon-HE.
  const r5000 = rows.find((r) => r.lines === 5000)!;
  const p5000 = perLine(r5000);
  const within = (a: number, b: number) => `${check(b / a <= 1.3)} (${a.toFixed(1)} us -> ${b.toFixed(1)} us per line, x${(b / a).toFixed(2)})`;
  console.log('\nTargets (validator-speed):');
  console.log(`  native per line at 1,000 lines within 1.3x of 100:      ${within(p100.native, p1000.native)}`);
  console.log(`  native per line at 5,000 lines within 1.3x of 100:      ${within(p100.native, p5000.native)}`);
  console.log(`  render per line at 1,000 lines within 1.3x of 100:      ${within(p100.render, p1000.render)}`);
  console.log(`  render per line at 5,000 lines within 1.3x of 100:      ${within(p100.render, p5000.render)}`);
  console.log(`  native validate < 0.25 ms for 10 lines:                 ${check(r10.nativeMs < 0.25)} (${ms(r10.nativeMs)})`);
  console.log(`  native validate < 10 ms for 1,000 lines:                ${check(r1000.nativeMs < 10)} (${ms(r1000.nativeMs)})`);
  console.log(`  render < 5 ms for 1,000 lines:                          ${check(r1000.render < 5)} (${ms(r1000.render)})`);
  if (!native || 'unavailable' in saxonHe) console.log(`  native >= 20x faster than Saxon-HE at every size:       not measured (${'unavailable' in saxonHe ? saxonHe.unavailable : 'no native validator'})`);
  else {
    const ratios = rows.map((r) => `${r.lines}: ${r.saxonHeRatio!.toFixed(1)}x`).join(', ');
    console.log(`  native >= 20x faster than Saxon-HE at every size:       ${check(rows.every((r) => r.saxonHeRatio! >= 20))} (${ratios})`);
    // what 20x leaves for a whole validation, beside what parsing alone takes
    const budgets = rows.map((r) => `${r.lines}: ${ms(r.saxonHeMs! / 20)}, parse ${ms(r.parseMs!)} (${((r.parseMs! / (r.saxonHeMs! / 20)) * 100).toFixed(0)} %)`).join('; ');
    console.log(`    (Saxon-HE / 20 per size, and our parse alone: ${budgets})`);
    // and what that leaves per unit of rule work, the floor any evaluator of the same rules faces
    const perUnit = docs.map((d, i) => {
      const left = rows[i].saxonHeMs! / 20 - rows[i].parseMs!;
      const { asserts, matches } = ruleEvaluations(d.xml);
      const each = left > 0 ? `${((left * 1e6) / (asserts + matches)).toFixed(0)} ns each` : 'nothing left';
      return `${d.n}: ${ms(Math.max(left, 0))} for ${asserts} asserts + ${matches} context tests = ${each}`;
    });
    console.log(`    (left for the rules after the parse: ${perUnit.join('; ')})`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
