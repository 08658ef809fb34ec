import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * One hand-over of an invoice's document to the ASP (one per pipeline run), kept as evidence for an authority
 * audit: the SHA-256 of the XML sent, the ASP's ids, each ASP status with its time, the Message Level Status, the
 * acknowledgement reference and the ASP's raw answers. Opened before the document leaves; later answers (the
 * submit answer, polls, callbacks) only add to it. The exact XML is kept apart, in asp_submission_documents, written
 * once: every answer rewrites this record (FerretDB updates rewrite the whole document), and should not rewrite
 * tens of kilobytes of XML with it.
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
    /** Records opened before the XML moved to asp_submission_documents carry it here. */
    xml: { type: String, default: undefined },
    /** ASP status -> when the ASP says it was reached (ISO), e.g. {UPLOADED: ..., REPORTED: ...}. */
    statusAt: { type: Schema.Types.Mixed, default: {} },
    mls: { type: Schema.Types.Mixed, default: null },
    ackRef: { type: String, default: null },
    answers: [{ _id: false, at: { type: Date, required: true }, source: { type: String, required: true }, body: { type: Schema.Types.Mixed } }],
    /**
     * Verdict signals the evidence did not support (sent to the workflow by someone other than the ASP's own
     * paths): when, what they claimed, why refused. They changed nothing; kept for the audit (at most 100).
     */
    refusedSignals: [{ _id: false, at: { type: Date, required: true }, claimed: { type: Schema.Types.Mixed }, why: { type: String, required: true } }],
  },
  { timestamps: true, versionKey: false, minimize: false },
);
aspSubmissionSchema.index({ submissionId: 1 });
aspSubmissionSchema.index({ invoiceId: 1 });

export type AspSubmissionDoc = InferSchemaType<typeof aspSubmissionSchema> & { _id: string };
export const AspSubmission = model('AspSubmission', aspSubmissionSchema, 'asp_submissions');

/** The exact XML of one hand-over (same _id as its AspSubmission: <invoiceId>-<run>), written once, never changed. */
const aspSubmissionDocumentSchema = new Schema(
  {
    _id: { type: String, required: true },
    xml: { type: String, required: true },
  },
  { timestamps: true, versionKey: false },
);

export type AspSubmissionDocumentDoc = InferSchemaType<typeof aspSubmissionDocumentSchema> & { _id: string };
export const AspSubmissionDocument = model('AspSubmissionDocument', aspSubmissionDocumentSchema, 'asp_submission_documents');
