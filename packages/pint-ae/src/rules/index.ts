/**
 * Native PINT-AE validator: the business rules of both official PINT-AE Schematron files
 * (PINT-UBL-validation-preprocessed.sch and PINT-jurisdiction-aligned-rules.sch, release 2026.5)
 * evaluated in TypeScript over a parsed UBL Invoice or CreditNote, with the official rule ids,
 * messages and evaluation semantics (see engine.ts and xpath.ts). Pure code, no I/O.
 *
 *   const { fatal, warning } = validatePintAeNative(xml);
 *
 * A document is rejected by the official rules when `fatal` is not empty. One extra id can appear:
 * `eval-error`, where the official Schematron would stop with a dynamic XPath error (for example an
 * amount that is not a number, or a field given twice where the rule reads one value).
 *
 * Imports: the modules the rules run through bind what they import from each other once, at load
 * (`import * as xpathModule from './xpath'; const { decOpt } = xpathModule;`). The service and the
 * benches run under tsx, which compiles each module to CommonJS with every export behind a getter,
 * re-wrapped in a second getter on import: a plain `import { decOpt }` costs two getter calls at
 * every use, and the rules make tens of thousands of such calls per long invoice (what binding
 * once saves: README, "Why the code looks like this"). This relies on the modules importing each
 * other without cycles (else a binding could be taken before it is set): checked by
 * test/module-graph.test.ts.
 */
import { RuleSet, type Finding, type Findings, type Profile, type Rule } from './engine';
import { allowanceChargeRules } from './groups/allowances-charges';
import { codeListRules } from './groups/code-list-rules';
import { documentRules } from './groups/document';
import { identifierRules } from './groups/identifiers';
import { lineRules } from './groups/lines';
import { partyRules } from './groups/parties';
import { taxRules } from './groups/tax-category-rules';
import { totalRules } from './groups/totals-rules';
import { CBC } from './dsl';
import { ElementPool, parseXml, type XmlDocument } from './xml';

export type { Finding, Findings, Profile } from './engine';
export { EVAL_ERROR_ID } from './engine';
export { XmlParseError, parseXml } from './xml';

/** Every official rule (context + asserts), grouped by topic in ./groups. */
export const RULES: readonly Rule[] = [
  ...identifierRules,
  ...allowanceChargeRules,
  ...partyRules,
  ...lineRules,
  ...documentRules,
  ...totalRules,
  ...taxRules,
  ...codeListRules,
];

const ruleSet = new RuleSet(RULES);

/**
 * Which official artefact applies. The official runner (validate.mjs) picks the self-billing
 * Schematron when the raw text matches `<cbc:CustomizationID>[^<]*selfbilling`; this does the same,
 * so the two agree even on documents that spell the element differently.
 */
export function profileOf(xml: string): Profile {
  // /<cbc:CustomizationID>[^<]*selfbilling/ found with string searches: the regex read every
  // character of the document. The search is for the tag's tail from its 'z', a letter rare in
  // UBL (indexOf skips ahead fast to a rare first character, and stops at every '<', which
  // starts every tag), then the head is checked in place.
  for (let at = xml.indexOf(TAG_TAIL); at >= 0; at = xml.indexOf(TAG_TAIL, at + 1)) {
    const start = at - TAG_HEAD.length;
    if (start < 0 || !xml.startsWith(TAG_HEAD, start)) continue;
    const from = at + TAG_TAIL.length;
    const lt = xml.indexOf('<', from);
    if (xml.slice(from, lt < 0 ? xml.length : lt).includes('selfbilling')) return 'selfbilling';
  }
  return 'billing';
}

/** `<cbc:CustomizationID>`, split before its 'z'. */
const TAG_HEAD = '<cbc:Customi';
const TAG_TAIL = 'zationID>';

/** Profile of an already parsed document: its cbc:CustomizationID says `selfbilling`. */
export function profileOfParsed(doc: XmlDocument): Profile {
  for (const el of doc.elements) {
    if (el.local === 'CustomizationID' && el.ns === CBC && (el.texts[0] ?? '').includes('selfbilling')) return 'selfbilling';
  }
  return 'billing';
}

/** Validates a parsed document. */
export function validateParsed(doc: XmlDocument, profile: Profile = profileOfParsed(doc)): Findings {
  return ruleSet.run(doc, profile);
}

/**
 * Validates one PINT-AE UBL document (Invoice or CreditNote, billing or self-billing) with the
 * native implementation of both official Schematron files. Throws XmlParseError when `xml` is not
 * well-formed XML.
 */
export function validatePintAeNative(xml: string): { fatal: Finding[]; warning: Finding[] } {
  // the tree does not outlive this call (findings are plain strings), so it may be parsed into the pool
  return validateParsed(parseXml(xml, POOL), profileOf(xml));
}

/**
 * Elements reused from one validation to the next (see ElementPool): up to ~130,000 (a 4,000-line
 * invoice), kept for the life of the process once a document that long has been seen (its size:
 * README, "Why the code looks like this").
 */
const POOL = new ElementPool(1 << 17);

/**
 * The report on one UBL document, as `einvoice validate` prints it and POST /v1/partner/documents/validate answers
 * it: `{fatal, warning}`, each finding `{id, location, text}`. Throws XmlParseError when `xml` is not well-formed.
 */
export function validateDocument(xml: string): Findings {
  const { fatal, warning } = validatePintAeNative(xml);
  return { fatal, warning };
}
