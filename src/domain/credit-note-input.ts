// POST /v1/credit-notes (SPEC 2.2 "Credit-note body", 4.2): the body's shape, and the credit note's internal
// invoice body built from the original invoice's stored body. Pure code: no I/O.
//
// Decisions (where SPEC 2.2 and 4.2 leave room; also in docs/decisions/0031-tenant-credit-notes.md):
// - The body names an amount, not lines. SPEC 2.2 rule 2: a credit note carries positive quantities and prices
//   (the document type conveys the reversal), so the negative grossAmount becomes positive amounts:
//   - |grossAmount| = the original's VAT-inclusive total: a full credit, the original's lines unchanged.
//   - otherwise, when every line of the original has one taxCategory and vatRate: one line
//     "Credit: <reason>", quantity 1, whose net makes net + VAT exactly |grossAmount| (VAT computed as the
//     pipeline computes it). Some gross amounts have no such net (5 % of the net is rounded to fils, so the
//     gross moves by 1 or 2 fils per fils of net): totals_mismatch, naming the reachable neighbours.
//   - a partial credit of an original with several categories or rates: invalid_body (which rate would it
//     reverse?); send the full amount, or POST /v1/invoices a credit_note with lines.
// - |grossAmount| may not exceed what is left to credit: the original's total less the totals of earlier
//   credit notes against it (the caller counts them; see services/tenant-credit-notes.ts).
// - reason: free text. ReturnOfGoods, PriceCorrection, OtherAdjustment map as on POST /v1/invoices
//   (TENANT_REASON_CODE_MAP: 04, 03, 05); any other text is 05 (other) and is kept as the partial line's
//   description and in the stored input.
// - issueDate may not precede the original's issue date (a note cannot adjust an invoice not yet issued).
import Joi from 'joi';
import { isIsoDate, str } from './schema-helpers';
import { type CreditNoteReasonCode, type FieldError, type InvoiceCreateBody, type InvoiceLine, decimalPlaces, fils, filsText, taxCategoryInfo, computeAmounts } from '@einvoice/pint-ae';
import { TENANT_REASON_CODE_MAP, DEFAULT_TENANT_UNIT } from './tenant-invoice-input';
import { TENANT_REASON_CODES } from './tenant-invoice-types';

/** SPEC 2.2 Credit-note body. */
export interface CreditNoteInput {
  originalInvoiceNumber: string;
  issueDate: string;
  creditNoteNumber: string;
  reason: string;
  totals: { grossAmount: number };
}

const isoDate = () =>
  str().custom((v: string, h) => (isIsoDate(v) ? v : h.error('any.invalid')), 'YYYY-MM-DD date').messages({ 'any.invalid': '{{#label}} must be a date YYYY-MM-DD' });

export const creditNoteInputSchema: Joi.ObjectSchema<CreditNoteInput> = Joi.object({
  originalInvoiceNumber: str().min(1).max(64).required(),
  issueDate: isoDate().required(),
  creditNoteNumber: str().min(1).max(64).required(),
  reason: str().min(1).max(500).required(),
  totals: Joi.object({
    grossAmount: Joi.number()
      .strict() // a JSON number, not "-105"
      .negative()
      .custom((v: number, h) => (decimalPlaces(v) <= 2 ? v : h.error('number.precision', { limit: 2 })), 'at most 2 decimals')
      .required()
      .messages({
        'number.negative': '{{#label}} must be negative: the amount credited, VAT inclusive (e.g. -105.00)',
        'number.precision': '{{#label}} must have at most 2 decimals (fils)',
      }),
  }).required(),
});

/** Maps the free-text reason to a PINT-AE credit note reason code (BTAE-03). */
export function creditReasonCode(reason: string): CreditNoteReasonCode {
  const known = (TENANT_REASON_CODES as readonly string[]).includes(reason);
  return known ? TENANT_REASON_CODE_MAP[reason as keyof typeof TENANT_REASON_CODE_MAP] : '05';
}

/** What the credited original contributes. */
export interface CreditedOriginal {
  /** The original's stored internal body (number, issueDate, parties, lines). */
  body: InvoiceCreateBody;
  /** VAT-inclusive totals of earlier credit notes against it that still count (fils). */
  alreadyCreditedFils: bigint;
}

/** A body refused with a SPEC 7.2 code (HTTP 400), every finding with its path in the body as sent. */
export interface CreditNoteRefusal {
  code: 'invalid_body' | 'totals_mismatch';
  message: string;
  errors: FieldError[];
  meta?: Record<string, unknown>;
}

export interface CreditNoteBuilt {
  body: InvoiceCreateBody;
  /** full: the original's lines; partial: one line for the amount. */
  kind: 'full' | 'partial';
}

const GROSS = 'totals.grossAmount';

function refuse(code: CreditNoteRefusal['code'], path: string, message: string, meta?: Record<string, unknown>): { refusal: CreditNoteRefusal } {
  return { refusal: { code, message, errors: [{ code, path, message }], ...(meta ? { meta } : {}) } };
}

