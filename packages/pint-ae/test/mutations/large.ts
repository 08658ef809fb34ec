/**
 * Documents of 1,000 and 5,000 lines for the agreement corpus: the bench invoice rendered at that
 * size (valid), and official examples grown to that size by repeating their lines with fresh line
 * IDs (the totals then no longer match: both validators must name the same broken rules).
 */
import { renderInvoice } from '../../src/render';
import { sampleInvoice as benchBody } from '../../src/sample';
import type { Example } from './generator';

export const LARGE_SIZES = [1000, 5000] as const;

/** The official examples that are grown: an invoice, a credit note and a self-billing invoice. */
export const GROWN_EXAMPLES = ['billing/inv/Standard tax invoice.xml', 'billing/cn/Standard tax credit Note.xml', 'selfbilling/inv/Self Billing.xml'];

/** `xml` with its (Invoice|CreditNote)Line elements repeated, in order, until there are `lines` of them. */
export function growLines(xml: string, lines: number): string {
  const re = /<cac:(InvoiceLine|CreditNoteLine)>[\s\S]*?<\/cac:\1>/g;
  const found = [...xml.matchAll(re)];
  if (found.length === 0) throw new Error('no lines to grow');
  const first = found[0].index!;
  const last = found[found.length - 1];
  const end = last.index! + last[0].length;
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const line = found[i % found.length][0];
    out.push(line.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>${i + 1}</cbc:ID>`));
  }
  return xml.slice(0, first) + out.join('\n    ') + xml.slice(end);
}

export function largeDocuments(examples: readonly Example[]): Example[] {
  const out: Example[] = [];
  for (const n of LARGE_SIZES) {
    out.push({ name: `bench invoice, ${n} lines`, xml: renderInvoice(benchBody(n)) });
    for (const name of GROWN_EXAMPLES) {
      const ex = examples.find((e) => e.name === name);
      if (!ex) throw new Error(`official example ${name} not found`);
      out.push({ name: `${name} grown to ${n} lines`, xml: growLines(ex.xml, n) });
    }
  }
  return out;
}
