// The invoice status model, stated once for the document (issue 12 item 4). Pure text built from the status
// table's own list, so a status added to src/domain/invoice-status.ts appears here without an edit.
import { INVOICE_STATUSES } from '../domain/invoice-status';

/** What an API answer's `status` field can say: the stored statuses plus `held` (a Partner API name). */
export const REPORTED_STATUSES = [...INVOICE_STATUSES, 'held'] as const;

export const STATUS_MODEL = `**Invoice status model** (SPEC 3.1). Stored statuses: ${INVOICE_STATUSES.map((s) => `\`${s}\``).join(', ')}.
Statuses move forward only; a retry starts a new pipeline run (\`run\` + 1) from \`rejected\` or \`blocked_no_credit\`.

| status | meaning |
|---|---|
| \`draft\` | stored, not sent. Tenant API: every new invoice until \`POST /v1/invoices/submit\`. Partner API: the automatic start failed; recover with \`POST .../{id}/retry\`. |
| \`queued\` → \`transformed\` → \`validated\` | the pipeline: PINT-AE XML rendered, then checked (native rules, official Schematron). |
| \`blocked_no_credit\` | failure terminal: the SME or tenant has no delivery credit; released by a top-up or a retry. |
| \`delivered\` | success terminal: handed to the accredited provider (ASP). On the Tenant API: sent and waiting for acknowledgement. |
| \`acknowledged\` | success terminal: the authority acknowledged it (\`ackRef\`). Webhooks collapse it into \`delivered\`. |
| \`rejected\` | failure terminal: refused by the pipeline, the provider or the authority; \`reason\` says why. |
| \`held\` | Partner API only, see below. |

**Held.** When pre-submit validation refuses a \`POST /v1/partner/invoices\` body that is well-formed JSON, the
invoice is *held*: it is stored as a \`draft\` with \`heldReason\` and \`heldErrors\` (rule, JSON path, message) and no
pipeline runs. On the Partner API a held invoice is reported as status \`held\` everywhere: the POST answer, GET
\`/v1/partner/invoices/{id}\`, the list, and the filter \`?status=held\`. It cannot be retried (409 \`invoice_held\`):
DELETE it and POST a corrected body. The Tenant API has no held status: a body its pre-submit checks refuse is
answered 400/422 and nothing is stored.`;
