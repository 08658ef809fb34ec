/**
 * Generates src/codelists.ts and src/rules/messages.ts from the official PINT-AE
 * artefacts (../shared/pint-ae: schematron/{billing,selfbilling}/*.sch and codelists/*.gc).
 *
 *   npx tsx scripts/gen-rule-tables.ts [PINT_AE_DIR]
 *
 * Which codes are valid is taken from the .sch itself (the values the official rules really test),
 * not from the genericode files, which can differ. Each list literal is checked to be a plain
 * single-spaced token list, so that set membership is equivalent to the rule's
 * `contains(' list ', concat(' ', normalize-space(.), ' '))` test.
 *
 * The genericode files only supply the names the renderer writes next to a code (exemption reason,
 * goods type, payment means); where the .sch tests the same list, the script checks that both agree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseXml } from '../src/rules/xml';
import { OFFICIAL_DIR } from '../test/official';

const SCH = 'http://purl.oclc.org/dsdl/schematron';
const GC = 'http://docs.oasis-open.org/codelist/ns/genericode/1.0/';
const dir = path.resolve(process.argv[2] ?? OFFICIAL_DIR);
const srcDir = path.join(__dirname, '../src');
const FILES = ['PINT-UBL-validation-preprocessed.sch', 'PINT-jurisdiction-aligned-rules.sch'];

interface AssertInfo {
  id: string;
  flag: string;
  kind: 'assert' | 'report';
  test: string;
  text: string;
  file: string;
  pattern: string;
  context: string;
}

function load(profile: string): AssertInfo[] {
  const out: AssertInfo[] = [];
  for (const file of FILES) {
    const doc = parseXml(fs.readFileSync(path.join(dir, 'schematron', profile, file), 'utf8'));
    for (const pattern of doc.root.children(SCH, 'pattern')) {
      for (const rule of pattern.children(SCH, 'rule')) {
        for (const a of rule.kids) {
          if (a.ns !== SCH || (a.local !== 'assert' && a.local !== 'report')) continue;
          out.push({
            id: a.attr('id')!,
            flag: a.attr('flag') ?? 'fatal',
            kind: a.local as 'assert' | 'report',
            test: a.attr('test')!,
            text: a.value.replace(/[ \t\r\n]+/g, ' ').trim(),
            file,
            pattern: pattern.attr('id')!,
            context: rule.attr('context')!,
          });
        }
      }
    }
  }
  return out;
}

const billing = load('billing');
const selfbilling = load('selfbilling');
if (billing.length !== selfbilling.length) throw new Error('billing and selfbilling differ in size');
for (let i = 0; i < billing.length; i++) {
  const b = billing[i];
  const s = selfbilling[i];
  if (b.id !== s.id || b.text !== s.text || b.flag !== s.flag || b.context !== s.context) throw new Error(`profiles differ at ${b.id}`);
  if (b.test !== s.test && b.id !== 'ibr-cl-01') throw new Error(`profiles differ in the test of ${b.id}`);
}

/** The list literal of `contains('<list>', concat(' ', ...))` in a test, nth occurrence. */
function containsList(test: string, nth = 0): string[] {
  const re = /contains\(\s*'( [^']*? )'\s*,\s*concat\(/g;
  const found: string[] = [];
  for (let m = re.exec(test); m; m = re.exec(test)) found.push(m[1]);
  const lit = found[nth];
  if (lit === undefined) throw new Error(`no list #${nth} in ${test.slice(0, 80)}`);
  const tokens = lit.trim().split(' ');
  if (` ${tokens.join(' ')} ` !== lit || tokens.some((t) => t === '')) throw new Error(`list is not single-spaced: ${lit.slice(0, 60)}`);
  return tokens;
}

function byId(list: AssertInfo[], id: string): AssertInfo {
  const a = list.find((x) => x.id === id);
  if (!a) throw new Error(`assert ${id} not found`);
  return a;
}

function same(name: string, ...lists: string[][]): string[] {
  for (const l of lists) if (l.join(' ') !== lists[0].join(' ')) throw new Error(`${name}: lists differ`);
  return lists[0];
}

