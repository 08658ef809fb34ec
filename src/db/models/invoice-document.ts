import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * The PINT-AE XML of an invoice's latest run, apart from the invoice so the status document every transition
 * rewrites stays small (the XML is ~10 times its size, and read only by the document endpoint and validation).
 */
const invoiceDocumentSchema = new Schema(
  {
    _id: { type: String, required: true }, // invoiceId
    xml: { type: String, required: true },
    documentUuid: { type: String, required: true },
    run: { type: Number, required: true },
  },
  { timestamps: true, versionKey: false },
);

export type InvoiceDocumentDoc = InferSchemaType<typeof invoiceDocumentSchema> & { _id: string };
export const InvoiceDocument = model('InvoiceDocument', invoiceDocumentSchema, 'invoice_documents');
