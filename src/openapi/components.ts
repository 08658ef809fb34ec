// The named schemas of the document: request schemas are the very joi objects the routes validate with
// (imported from where the routes import them), answers are the joi schemas of response-schemas.ts.
import { recordsQuerySchema } from './records-operations';
import type Joi from 'joi';
import { bulkEnvelope } from '../api/partner/bulk-route';
import { trnQuerySchema } from '../api/partner/validate-trn';
import { partnerCreateSchema, partnerUpdateSchema, smeConnectSchema, tenantCreateSchema, tenantUpdateSchema } from '../api/admin';
import { rotationSchema } from '../api/admin/credential-routes';
import { creditNoteInputSchema } from '../domain/credit-note-input';
import { creditsQuerySchema, creditTopUpSchema } from '../domain/credit-schemas';
import { customerUpsertSchema } from '../domain/customer-schema';
import { listQuerySchema } from '../domain/invoice-list-query';
import { bulkInvoiceItemSchema, invoiceCreateBodySchema } from '../domain/invoice-schema';
import { tenantAlternativeInputSchema, tenantInvoiceInputSchema } from '../domain/tenant-invoice-input';
import { modeQuerySchema, submitRequestSchema, tokenRequestSchema } from '../domain/tenant-schemas';
import * as r from './response-schemas';

/** Bodies, by component name. */
export const REQUEST_SCHEMAS = {
  InvoiceCreateBody: invoiceCreateBodySchema,
  BulkInvoiceItem: bulkInvoiceItemSchema,
  BulkInvoiceBody: bulkEnvelope,
  CustomerUpsertBody: customerUpsertSchema,
  InvoiceCreateInput: tenantInvoiceInputSchema,
  InvoiceCreateInputAlternative: tenantAlternativeInputSchema,
  SubmitRequest: submitRequestSchema,
  TokenRequest: tokenRequestSchema,
  CreditNoteInput: creditNoteInputSchema,
  CreditTopUp: creditTopUpSchema,
  PartnerCreate: partnerCreateSchema,
  PartnerUpdate: partnerUpdateSchema,
  SmeConnect: smeConnectSchema,
  TenantCreate: tenantCreateSchema,
  TenantUpdate: tenantUpdateSchema,
  Rotation: rotationSchema,
} satisfies Record<string, Joi.Schema>;

/** Query strings (documented as parameters, one per key). */
export const QUERY_SCHEMAS = {
  InvoiceListQuery: listQuerySchema,
  TrnQuery: trnQuerySchema,
  CreditsQuery: creditsQuerySchema,
  ModeQuery: modeQuerySchema,
  RecordsQuery: recordsQuerySchema,
} satisfies Record<string, Joi.Schema>;

export const RESPONSE_SCHEMAS = {
  Problem: r.problemSchema,
  TenantError: r.tenantErrorSchema,
  FieldError: r.fieldErrorSchema,
  InvoiceQueued: r.invoiceQueuedSchema,
  InvoiceStatus: r.invoiceStatusSchema,
  InvoiceDetail: r.invoiceDetailSchema,
  InvoiceListResponse: r.invoiceListSchema,
  PingResponse: r.pingSchema,
  WhoamiResponse: r.whoamiSchema,
  TrnValidateResponse: r.trnValidationSchema,
  WebhookDeliveryList: r.webhookDeliveryListSchema,
  ReplayResponse: r.replaySchema,
  TokenResponse: r.tokenSchema,
  SubmitResponse: r.submitResultSchema,
  TenantDraft: r.tenantDraftSchema,
  TenantInvoice: r.tenantInvoiceSchema,
  TenantInvoiceList: r.tenantInvoiceListSchema,
  ValidationFindings: r.findingsSchema,
  InvoiceValidation: r.invoiceValidationSchema,
  Object: r.objectSchema,
} satisfies Record<string, Joi.Schema>;

export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;
export type QuerySchemaName = keyof typeof QUERY_SCHEMAS;
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
