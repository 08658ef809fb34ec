// Every route the app serves, once, with what the document says about it. test/openapi/routes.test.ts walks the
// Koa routers of createApp() and fails on a route missing here or an entry here no router serves, so a new route
// cannot ship undocumented. Schemas are named, never written here: see components.ts.
import * as ex from './examples';
import { RECORDS_OPERATIONS } from './records-operations';
import type { QuerySchemaName, RequestSchemaName, ResponseSchemaName } from './components';

/**
 * Who may call and how: partner-key (X-API-Key + X-API-Secret), partner (plus x-erp-partner-secret), tenant
 * (Bearer JWT), tenant-token (no credential: it issues them), admin (Bearer ADMIN_TOKEN), provider (X-ASP-Signature),
 * public (no credential).
 */
export type Surface = 'partner-key' | 'partner' | 'tenant' | 'tenant-token' | 'admin' | 'provider' | 'public';

export interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Koa form, as the router has it: /v1/partner/invoices/:id */
  path: string;
  surface: Surface;
  summary: string;
  description?: string;
  /** JSON body: one schema, or several the route tells apart (oneOf). */
  body?: { schemas: RequestSchemaName[]; examples?: Record<string, unknown> };
  /** A body that is not JSON (documented by its description; checked by its own parser). */
  rawBody?: { contentType: string; description: string };
  query?: QuerySchemaName;
  idempotency?: 'required' | 'optional';
  success: { status: number; description: string; schema?: ResponseSchemaName; contentType?: string; examples?: Record<string, unknown>; alsoContentTypes?: string[] };
  /** Codes this operation raises beyond those of its surface (see document.ts SURFACE_ERRORS), by HTTP status. */
  errors?: Record<number, string[]>;
}

const invoiceNotFound = { 404: ['not_found'] };

/** GET .../invoices/{id}/document: the representations (src/rendition). */
const DOCUMENT_NEGOTIATION =
  'Accept: `application/xml` (default, also for `*/*` or no Accept): the PINT-AE XML exactly as stored and handed to the ASP. `text/html` or `application/pdf`: a human-readable rendition of that XML, labels in English and Arabic: parties (Arabic legal names, TRNs, addresses, registration), type, number, dates, references, every line, the VAT breakdown and totals as in the XML, payment means and terms, notes, the transaction-type flags in words, and, once delivered, the delivery evidence (ASP submission id, ackRef, status times, SHA-256 of the XML). `?format=xml|html|pdf` overrides Accept. Any other type: 406 `not_acceptable`, naming the three. 404 until the invoice is transformed.';

/** The per-invoice retry limit's own 429 (not the request budget's): what its X-RateLimit-* headers then say. */
const RETRY_LIMIT_NOTE =
  'An invoice may be retried 3 times an hour. Past that the answer is 429 `retry_rate_limited`, whose `X-RateLimit-*` headers describe that retry limit, not the request budget: `X-RateLimit-Limit: 3`, `X-RateLimit-Remaining: 0`, `X-RateLimit-Reset` and `Retry-After` (seconds until the hour\'s window ends), `X-RateLimit-Policy: 3;w=3600` and `X-RateLimit-Scope: invoice-retry`. Other answers carry the request budget\'s headers.';

