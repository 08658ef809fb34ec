// joi schemas of the answers the API sends. Responses are built by the views in src/domain (TypeScript types,
// no joi), so these are the one schema of each answer for the document; the openapi tests validate the examples
// against them, and the view tests check the views' fields.
import Joi from 'joi';
import { REPORTED_STATUSES } from './status-model';

const iso = () => Joi.string().isoDate();
const status = () => Joi.string().valid(...REPORTED_STATUSES);

export const fieldErrorSchema = Joi.object({
  code: Joi.string().required(),
  path: Joi.string().allow('').required(),
  message: Joi.string().required(),
});

/** ProblemError (SPEC 7.1): every Partner API, admin and callback error, as application/problem+json. */
export const problemSchema = Joi.object({
  type: Joi.string().uri().required(),
  title: Joi.string().required(),
  status: Joi.number().integer().min(400).max(599).required(),
  detail: Joi.string(),
  code: Joi.string().required(),
  meta: Joi.object().unknown(true),
});

/** The Tenant API error (SPEC 7.2); `errors` repeats meta.errors when the refusal has field findings. */
export const tenantErrorSchema = Joi.object({
  code: Joi.string().required(),
  humanMessage: Joi.string().required(),
  meta: Joi.object().unknown(true),
  errors: Joi.array().items(Joi.object().unknown(true)),
});

/** A warning on an accepted submission (today only late_issuance); the array is present only when there is one. */
export const submissionWarningSchema = Joi.object({
  code: Joi.string().valid('late_issuance').required(),
  path: Joi.string().required(),
  days: Joi.number().integer().min(15).required().description('Days from the issue date to the day of submission (UAE time).'),
  message: Joi.string().required(),
}).description('late_issuance: the issue date is more than 14 days before the day of submission (UAE VAT Decree-Law No. 8 of 2017 art. 67: a tax invoice is due within 14 days of the supply). Accepted; the authority may fine a late invoice.');

export const invoiceQueuedSchema = Joi.object({
  invoiceId: Joi.string().guid().required(),
  number: Joi.string().required(),
  status: status().required(),
  heldReason: Joi.string(),
  heldErrors: Joi.array().items(fieldErrorSchema),
  warnings: Joi.array().items(submissionWarningSchema),
});

export const invoiceStatusSchema = Joi.object({
  invoiceId: Joi.string().guid().required(),
  number: Joi.string().required(),
  status: status().required(),
  createdAt: iso().required(),
  updatedAt: iso().required(),
  reason: Joi.string().allow(null).required(),
  ackRef: Joi.string().description('The authority acknowledgement reference, once acknowledged; in test mode a simulated one starting TEST-.'),
});

const historyEntry = Joi.object({ status: Joi.string().required(), at: iso().required(), reason: Joi.string().allow(null).required(), run: Joi.number().integer().min(1).required() });

export const invoiceDetailSchema = invoiceStatusSchema.keys({
  run: Joi.number().integer().min(1).required(),
  history: Joi.array().items(historyEntry).required(),
  heldReason: Joi.string(),
  heldErrors: Joi.array().items(fieldErrorSchema),
});

export const invoiceListSchema = Joi.object({
  data: Joi.array().items(invoiceStatusSchema).required(),
  nextCursor: Joi.string().allow(null).required(),
});

export const pingSchema = Joi.object({ ok: Joi.boolean().valid(true).required(), mode: Joi.string().valid('test', 'live').required(), timestamp: iso().required() });

export const whoamiSchema = Joi.object({
  partnerId: Joi.string().guid().required(),
  erpName: Joi.string().required(),
  status: Joi.string().valid('test', 'live_pending', 'live_active', 'live_rejected', 'revoked').required(),
  mode: Joi.string().valid('test', 'live').required(),
  connectedSmes: Joi.number().integer().min(0).required(),
  lastTestAt: iso().allow(null).required(),
  timestamp: iso().required(),
});

