// Examples shown in the document. Each one is checked by test/openapi/examples.test.ts against the joi schema of
// the request or answer it illustrates, so an example cannot drift from what the API accepts or answers.

const seller = {
  name: 'Falcon Trading LLC',
  country: 'AE',
  address: { line1: 'Office 1204, Bay Square 3', city: 'Dubai', emirate: 'Dubai' },
  trn: '100123456700003',
  tradeLicenseNumber: 'DED-778812',
};
const buyer = {
  name: 'Noor Electronics LLC',
  country: 'AE',
  address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', emirate: 'AUH' },
  trn: '100987654300003',
};

export const invoiceCreateExample = {
  trn: '100123456700003',
  number: 'INV-2025-0001',
  issueDate: '2025-02-07',
  currency: 'AED',
  seller,
  buyer,
  lines: [{ description: 'Consulting services, January', quantity: 10, unitPrice: 150, vatRate: 0.05 }],
};

export const bulkExample = { invoices: [{ ...invoiceCreateExample, externalRef: 'erp-doc-881' }] };

export const customerExample = { externalRef: 'cust-42', name: 'Noor Electronics LLC', trn: '100987654300003', country: 'AE', address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', emirate: 'AUH' } };

export const tenantInvoiceExample = {
  number: 'T-0001',
  issueDate: '2025-02-07',
  currency: 'AED',
  invoiceType: 'sale',
  seller: { trn: '100234567800003' },
  buyer: { name: 'Noor Electronics LLC', trn: '100987654300003', country: 'AE', address: { line1: 'Khalifa Street 12', city: 'Abu Dhabi', state: 'Abu Dhabi', country: 'AE' } },
  lines: [{ description: 'Consulting, January', quantity: 10, unit: 'HUR', unitPrice: 150, vatRate: 0.05, taxCategory: 'standard_5' }],
};

export const tenantAlternativeExample = {
  invoiceNumber: 'T-0002',
  issueDate: '2025-02-07',
  currency: 'AED',
  buyer: { legalName: 'Noor Electronics LLC', trn: '100987654300003', country: 'AE', address: 'Khalifa Street 12, Abu Dhabi' },
  items: [{ name: 'Consulting, January', quantity: 10, unitPrice: 150, tax: 'STANDARD' }],
};

export const submitExample = { ids: ['6f1c2f43-5a43-4c1e-9d47-1f0b1f1d2a10'] };
export const tokenRequestExample = { clientId: 'tnt_3f9a...', clientSecret: 's3cr3t-from-onboarding' };
export const creditNoteExample = { originalInvoiceNumber: 'T-0001', issueDate: '2025-02-20', creditNoteNumber: 'CN-0001', reason: 'Returned goods', totals: { grossAmount: -105 } };
export const topUpExample = { amount: 500 };
export const partnerCreateExample = { name: 'Acme ERP', mode: 'test', webhookUrl: 'https://erp.example.com/hooks/einvoice' };

const invoiceId = '0b6f6f55-3a55-4b7e-8f0e-2d1c6a6b9e01';
export const queuedExample = { invoiceId, number: 'INV-2025-0001', status: 'queued' };
export const heldExample = {
  invoiceId,
  number: 'INV-2025-0001',
  status: 'held',
  heldReason: 'buyer.address.emirate is required for a UAE address',
  heldErrors: [{ code: 'emirate_required', path: 'buyer.address.emirate', message: 'buyer.address.emirate is required for a UAE address' }],
};
export const invoiceDetailExample = {
  invoiceId,
  number: 'INV-2025-0001',
  status: 'acknowledged',
  createdAt: '2025-02-07T10:00:00.000Z',
  updatedAt: '2025-02-07T10:00:09.000Z',
  reason: null,
  run: 1,
  history: [
    { status: 'queued', at: '2025-02-07T10:00:00.000Z', reason: null, run: 1 },
    { status: 'delivered', at: '2025-02-07T10:00:04.000Z', reason: null, run: 1 },
    { status: 'acknowledged', at: '2025-02-07T10:00:09.000Z', reason: null, run: 1 },
  ],
  ackRef: 'FTA-ACK-20250207-000123',
};
export const invoiceListExample = {
  data: [{ invoiceId, number: 'INV-2025-0001', status: 'held', createdAt: '2025-02-07T10:00:00.000Z', updatedAt: '2025-02-07T10:00:00.000Z', reason: 'buyer.address.emirate is required for a UAE address' }],
  nextCursor: null,
};
export const pingExample = { ok: true, mode: 'test', timestamp: '2025-02-07T10:00:00.000Z' };
export const problemExample = {
  type: 'https://einvoice.ae/problems/validation-failed',
  title: 'Invalid request',
  status: 400,
  detail: 'InvalidBody: the request body failed validation; see meta.errors.',
  code: 'validation_failed',
  meta: { errors: [{ code: 'required', path: 'lines', message: 'lines is required' }] },
};
export const tenantErrorExample = {
  code: 'invalid_body',
  humanMessage: 'lines is required: send at least one line',
  meta: { errors: [{ code: 'required', path: 'lines', message: 'lines is required: send at least one line' }] },
  errors: [{ code: 'required', path: 'lines', message: 'lines is required: send at least one line' }],
};
export const tokenExample = { accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIuLi4ifQ.c2ln', tokenType: 'Bearer', expiresIn: 3600 };
export const submitResultExample = { submitted: 1, ids: ['6f1c2f43-5a43-4c1e-9d47-1f0b1f1d2a10'] };
export const invoiceValidationHeldExample = { valid: false, heldReason: heldExample.heldReason, heldErrors: heldExample.heldErrors };
export const findingsExample = { fatal: [{ id: 'ibr-135-ae', location: '/Invoice/cac:AccountingCustomerParty', text: 'Buyer electronic address must be provided' }], warning: [] };