export const OPERATIONS: Operation[] = [
  // ---- Partner API: key and secret only -------------------------------------------------------------------
  { method: 'get', path: '/v1/partner/ping', surface: 'partner-key', summary: 'Check the API key and secret', success: { status: 200, description: 'The credentials work.', schema: 'PingResponse', examples: { ok: ex.pingExample } } },
  { method: 'get', path: '/v1/partner/whoami', surface: 'partner-key', summary: 'Who the key belongs to', success: { status: 200, description: 'The partner and its connected SMEs.', schema: 'WhoamiResponse' } },
  {
    method: 'get', path: '/v1/partner/validate-trn', surface: 'partner-key', summary: 'Validate a TRN with the authority (cached 24 h)', query: 'TrnQuery',
    success: { status: 200, description: 'The TRN\'s status; not scoped to an SME.', schema: 'TrnValidateResponse' }, errors: { 400: ['validation_failed'] },
  },
  // ---- Partner API: SME-scoped ----------------------------------------------------------------------------
  {
    method: 'post', path: '/v1/partner/customers', surface: 'partner', summary: 'Create or update a customer (by externalRef)', idempotency: 'required',
    body: { schemas: ['CustomerUpsertBody'], examples: { customer: ex.customerExample } }, success: { status: 200, description: 'The stored customer.', schema: 'Object' }, errors: { 400: ['validation_failed'] },
  },
  { method: 'get', path: '/v1/partner/customers/:externalRef', surface: 'partner', summary: 'Read a customer', success: { status: 200, description: 'The customer.', schema: 'Object' }, errors: invoiceNotFound },
  {
    method: 'post', path: '/v1/partner/invoices', surface: 'partner', summary: 'Submit an invoice', idempotency: 'required',
    description: 'Answers 201 with status `queued` (pipeline started), `held` (pre-submit validation refused it: see heldErrors), `draft` (the automatic start failed; retry) or `delivered` (reserved test TRN 100000000000000). See the status model in components.schemas.InvoiceStatusName. An issueDate more than 14 days before today (UAE time) is accepted with a `late_issuance` entry in `warnings`; one more than 5 years back, or more than 1 day ahead, is refused with 400 `issue_date_out_of_range` (meta.errors names `issueDate`).',
    body: { schemas: ['InvoiceCreateBody'], examples: { minimal: ex.invoiceCreateExample } },
    success: { status: 201, description: 'Stored; status queued, held, draft or delivered.', schema: 'InvoiceQueued', examples: { queued: ex.queuedExample, held: ex.heldExample } },
    errors: { 400: ['validation_failed', 'issue_date_out_of_range'], 403: ['trn_mismatch', 'test_trn_reject'], 409: ['invoice_number_duplicate'], 503: ['provider_not_configured'] },
  },
  {
    method: 'get', path: '/v1/partner/invoices', surface: 'partner', summary: 'List invoices (filters, cursor pagination)', query: 'InvoiceListQuery',
    success: { status: 200, description: 'Newest first; `nextCursor` is null on the last page.', schema: 'InvoiceListResponse', examples: { page: ex.invoiceListExample } }, errors: { 400: ['validation_failed'] },
  },
  {
    method: 'post', path: '/v1/partner/invoices/bulk', surface: 'partner', summary: 'Submit 1 to 100 invoices', idempotency: 'required',
    description: 'Each item is validated and answered on its own (207). Item i is idempotent under `<Idempotency-Key>:<i>`: resend the same body with the same key to recover from a partial failure.',
    body: { schemas: ['BulkInvoiceBody'], examples: { one: ex.bulkExample } }, success: { status: 207, description: 'One result per item: the InvoiceQueued answer or an error {code, message}.', schema: 'Object' },
    errors: { 400: ['validation_failed'], 503: ['provider_not_configured'] },
  },
  {
    method: 'post', path: '/v1/partner/invoices/validate', surface: 'partner', summary: 'Validate an invoice without submitting it',
    description: 'The checks POST /v1/partner/invoices makes (shape, TRN of the connected SME, issue-date limits, pre-submit rules, with the SME\'s registration filled in), then the PINT-AE rendering and the native rules. Nothing is stored and no workflow starts, so no Idempotency-Key.',
    body: { schemas: ['InvoiceCreateBody'], examples: { minimal: ex.invoiceCreateExample } },
    success: { status: 200, description: 'Either the held errors POST would answer, or the XML and its findings; `warnings` (late_issuance) as POST would answer them.', schema: 'InvoiceValidation', examples: { held: ex.invoiceValidationHeldExample } },
    errors: { 400: ['validation_failed', 'issue_date_out_of_range'], 403: ['trn_mismatch'] },
  },
  {
    method: 'post', path: '/v1/partner/documents/validate', surface: 'partner-key', summary: 'Validate any UBL document (as `einvoice validate`)',
    rawBody: { contentType: 'application/xml', description: 'One UBL 2.1 Invoice or CreditNote document, at most 5 MB.' },
    success: { status: 200, description: 'Findings with rule id, location and text.', schema: 'ValidationFindings', examples: { fatal: ex.findingsExample } },
    errors: { 400: ['not_xml', 'empty_body'], 413: ['payload_too_large'], 415: ['unsupported_media_type'] },
  },
  { method: 'get', path: '/v1/partner/invoices/:id', surface: 'partner', summary: 'Read an invoice: status, history, held errors', success: { status: 200, description: 'InvoiceStatus plus run, history, ackRef, and heldReason/heldErrors when held.', schema: 'InvoiceDetail', examples: { acknowledged: ex.invoiceDetailExample } }, errors: invoiceNotFound },
  {
    method: 'delete', path: '/v1/partner/invoices/:id', surface: 'partner', summary: 'Delete an invoice that was never handed over', idempotency: 'optional',
    description: 'Allowed for an invoice never handed over to the ASP (held, draft, queued, blocked_no_credit, or rejected before any hand-over): its deletion record (who, when, number, SHA-256 of the body) is kept and chained, then it is removed and its number freed. An invoice handed over in any run is a tax record and is never removed: 409 `handed_over` (issue a credit note to reverse it); one under legal hold: 409 `legal_hold`.',
    success: { status: 204, description: 'Deleted.' }, errors: { ...invoiceNotFound, 409: ['invalid_state_transition', 'handed_over', 'legal_hold'] },
  },
  {
    method: 'post', path: '/v1/partner/invoices/:id/retry', surface: 'partner', summary: 'Retry a rejected, blocked or stranded draft invoice', idempotency: 'required',
    description: RETRY_LIMIT_NOTE,
    success: { status: 202, description: 'Requeued: a new pipeline run.', schema: 'InvoiceQueued', examples: { queued: ex.queuedExample } },
    errors: { ...invoiceNotFound, 409: ['invalid_state_transition', 'invoice_held'], 429: ['retry_rate_limited'] },
  },
  { method: 'get', path: '/v1/partner/invoices/:id/document', surface: 'partner', summary: 'The PINT-AE XML as stored, or its bilingual rendition (HTML, PDF)', description: DOCUMENT_NEGOTIATION, success: { status: 200, description: 'The UBL document, or its rendition.', contentType: 'application/xml', alsoContentTypes: ['text/html', 'application/pdf'] }, errors: { ...invoiceNotFound, 406: ['not_acceptable'] } },
  { method: 'get', path: '/v1/partner/invoices/:id/evidence', surface: 'partner', summary: 'Evidence of the hand-overs to the accredited provider', success: { status: 200, description: 'Submissions and the provider\'s answers.', schema: 'Object' }, errors: invoiceNotFound },
  { method: 'get', path: '/v1/partner/invoices/:id/webhook-deliveries', surface: 'partner', summary: 'Webhook deliveries of an invoice', success: { status: 200, description: 'Every delivery row, attempts summarised.', schema: 'WebhookDeliveryList' }, errors: invoiceNotFound },
  {
    method: 'post', path: '/v1/partner/invoices/:id/replay-webhook', surface: 'partner', summary: 'Send the invoice.status_changed event again', idempotency: 'optional',
    success: { status: 202, description: 'A new delivery row in pending.', schema: 'ReplayResponse' }, errors: { 404: ['not_found', 'no_webhook_event'], 409: ['webhook_url_not_configured'] },
  },
  { method: 'get', path: '/v1/partner/credits', surface: 'partner', summary: 'Delivery credit balance and recent ledger entries', query: 'CreditsQuery', success: { status: 200, description: 'Balance and ledger, newest first.', schema: 'Object' }, errors: { 400: ['validation_failed'] } },

  // ---- Tenant API ------------------------------------------------------------------------------------------
  {
    method: 'post', path: '/v1/auth/token', surface: 'tenant-token', summary: 'Exchange client id and secret for a bearer JWT (1 hour)',
    body: { schemas: ['TokenRequest'], examples: { token: ex.tokenRequestExample } }, success: { status: 200, description: 'The access token.', schema: 'TokenResponse', examples: { token: ex.tokenExample } },
    errors: { 400: ['invalid_body'], 401: ['missing_authorization_header'] },
  },
  {
    method: 'post', path: '/v1/invoices', surface: 'tenant', summary: 'Store a draft invoice (either payload shape)', idempotency: 'required', query: 'ModeQuery',
    description: 'Stored as `draft`; nothing is sent until POST /v1/invoices/submit. The alternative shape is recognised by `invoiceNumber` or `items`. Issue-date limits as on POST /v1/partner/invoices: `warnings` carries `late_issuance` past 14 days; 400 `issue_date_out_of_range` past 5 years or more than 1 day ahead.',
    body: { schemas: ['InvoiceCreateInput', 'InvoiceCreateInputAlternative'], examples: { standard: ex.tenantInvoiceExample, alternative: ex.tenantAlternativeExample } },
    success: { status: 201, description: 'The draft.', schema: 'TenantDraft' },
    errors: { 400: ['invalid_body', 'issue_date_out_of_range', 'arabic_seller_name_required', 'totals_mismatch', 'unknown_tax', 'unknown_tax_ledger'], 403: ['trn_mismatch'], 409: ['invoice_mode_mismatch', 'invoice_number_duplicate'], 422: ['pint_ae_validation_failed', 'original_invoice_not_found', 'credit_exceeds_original'], 503: ['provider_not_configured'] },
  },
  {
    method: 'post', path: '/v1/invoices/submit', surface: 'tenant', summary: 'Submit drafts (1 to 200 ids)', idempotency: 'required',
    body: { schemas: ['SubmitRequest'], examples: { one: ex.submitExample } }, success: { status: 200, description: 'Drafts moved to queued; non-draft ids are skipped.', schema: 'SubmitResponse', examples: { one: ex.submitResultExample } },
    errors: { 400: ['invalid_body'], 503: ['provider_not_configured'] },
  },
  { method: 'get', path: '/v1/invoices', surface: 'tenant', summary: 'List invoices', query: 'InvoiceListQuery', success: { status: 200, description: 'Newest first, cursor paginated.', schema: 'TenantInvoiceList' }, errors: { 400: ['invalid_body'] } },
  { method: 'get', path: '/v1/invoices/:id/document', surface: 'tenant', summary: 'The PINT-AE XML as stored, or its bilingual rendition (HTML, PDF)', description: DOCUMENT_NEGOTIATION, success: { status: 200, description: 'The UBL document, or its rendition.', contentType: 'application/xml', alsoContentTypes: ['text/html', 'application/pdf'] }, errors: { ...invoiceNotFound, 406: ['not_acceptable'] } },
  { method: 'get', path: '/v1/invoices/:id', surface: 'tenant', summary: 'Read an invoice (poll every 2 to 5 minutes while non-terminal)', success: { status: 200, description: 'The invoice, its pipeline and errors.', schema: 'TenantInvoice' }, errors: invoiceNotFound },
  {
    method: 'post', path: '/v1/invoices/:id/retry', surface: 'tenant', summary: 'Retry a rejected or blocked invoice', idempotency: 'required',
    description: RETRY_LIMIT_NOTE,
    success: { status: 202, description: 'Requeued.', schema: 'TenantDraft' }, errors: { ...invoiceNotFound, 409: ['invalid_state_transition'], 429: ['retry_rate_limited'] },
  },
  {
    method: 'post', path: '/v1/invoices/bulk', surface: 'tenant', summary: 'Import drafts from a CSV file (1,000 invoices, 5 MB)', idempotency: 'required',
    rawBody: { contentType: 'multipart/form-data', description: 'A part `file` (the CSV, columns in SPEC 4.2 order) and a part `options` (JSON: {"mode": "sandbox"|"live", "skipErrors": boolean}).' },
    success: { status: 200, description: 'The per-row report; `warnings` lists late_issuance per invoice (row, column issueDate, days) when there is one. An issueDate past the limits is a row error (issue_date_too_old, issue_date_in_future).', schema: 'Object' },
    errors: { 400: ['invalid_body'], 409: ['invoice_mode_mismatch'], 413: ['bulk_payload_too_large'], 415: ['unsupported_media_type'], 422: ['bulk_rows_invalid'] },
  },
  {
    method: 'post', path: '/v1/credit-notes', surface: 'tenant', summary: 'Credit a delivered invoice (submitted at once)', idempotency: 'required',
    body: { schemas: ['CreditNoteInput'], examples: { returned: ex.creditNoteExample } }, success: { status: 202, description: 'The credit note, queued.', schema: 'Object' },
    errors: { 400: ['invalid_body', 'issue_date_out_of_range'], 404: ['original_invoice_not_found'], 409: ['original_not_creditable', 'original_not_delivered'], 422: ['pint_ae_validation_failed'] },
  },

  // ---- Admin API (operators) -------------------------------------------------------------------------------
  { method: 'post', path: '/v1/admin/partners', surface: 'admin', summary: 'Create a partner (credentials shown once)', body: { schemas: ['PartnerCreate'], examples: { test: ex.partnerCreateExample } }, success: { status: 201, description: 'The partner and its credentials.', schema: 'Object' }, errors: { 400: ['validation_failed', 'invalid_webhook_url'] } },
  { method: 'patch', path: '/v1/admin/partners/:partnerId', surface: 'admin', summary: 'Update a partner', body: { schemas: ['PartnerUpdate'] }, success: { status: 200, description: 'The partner.', schema: 'Object' }, errors: { 400: ['validation_failed', 'invalid_webhook_url'], 404: ['not_found'] } },
  { method: 'post', path: '/v1/admin/partners/:partnerId/smes', surface: 'admin', summary: 'Connect an SME (connection secret shown once)', description: 'Takes the SME\'s trade licence (`tradeLicenseNumber`) and registered address (`address`: line1, city, emirate), as tenant creation does: POST /v1/partner/invoices fills the SME\'s party (the seller of a sale, the buyer of a purchase) from them when the body leaves them out. On the TRN of a revoked SME connection of this partner, reissues: a new secret for the same SME record (same smeId, its invoices and numbers stay). 409 sme_already_connected while the connection is active.', body: { schemas: ['SmeConnect'] }, success: { status: 201, description: 'The SME connection.', schema: 'Object' }, errors: { 400: ['validation_failed'], 404: ['not_found'], 409: ['sme_already_connected'] } },
  { method: 'post', path: '/v1/admin/smes/:smeId/credits', surface: 'admin', summary: 'Top up an SME\'s credits (releases blocked invoices)', body: { schemas: ['CreditTopUp'], examples: { topUp: ex.topUpExample } }, success: { status: 200, description: 'The new balance.', schema: 'Object' }, errors: { 400: ['validation_failed'], 404: ['not_found'] } },
  { method: 'get', path: '/v1/admin/smes/:smeId/credits', surface: 'admin', summary: 'An SME\'s credits', query: 'CreditsQuery', success: { status: 200, description: 'Balance and ledger.', schema: 'Object' }, errors: { 400: ['validation_failed'], 404: ['not_found'] } },
  { method: 'post', path: '/v1/admin/tenants', surface: 'admin', summary: 'Register a tenant (client secret shown once)', body: { schemas: ['TenantCreate'] }, success: { status: 201, description: 'The tenant and its credentials.', schema: 'Object' }, errors: { 400: ['validation_failed', 'invalid_status_url'], 409: ['tenant_exists'] } },
  { method: 'patch', path: '/v1/admin/tenants/:tenantId', surface: 'admin', summary: 'Update a tenant', body: { schemas: ['TenantUpdate'] }, success: { status: 200, description: 'The tenant.', schema: 'Object' }, errors: { 400: ['validation_failed', 'invalid_status_url'], 404: ['not_found'] } },
  { method: 'post', path: '/v1/admin/tenants/:tenantId/credits', surface: 'admin', summary: 'Top up a tenant\'s credits', body: { schemas: ['CreditTopUp'] }, success: { status: 200, description: 'The new balance.', schema: 'Object' }, errors: { 400: ['validation_failed'], 404: ['not_found'] } },
  { method: 'get', path: '/v1/admin/tenants/:tenantId/credits', surface: 'admin', summary: 'A tenant\'s credits', query: 'CreditsQuery', success: { status: 200, description: 'Balance and ledger.', schema: 'Object' }, errors: { 400: ['validation_failed'], 404: ['not_found'] } },

  // Credential lifecycle (services/credential-rotation.ts, credential-revocation.ts): each is written to the audit log.
  ...rotationOperation('/v1/admin/partners/:partnerId/rotate-secret', 'Rotate a partner\'s API key and secret (shown once)', '{partnerId, apiKey, apiSecret, previousSecretValidUntil}: a new key and secret pair; the old pair works until previousSecretValidUntil.'),
  ...rotationOperation('/v1/admin/partners/:partnerId/rotate-webhook-secret', 'Rotate a partner\'s webhook secret (shown once)', '{webhookSecret, previousSecretValidUntil}: until then every webhook carries a v1 signature for each secret.'),
  { method: 'post', path: '/v1/admin/partners/:partnerId/revoke', surface: 'admin', summary: 'Revoke a whole partner', description: 'Every key of the partner is refused from now on (403 partner_inactive).', success: { status: 200, description: '{partnerId, status}', schema: 'Object' }, errors: { 404: ['not_found'] } },
  ...rotationOperation('/v1/admin/smes/:smeId/rotate-secret', 'Rotate an SME connection secret (shown once)', '{smeId, connectionSecret, previousSecretValidUntil}.', ['sme_revoked']),
  { method: 'post', path: '/v1/admin/smes/:smeId/revoke', surface: 'admin', summary: 'Revoke an SME connection', description: 'Its connection secret is refused from now on (401 connection_revoked). Connecting the same TRN again (POST /v1/admin/partners/{partnerId}/smes) reissues a secret for the same SME record.', success: { status: 200, description: '{smeId, partnerId, status, revokedAt}', schema: 'Object' }, errors: { 404: ['not_found'] } },
  ...rotationOperation('/v1/admin/tenants/:tenantId/rotate-secret', 'Rotate (or, after a revocation, reissue) a tenant\'s client secret (shown once)', '{tenantId, clientId, clientSecret, previousSecretValidUntil}: bearer tokens got with the previous secret stop with it.'),
  ...rotationOperation('/v1/admin/tenants/:tenantId/rotate-webhook-secret', 'Rotate a tenant\'s webhook secret (shown once)', '{webhookSecret, previousSecretValidUntil}: until then every status update carries a v1 signature for each secret.'),
  { method: 'post', path: '/v1/admin/tenants/:tenantId/revoke-secret', surface: 'admin', summary: 'Revoke a tenant\'s client credential', description: 'The client secret and every bearer token issued with it are refused from now on, until rotate-secret issues a new one.', success: { status: 200, description: '{tenantId, clientId, revokedAt}', schema: 'Object' }, errors: { 404: ['not_found'] } },

  // ---- Provider callbacks (the accredited provider only) -------------------------------------------------
  {
    method: 'post', path: '/v1/provider/callbacks', surface: 'provider', summary: 'The ASP\'s signed status callback',
    description: 'Checked on the raw bytes against X-ASP-Signature before parsing; recorded as evidence; a final answer (REPORTED or FAILED) signals the invoice\'s workflow. A callback is accepted only with the secret of its document\'s mode (live: PROVIDER_CALLBACK_SECRET, sandbox: PROVIDER_SANDBOX_CALLBACK_SECRET; another mode\'s is 401, nothing recorded). Switched off (404) without either.',
    rawBody: { contentType: 'application/json', description: 'The provider\'s Submission: {submissionId, status, history: [{status, at}], ...}, at most 256 KB.' },
    success: { status: 204, description: 'Recorded (the same callback twice changes nothing).' },
    errors: { 400: ['malformed_json', 'validation_failed'], 401: ['invalid_signature'], 404: ['route_not_found', 'not_found'], 413: ['payload_too_large'] },
  },

  ...RECORDS_OPERATIONS,

  // ---- Health and documentation (public) -----------------------------------------------------------------
  { method: 'get', path: '/healthz', surface: 'public', summary: 'The process answers', success: { status: 200, description: '{ok: true}', schema: 'Object' } },
  { method: 'get', path: '/readyz', surface: 'public', summary: 'MongoDB and Temporal are reachable', success: { status: 200, description: '{ok, mongodb, temporal}; 503 with the same body when either is down.', schema: 'Object' } },
  { method: 'get', path: '/metrics', surface: 'public', summary: 'Prometheus metrics', success: { status: 200, description: 'Prometheus text format.', contentType: 'text/plain' } },
  { method: 'get', path: '/openapi.json', surface: 'public', summary: 'This document', success: { status: 200, description: 'OpenAPI 3.1.', schema: 'Object' } },
  { method: 'get', path: '/docs', surface: 'public', summary: 'This document, rendered (Swagger UI, served locally)', success: { status: 200, description: 'HTML.', contentType: 'text/html' } },
  { method: 'get', path: '/docs/assets/:file', surface: 'public', summary: 'Swagger UI\'s assets', success: { status: 200, description: 'CSS and JavaScript of the viewer.', contentType: 'application/octet-stream' }, errors: { 404: ['route_not_found'] } },
];

/** A rotation route: body {overlap} (0 ends the previous secret now), or no body at all for the default 24h. */
function rotationOperation(path: string, summary: string, answer: string, conflicts: string[] = []): Operation[] {
  return [{
    method: 'post', path, surface: 'admin', summary,
    body: { schemas: ['Rotation'], examples: { default: { overlap: '24h' }, now: { overlap: '0' } } },
    success: { status: 200, description: answer, schema: 'Object' },
    errors: { 400: ['validation_failed'], 404: ['not_found'], 409: ['rotation_conflict', ...conflicts] },
  }];
}