/** The VAT-inclusive total (fils) of an invoice body. */
export function grossFils(body: Pick<InvoiceCreateBody, 'lines'>): bigint {
  return computeAmounts(body).taxInclusive;
}

/** The credit note's internal body, or the refusal (SPEC 7.2). */
export function buildCreditNoteBody(original: CreditedOriginal, input: CreditNoteInput): CreditNoteBuilt | { refusal: CreditNoteRefusal } {
  const orig = original.body;
  if (input.issueDate < orig.issueDate) {
    return refuse('invalid_body', 'issueDate', `issueDate ${input.issueDate} is before the original invoice's issue date ${orig.issueDate}; a credit note cannot precede the invoice it credits`);
  }
  const gross = -fils(input.totals.grossAmount);
  const total = grossFils(orig);
  const left = total - original.alreadyCreditedFils;
  if (gross > left) {
    const message =
      left <= 0n
        ? `Invoice ${orig.number} is already credited in full (${filsText(total)} AED); nothing is left to credit`
        : `totals.grossAmount ${filsText(-gross)} credits more than is left on invoice ${orig.number}: ${filsText(left)} AED of its ${filsText(total)} AED (earlier credit notes: ${filsText(original.alreadyCreditedFils)} AED); send at most -${filsText(left)}`;
    return refuse('invalid_body', GROSS, message, { originalTotal: Number(filsText(total)), alreadyCredited: Number(filsText(original.alreadyCreditedFils)), leftToCredit: Number(filsText(left > 0n ? left : 0n)) });
  }

  const head: InvoiceCreateBody = {
    trn: orig.trn,
    number: input.creditNoteNumber,
    issueDate: input.issueDate,
    invoiceType: 'sale',
    documentType: 'credit_note',
    precedingInvoiceNumber: orig.number,
    precedingInvoiceIssueDate: orig.issueDate,
    creditNoteReasonCode: creditReasonCode(input.reason),
    currency: 'AED',
    seller: orig.seller,
    buyer: orig.buyer,
    lines: [],
  };
  if (gross === total) return { body: { ...head, lines: orig.lines.map((l) => ({ ...l })) }, kind: 'full' };

  const first = orig.lines[0];
  const oneRate = orig.lines.every((l) => l.taxCategory === first.taxCategory && l.vatRate === first.vatRate);
  if (!oneRate) {
    return refuse(
      'invalid_body',
      GROSS,
      `Invoice ${orig.number} has lines at more than one tax category or rate, so a partial amount cannot say which VAT it reverses: send its full amount (-${filsText(total)}), or POST /v1/invoices a credit_note with lines (referencedInvoiceNumber ${orig.number})`,
      { originalTotal: Number(filsText(total)) },
    );
  }
  const net = netForGross(first, gross);
  if (typeof net !== 'bigint') {
    const reachable = net.reachable.map((f) => -Number(filsText(f)));
    return refuse(
      'totals_mismatch',
      GROSS,
      `No net amount gives exactly ${filsText(gross)} AED including VAT (VAT is rounded to fils): the nearest reachable amounts are ${reachable.map((r) => r.toFixed(2)).join(' and ')}`,
      { reachable },
    );
  }
  const line = creditLine(first, input.reason, net);
  return { body: { ...head, lines: [line] }, kind: 'partial' };
}

/** One line of the original's category and rate, quantity 1, at `net` fils. */
function creditLine(like: InvoiceLine, reason: string, net: bigint): InvoiceLine {
  const { discountAmount: _d, chargeAmount: _c, ...rest } = like;
  return { ...rest, description: `Credit: ${reason}`, quantity: 1, unitPrice: Number(filsText(net)), unitOfMeasureCode: DEFAULT_TENANT_UNIT };
}

/** VAT-inclusive amount (fils) of one credit line at `net` fils. */
function lineGross(like: InvoiceLine, net: bigint): bigint {
  return grossFils({ lines: [creditLine(like, 'x', net)] });
}

/**
 * The net (fils) whose line, with its VAT rounded as the pipeline rounds it, totals exactly `gross`: start at
 * gross / (1 + rate) rounded to fils and step by a fils towards it. Or the reachable totals either side.
 */
export function netForGross(like: InvoiceLine, gross: bigint): bigint | { reachable: bigint[] } {
  const percent = taxCategoryInfo(like.taxCategory)?.taxPercent ?? 0n;
  // round half-up of gross * 100 / (100 + percent)
  const den = 100n + percent;
  let net = (gross * 100n * 2n + den) / (den * 2n);
  if (net < 1n) net = 1n;
  let at = lineGross(like, net);
  if (at === gross) return net;
  const step = at < gross ? 1n : -1n;
  for (;;) {
    const next = net + step;
    if (next < 1n) return { reachable: [at] };
    const nextAt = lineGross(like, next);
    if (nextAt === gross) return next;
    if (step > 0n ? nextAt > gross : nextAt < gross) return { reachable: step > 0n ? [at, nextAt] : [nextAt, at] };
    net = next;
    at = nextAt;
  }
}
