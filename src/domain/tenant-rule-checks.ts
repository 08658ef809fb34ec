// What the official PINT-AE rules make the Tenant API choose or ask for, beyond the body's shape (issue 35,
// docs/decisions/0056 to 0061). Pure code: no I/O.
//
// - Reverse charge (ibr-166-ae, ibr-006-ae, ibr-174-ae): a reverse-charge line needs the type of goods or
//   services from the GoodsType code list (BTAE-09) and an item standard identifier; the Tenant line carries
//   them as goodsType and hsCode (the HS code is written as the identifier, as on the Partner API). goodsType
//   may be left out when the HS heading names one of the listed kinds (goodsTypeFromHsCode).
// - Exempt-only and out-of-scope-only documents (ibr-151-ae): a 380 invoice must have a line that is neither E
//   nor O, so such an invoice is a commercial invoice (480, "out of scope of VAT", which ibr-122-ae allows
//   with E, O and Z lines); a credit note becomes an 81 by itself (invoice-facts.ts documentKind).
// - B2C (ibr-135-ae): a UAE buyer without a TRN needs a buyer identifier (IBT-046). Without a trade licence,
//   the service writes a customer reference of its own (IBT-046 has no scheme: it is the seller's reference
//   for the buyer), derived from the buyer's name and address so one buyer always gets the same one.
// - Credit notes against an invoice the service holds: the note may not credit more than is left on it.
import { createHash } from 'node:crypto';
import { GOODS_TYPE_NAMES, type GoodsTypeCode, type FieldError, type InvoiceCreateBody, type InvoiceLine, type InvoiceParty, filsText, goodsTypeFromHsCode, taxCategoryInfo, computeAmounts } from '@einvoice/pint-ae';
import type { ReferencedOriginal, TenantDraft } from './tenant-invoice-types';

/** BTAE-09 codes (codelists/GoodsType.gc), in the list's order. */
export const GOODS_TYPE_CODES = Object.keys(GOODS_TYPE_NAMES) as GoodsTypeCode[];
/** The codes with their official names, for messages and the OpenAPI description. */
export const GOODS_TYPE_HINT = GOODS_TYPE_CODES.map((c) => `${c} (${GOODS_TYPE_NAMES[c]})`).join(', ');

/** Every line is exempt (E) or out of scope (O): a 380 document would break ibr-151-ae. */
export function onlyExemptOrOutOfScope(lines: readonly InvoiceLine[]): boolean {
  return lines.length > 0 && lines.every((l) => ['E', 'O'].includes(taxCategoryInfo(l.taxCategory)?.code ?? ''));
}

/** The seller's reference for a buyer without TRN or trade licence (IBT-046): same name and address, same reference. */
export function customerReference(party: Pick<InvoiceParty, 'name' | 'address'>): string {
  const a = party.address;
  const key = [party.name, a?.line1, a?.city, a?.emirate].map((s) => (s ?? '').trim().toLowerCase().replace(/\s+/g, ' ')).join('|');
  return 'CUST-' + createHash('sha256').update(key).digest('hex').slice(0, 12).toUpperCase();
}

/** Where a line's fields are in the body as sent. */
function linePath(shape: TenantDraft['shape'], i: number): string {
  return shape === 'alternative' ? `items[${i}]` : `lines[${i}]`;
}

/** Reverse-charge lines without their goods type or HS code, with the paths of the body as sent. */
export function reverseChargeFindings(body: InvoiceCreateBody, shape: TenantDraft['shape']): FieldError[] {
  const out: FieldError[] = [];
  body.lines.forEach((line, i) => {
    if (!taxCategoryInfo(line.taxCategory)?.reverseCharge) return;
    const p = linePath(shape, i);
    if (!line.classificationCode) {
      out.push({
        code: 'hs_code_required',
        path: `${p}.hsCode`,
        message: `${p}.hsCode is required on a reverse-charge line: send the HS code of the goods, e.g. "8517.13" (PINT-AE ibr-174-ae needs an item standard identifier on reverse-charge lines; the HS code is written there)`,
      });
    }
    if (!line.goodsType && !goodsTypeFromHsCode(line.classificationCode)) {
      const hs = line.classificationCode ? ` (hsCode "${line.classificationCode}" does not name one)` : '';
      out.push({
        code: 'goods_type_required',
        path: `${p}.goodsType`,
        message: `${p}.goodsType is required on a reverse-charge line${hs}: send the type of goods or services subject to the reverse charge, one of ${GOODS_TYPE_HINT} (PINT-AE ibr-166-ae: BTAE-09 must be there; ibr-006-ae: from the GoodsType code list)`,
      });
    }
  });
  return out;
}

/** A credit note that credits more than is left on the original the service holds. */
export function creditCapFinding(draft: TenantDraft, original: ReferencedOriginal | undefined): FieldError | null {
  if (!original || draft.invoiceType !== 'credit_note') return null;
  const gross = computeAmounts(draft.body).taxInclusive;
  const left = original.grossFils - original.creditedFils;
  if (gross <= left) return null;
  const number = draft.body.precedingInvoiceNumber;
  const lines = draft.shape === 'alternative' ? 'items' : 'lines';
  return {
    code: 'credit_exceeds_original',
    path: lines,
    message:
      left <= 0n
        ? `${lines}: invoice ${number} is already credited in full (${filsText(original.grossFils)} AED); nothing is left to credit: check referencedInvoiceNumber`
        : `${lines}: this credit note totals ${filsText(gross)} AED, more than is left on invoice ${number}: ${filsText(left)} AED of its ${filsText(original.grossFils)} AED (other credit notes: ${filsText(original.creditedFils)} AED); send lines totalling at most ${filsText(left)} AED VAT inclusive`,
  };
}
