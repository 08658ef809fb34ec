// The invoices that Tenant credit and debit notes reference (referencedInvoiceNumber), looked up by number in
// the caller's scope (tenant and active mode: SPEC 1 partitions modes), with what has been credited against
// them already. Two reads for any number of notes: one for the originals, one for their credit notes.
import { Invoice } from '../db/models';
import { tenantNumbers, type TenantOwner } from '../domain/owner';
import { type InvoiceCreateBody, computeAmounts } from '@einvoice/pint-ae';
import type { ReferencedOriginal } from '../domain/tenant-invoice-types';

const NOTE_TYPES = ['credit_note', 'debit_note'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The number a body's note references, when it is a (standard-shape) credit or debit note. */
function referencedNumber(input: unknown): string | undefined {
  if (!isObject(input) || !NOTE_TYPES.includes(input.invoiceType as string)) return undefined;
  const n = input.referencedInvoiceNumber;
  return typeof n === 'string' && n.trim() ? n.trim() : undefined;
}

/** Own numbers of the bodies: a note never counts against the original it is itself (a CSV draft replaced). */
function ownNumber(input: unknown): string | undefined {
  return isObject(input) && typeof input.number === 'string' ? input.number.trim() : undefined;
}

/**
 * The originals the note bodies among `inputs` reference, by number: issue date, total, and the totals of the
 * credit notes against each that are not rejected (drafts count: they may still be sent), leaving out the
 * notes the inputs themselves are.
 */
export async function referencedOriginals(caller: TenantOwner, inputs: readonly unknown[]): Promise<Map<string, ReferencedOriginal>> {
  const numbers = [...new Set(inputs.map(referencedNumber).filter((n): n is string => n !== undefined))];
  const found = new Map<string, ReferencedOriginal>();
  if (!numbers.length) return found;
  const space = tenantNumbers(caller);
  const originals = await Invoice.find({ ...space, number: { $in: numbers } }, { number: 1, issueDate: 1, 'body.lines': 1 }).lean<
    { number: string; issueDate: string; body: Pick<InvoiceCreateBody, 'lines'> }[]
  >();
  if (!originals.length) return found;
  const own = new Set(inputs.map(ownNumber).filter((n): n is string => n !== undefined));
  const notes = await Invoice.find(
    { ...space, tenantInvoiceType: 'credit_note', 'body.precedingInvoiceNumber': { $in: originals.map((o) => o.number) }, status: { $ne: 'rejected' } },
    { number: 1, 'body.precedingInvoiceNumber': 1, 'body.lines': 1 },
  ).lean<{ number: string; body: Pick<InvoiceCreateBody, 'lines' | 'precedingInvoiceNumber'> }[]>();
  for (const o of originals) {
    let credited = 0n;
    for (const n of notes) if (n.body.precedingInvoiceNumber === o.number && !own.has(n.number)) credited += computeAmounts(n.body).taxInclusive;
    found.set(o.number, { issueDate: o.issueDate, grossFils: computeAmounts(o.body).taxInclusive, creditedFils: credited });
  }
  return found;
}
