import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * One hand-over of an invoice's document to the ASP (one per pipeline run), kept as evidence for an authority
 * audit: the exact XML sent and its SHA-256, the ASP's ids, each ASP status with its time, the Message Level
 * Status, the acknowledgement reference and the ASP's raw answers. Written once at submission; later answers
 * (polls, callbacks) only add to it, so the delivered XML is never rewritten.
 */
const aspSubmissionSchema = new Schema(
  {
    _id: { type: String, required: true }, // our document id: <invoiceId>-<run>
    invoiceId: { type: String, required: true },
    run: { type: Number, required: true },
    /** The ASP's id (null for a hand-over the ASP refused outright). */
    submissionId: { type: String, default: null },
    documentUuid: { type: String, required: true },
    documentSha256: { type: String, required: true },
    xml: { type: String, required: true },
    /** ASP status -> when the ASP says it was reached (ISO), e.g. {UPLOADED: ..., REPORTED: ...}. */
    statusAt: { type: Schema.Types.Mixed, default: {} },
    mls: { type: Schema.Types.Mixed, default: null },
    ackRef: { type: String, default: null },
    answers: [{ _id: false, at: { type: Date, required: true }, source: { type: String, required: true }, body: { type: Schema.Types.Mixed } }],
  },
  { timestamps: true, versionKey: false, minimize: false },
);
aspSubmissionSchema.index({ submissionId: 1 });
aspSubmissionSchema.index({ invoiceId: 1 });

export type AspSubmissionDoc = InferSchemaType<typeof aspSubmissionSchema> & { _id: string };
export const AspSubmission = model('AspSubmission', aspSubmissionSchema, 'asp_submissions');