const t = (id: string) => byId(billing, id).test;
const lists: [string, string, string[]][] = [
  ['ISO4217', 'ISO 4217 currency codes (ibr-cl-03, ibr-cl-04, ibr-cl-05)', same('ISO4217', containsList(t('ibr-cl-03')), containsList(t('ibr-cl-04')), containsList(t('ibr-cl-05')))],
  ['UNCL1153', 'UNCL 1153 reference qualifiers, invoiced object scheme (ibr-cl-07)', containsList(t('ibr-cl-07'))],
  ['ICD', 'ISO 6523 ICD identifier schemes (ibr-cl-10, ibr-cl-11, ibr-cl-21, ibr-cl-26)', same('ICD', containsList(t('ibr-cl-10')), containsList(t('ibr-cl-11')), containsList(t('ibr-cl-21')), containsList(t('ibr-cl-26')))],
  ['UNCL7143', 'UNCL 7143 item classification list ids (ibr-cl-13)', containsList(t('ibr-cl-13'))],
  ['ISO3166', 'ISO 3166-1 country codes (ibr-cl-14, ibr-cl-15, ibr-011-ae, ibr-013-ae)', same('ISO3166', containsList(t('ibr-cl-14')), containsList(t('ibr-cl-15')), containsList(t('ibr-011-ae')), containsList(t('ibr-013-ae')))],
  ['UNCL4461', 'UNCL 4461 payment means (ibr-cl-16)', containsList(t('ibr-cl-16'))],
  ['UNCL5189', 'UNCL 5189 allowance reasons (ibr-cl-19)', containsList(t('ibr-cl-19'))],
  ['UNCL7161', 'UNCL 7161 charge reasons (ibr-cl-20)', containsList(t('ibr-cl-20'))],
  ['UNECE_REC20', 'UN/ECE Recommendation 20 + 21 unit codes (ibr-cl-23)', containsList(t('ibr-cl-23'))],
  ['EAS', 'CEF EAS endpoint schemes (ibr-cl-25)', containsList(t('ibr-cl-25'))],
  ['CREDIT_REASON', 'PINT-AE credit note reasons, BTAE-03 (ibr-001-ae)', containsList(t('ibr-001-ae'))],
  ['FREQ_BILLING', 'PINT-AE frequency of billing, BTAE-06 (ibr-005-ae)', containsList(t('ibr-005-ae'))],
  ['TAX_CATEGORY', 'PINT-AE aligned tax category codes (ibr-139-ae)', containsList(t('ibr-139-ae'))],
  ['GOODS_TYPE', 'PINT-AE goods/services subject to reverse charge, BTAE-09 (ibr-006-ae)', containsList(t('ibr-006-ae'))],
  ['INVOICE_TYPE_BILLING', 'Invoice type codes, billing profile (ibr-cl-01)', containsList(t('ibr-cl-01'), 0)],
  ['CREDIT_NOTE_TYPE_BILLING', 'Credit note type codes, billing profile (ibr-cl-01)', containsList(t('ibr-cl-01'), 1)],
  ['INVOICE_TYPE_SELFBILLING', 'Invoice type codes, selfbilling profile (ibr-cl-01)', containsList(byId(selfbilling, 'ibr-cl-01').test, 0)],
  ['CREDIT_NOTE_TYPE_SELFBILLING', 'Credit note type codes, selfbilling profile (ibr-cl-01)', containsList(byId(selfbilling, 'ibr-cl-01').test, 1)],
];

// ibr-010-ae / ibr-012-ae: the passport country regex alternatives
function regexAlternatives(test: string): string[] {
  const m = /\^\(([A-Z|]+)\)\$/.exec(test);
  if (!m) throw new Error('passport regex not found');
  return m[1].split('|');
}
lists.push(['PASSPORT_COUNTRY', 'Passport issuing countries as the ibr-010-ae / ibr-012-ae regex lists them', same('PASSPORT', regexAlternatives(t('ibr-010-ae')), regexAlternatives(t('ibr-012-ae')))]);
// ibr-cl-24: mime codes as a chain of @mimeCode = '...'
const mimes = [...t('ibr-cl-24').matchAll(/@mimeCode = '([^']+)'/g)].map((m) => m[1]);
lists.push(['MIME_CODE', 'Attachment MIME codes (ibr-cl-24)', mimes]);