export const trnValidationSchema = Joi.object({
  trn: Joi.string().pattern(/^\d{15}$/).required(),
  status: Joi.string().required(),
  legalName: Joi.string().allow(null),
  reason: Joi.string().allow(null),
  cachedAt: iso().required(),
});

export const webhookDeliveryListSchema = Joi.object({
  data: Joi.array()
    .items(
      Joi.object({
        deliveryId: Joi.string().guid().required(),
        status: Joi.string().valid('pending', 'delivered', 'failed', 'exhausted').required(),
        event: Joi.string().required(),
        mode: Joi.string().required(),
        attempts: Joi.number().integer().required(),
        maxAttempts: Joi.number().integer().required(),
        nextAttemptAt: iso().required(),
        createdAt: iso().required(),
        updatedAt: iso().required(),
        lastResponseStatus: Joi.number().integer().allow(null).required(),
        lastError: Joi.string()
          .allow(null)
          .required()
          .description(
            'The class of the last failure, never an address: connection_refused, connection_reset, network_unreachable, dns_error, tls_error, timeout, forbidden_address, https_required, invalid_url, credentials_in_url, redirect_not_followed, http_<status> (e.g. http_500), connection_error.',
          ),
        deliveredAt: iso().allow(null).required(),
      }),
    )
    .required(),
});

export const replaySchema = Joi.object({ deliveryId: Joi.string().guid().required(), status: Joi.string().valid('pending').required() });

export const tokenSchema = Joi.object({ accessToken: Joi.string().required(), tokenType: Joi.string().valid('Bearer').required(), expiresIn: Joi.number().integer().required() });

export const submitResultSchema = Joi.object({ submitted: Joi.number().integer().min(0).required(), ids: Joi.array().items(Joi.string().guid()).required() });

const tenantTotals = Joi.object().unknown(true);
export const tenantDraftSchema = Joi.object({
  id: Joi.string().guid().required(),
  number: Joi.string().required(),
  status: Joi.string().required(),
  invoiceType: Joi.string().required(),
  totals: tenantTotals.required(),
  pipeline: Joi.array().items(Joi.object().unknown(true)).required(),
  errors: Joi.array().items(Joi.object().unknown(true)).required(),
  submissionMode: Joi.string().required(),
  source: Joi.string().allow(null).required(),
  warnings: Joi.array().items(submissionWarningSchema),
  ackRef: Joi.string().allow(null).description('In lists: the authority acknowledgement reference once acknowledged (TEST-… in test mode).'),
});

export const tenantInvoiceSchema = tenantDraftSchema.keys({
  issueDate: Joi.string().allow(null).required(),
  documentType: Joi.string().allow(null).required(),
  reason: Joi.string().allow(null).required(),
  ackRef: Joi.string().allow(null).required(),
  run: Joi.number().integer().min(1).required(),
  history: Joi.array().items(historyEntry).required(),
  createdAt: iso().required(),
  updatedAt: iso().required(),
});

export const tenantInvoiceListSchema = Joi.object({
  data: Joi.array().items(tenantDraftSchema).required(),
  nextCursor: Joi.string().allow(null).required(),
});

const finding = Joi.object({ id: Joi.string().required(), location: Joi.string().allow('').required(), text: Joi.string().required() });

/** POST /v1/partner/documents/validate: exactly what `einvoice validate` prints. */
export const findingsSchema = Joi.object({ fatal: Joi.array().items(finding).required(), warning: Joi.array().items(finding).required() });

/** POST /v1/partner/invoices/validate: the held errors POST would answer, or the rendered XML and its findings. */
export const invoiceValidationSchema = Joi.alternatives().try(
  Joi.object({ valid: Joi.boolean().valid(false).required(), heldReason: Joi.string().required(), heldErrors: Joi.array().items(fieldErrorSchema).required(), warnings: Joi.array().items(submissionWarningSchema) }),
  findingsSchema.keys({ valid: Joi.boolean().required(), xml: Joi.string().required(), warnings: Joi.array().items(submissionWarningSchema) }),
);

/** An answer documented by its description only (its fields are listed in SPEC 2 and the route's comment). */
export const objectSchema = Joi.object().unknown(true);
