// The sample invoice: a tax invoice with S, Z and E lines, line discounts and charges, of any number of
// lines (the benches, the CPU profile script and the large agreement documents use it). Written complete,
// with the values a request schema would default (invoiceType, documentType, TIN, HS), as renderInvoice expects.
import type { InvoiceCreateBody, InvoiceLine } from './model/invoice-types';

/** A valid tax invoice of `lines` lines, rendering with no fatal finding. */
export function sampleInvoice(lines: number): InvoiceCreateBody {
  const cats: Pick<InvoiceLine, 'taxCategory' | 'vatRate'>[] = [
    { taxCategory: 'standard_5', vatRate: 0.05 },
    { taxCategory: 'standard_5', vatRate: 0.05 },
    { taxCategory: 'zero_rated_healthcare', vatRate: 0 },
    { taxCategory: 'exempt_financial', vatRate: 0 },
  ];
  return {
    invoiceType: 'sale',
    documentType: 'tax_invoice',
    trn: '100123456700003',
    number: `BENCH-${lines}`,
    issueDate: '2025-02-07',
    dueDate: '2025-03-09',
    currency: 'AED',
    paymentMeansCode: '30',
    paymentAccountIdentifier: 'AE070331234567890123456',
    seller: {
      name: 'Falcon Trading LLC',
      country: 'AE',
      address: { line1: 'Office 1204, Bay Square 3', city: 'Dubai', emirate: 'Dubai' },
      trn: '100123456700003',
      legalRegistrationType: 'TIN',
      tradeLicenseNumber: 'DED-778812',
    },
    buyer: {
      name: 'Noor Electronics LLC',
      country: 'AE',
      address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', emirate: 'AUH' },
      trn: '100987654300003',
      legalRegistrationType: 'TIN',
      tradeLicenseNumber: 'CN-1123344',
    },
    lines: Array.from({ length: lines }, (_, i) => ({
      description: `Article ${i + 1}, assorted office supplies`,
      quantity: 1 + (i % 9),
      unitPrice: Math.round((12.35 + (i % 13) * 3.1) * 100) / 100,
      unitOfMeasureCode: 'H87',
      classificationCodeScheme: 'HS',
      ...cats[i % cats.length],
      ...(i % 5 === 0 ? { discountAmount: 1.5 } : {}),
      ...(i % 7 === 0 ? { chargeAmount: 0.75 } : {}),
    })),
  };
}