// ibr-128-ae: the emirate codes, as the XPath sequence compared with cbc:CountrySubentity
function emirateCodes(test: string): string[] {
  const m = /cbc:CountrySubentity = \(((?:"[A-Z]+"(?:, )?)+)\)/.exec(test);
  if (!m) throw new Error('emirate sequence not found in ibr-128-ae');
  return [...m[1].matchAll(/"([A-Z]+)"/g)].map((x) => x[1]);
}
const emirates = emirateCodes(t('ibr-128-ae'));

/** The rows of a genericode file as id -> name, in file order. */
function genericodeNames(file: string): [string, string][] {
  const doc = parseXml(fs.readFileSync(path.join(dir, 'codelists', file), 'utf8'));
  const rows = doc.root.child(GC, 'SimpleCodeList')?.children(GC, 'Row') ?? [];
  const out: [string, string][] = [];
  for (const row of rows) {
    const col = (ref: string) => row.children(GC, 'Value').find((v) => v.attr('ColumnRef') === ref)?.child(GC, 'SimpleValue')?.value;
    const id = col('id');
    const name = col('name');
    if (id === undefined || name === undefined) throw new Error(`${file}: a row without id or name`);
    out.push([id, name]);
  }
  if (out.length === 0) throw new Error(`${file}: no rows`);
  return out;
}

/** Every code of a genericode list must be one the official rule accepts (and, with `all`, every accepted code must be listed). */
function checkAgainstSch(file: string, names: [string, string][], schList: string[], all: boolean): void {
  const sch = new Set(schList);
  const gc = new Set(names.map(([id]) => id));
  const extra = [...gc].filter((c) => !sch.has(c));
  const missing = all ? schList.filter((c) => !gc.has(c)) : [];
  if (extra.length || missing.length) throw new Error(`${file} and the .sch differ: only in .gc ${extra.join(' ')}; only in .sch ${missing.join(' ')}`);
}

/**
 * Corrections of misspelt names in the official lists. The name is printed on the invoice
 * (cbc:TaxExemptionReason) and no rule tests it, so the renderer writes the correct spelling. The
 * script fails when the official text changes, so a corrected release makes the entry go away.
 */
const NAME_CORRECTIONS: Record<string, Record<string, [official: string, corrected: string]>> = {
  'Aligned-TaxExemptionCodes.gc': { 'DL8.46.1': ['Cetrain financial services', 'Certain financial services'] },
};
function corrected(file: string, names: [string, string][]): [string, string][] {
  const fixes = NAME_CORRECTIONS[file] ?? {};
  for (const [id, [official]] of Object.entries(fixes)) {
    const row = names.find(([c]) => c === id);
    if (!row || row[1] !== official) throw new Error(`${file}: ${id} is no longer named '${official}': drop its entry in NAME_CORRECTIONS`);
  }
  return names.map(([id, name]) => [id, fixes[id]?.[1] ?? name]);
}

const listByName = (name: string) => lists.find(([n]) => n === name)![2];
const goodsTypes = genericodeNames('GoodsType.gc');
checkAgainstSch('GoodsType.gc', goodsTypes, listByName('GOODS_TYPE'), true);
const exemptionReasons = corrected('Aligned-TaxExemptionCodes.gc', genericodeNames('Aligned-TaxExemptionCodes.gc'));
const paymentMeans = genericodeNames('UNCL4461.gc');
checkAgainstSch('UNCL4461.gc', paymentMeans, listByName('UNCL4461'), false);

