import { Schema, model, type InferSchemaType } from 'mongoose';

export const CREDENTIAL_ACTIONS = ['rotate_secret', 'rotate_webhook_secret', 'revoke', 'reissue'] as const;
export const CREDENTIAL_SUBJECTS = ['partner', 'sme', 'tenant'] as const;
export const AUDIT_ACTOR_KINDS = ['cli', 'admin-api'] as const;

/**
 * One row per rotation, revocation and reissue of a credential (services/credential-audit.ts): who, what, when.
 * Never a secret nor its hash. Written before the change it records, so no change is ever without its row.
 */
const credentialAuditSchema = new Schema(
  {
    _id: { type: String, required: true }, // uuid
    at: { type: Date, required: true },
    action: { type: String, enum: CREDENTIAL_ACTIONS, required: true },
    subjectType: { type: String, enum: CREDENTIAL_SUBJECTS, required: true },
    subjectId: { type: String, required: true },
    /** The partner an SME belongs to, so a partner's whole history is one query. */
    partnerId: { type: String, default: null },
    actor: {
      kind: { type: String, enum: AUDIT_ACTOR_KINDS, required: true },
      /** The OS user running the CLI; the request id on the admin API. */
      name: { type: String, required: true },
      /** The client address on the admin API. */
      address: { type: String, default: null },
    },
    previousSecretValidUntil: { type: Date, default: null },
  },
  { versionKey: false },
);
credentialAuditSchema.index({ subjectType: 1, subjectId: 1, at: -1 });

export type CredentialAuditDoc = InferSchemaType<typeof credentialAuditSchema> & { _id: string };
export const CredentialAudit = model('CredentialAudit', credentialAuditSchema, 'credential_audit');