const quote = (s: string) => (s.includes("'") && !/["\\]/.test(s) ? `"${s}"` : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`);
const key = (s: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s) ? s : quote(s));
const entries = (names: [string, string][]) => names.map(([id, name]) => `  ${key(id)}: ${quote(name)},`).join('\n');

function wrap(tokens: string[], indent: string, width = 100): string {
  const lines: string[] = [];
  let cur = '';
  for (const tok of tokens) {
    if (cur && cur.length + tok.length + 1 > width) {
      lines.push(cur);
      cur = '';
    }
    cur = cur ? `${cur} ${tok}` : tok;
  }
  if (cur) lines.push(cur);
  return lines.map((l) => indent + l).join('\n');
}

const header = (from: string, what: string) =>
  `// GENERATED by scripts/gen-rule-tables.ts from the official PINT-AE ${from} (release 2026.5).\n// ${what}\n// Do not edit by hand: rerun the script.\n`;

let codelists =
  header(
    'Schematron and genericode lists',
    'Code lists exactly as the official rules test them, and the names the official lists give codes.\n// The one source of PINT-AE code lists for the renderer, the pre-submit checks and the native rules.',
  ) + '\n';
codelists += `/** A code list: membership equals the rule's contains(' list ', concat(' ', normalize-space(.), ' ')). */\nexport type CodeList = ReadonlySet<string>;\n\nfunction list(codes: string): CodeList {\n  return new Set(codes.trim().split(/\\s+/));\n}\n`;
for (const [name, doc, tokens] of lists) {
  if (name === 'MIME_CODE') {
    codelists += `\n/** ${doc} (${tokens.length}) */\nexport const ${name}: CodeList = new Set([\n${tokens.map((x) => `  '${x}',`).join('\n')}\n]);\n`;
  } else {
    codelists += `\n/** ${doc} (${tokens.length}) */\nexport const ${name}: CodeList = list(\`\n${wrap(tokens, '  ')}\n\`);\n`;
  }
}
codelists += `\n/** Emirate codes for cbc:CountrySubentity of a UAE address (ibr-128-ae) (${emirates.length}) */\nexport const EMIRATE_CODES = [${emirates.map(quote).join(', ')}] as const;\nexport type EmirateCode = (typeof EMIRATE_CODES)[number];\n`;
codelists += `\n/** Names of the BTAE-09 goods types (codelists/GoodsType.gc; same codes as GOODS_TYPE) */\nexport const GOODS_TYPE_NAMES = {\n${entries(goodsTypes)}\n} as const;\nexport type GoodsTypeCode = keyof typeof GOODS_TYPE_NAMES;\n`;
codelists += `\n/** Names of the exemption reasons of category E (codelists/Aligned-TaxExemptionCodes.gc; no rule tests these codes) */\nexport const EXEMPTION_REASON_NAMES = {\n${entries(exemptionReasons)}\n} as const;\nexport type ExemptionReasonCode = keyof typeof EXEMPTION_REASON_NAMES;\n`;
codelists += `\n/** Names of the payment means codes the official list names (codelists/UNCL4461.gc); other UNCL4461 codes have none */\nexport const PAYMENT_MEANS_NAMES: Readonly<Record<string, string>> = {\n${entries(paymentMeans)}\n};\n`;
fs.writeFileSync(path.join(srcDir, 'codelists.ts'), codelists);

let messages = header('Schematron', 'Assert ids, flags and texts of both official Schematron files, in file order.') + '\n';
messages += `export interface AssertMeta {\n  flag: string;\n  kind: 'assert' | 'report';\n  /** Which official file: 'ubl' = PINT-UBL-validation-preprocessed.sch, 'ae' = PINT-jurisdiction-aligned-rules.sch. */\n  file: 'ubl' | 'ae';\n  text: string;\n}\n\nexport const ASSERTS: Readonly<Record<string, AssertMeta>> = {\n`;
for (const a of billing) {
  const text = `'${a.text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  messages += `  '${a.id}': { flag: '${a.flag}', kind: '${a.kind}', file: '${a.file.startsWith('PINT-UBL') ? 'ubl' : 'ae'}', text: ${text} },\n`;
}
messages += '};\n';
fs.writeFileSync(path.join(srcDir, 'rules', 'messages.ts'), messages);
console.log(`wrote codelists.ts (${lists.length} code lists, 1 emirate list, 3 name lists) and rules/messages.ts (${billing.length} asserts)`);
