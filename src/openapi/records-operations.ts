// The audit export routes (issue 34 point 4) in the route registry; joined to OPERATIONS in operations.ts.
import Joi from 'joi';
import type { Operation } from './operations';

const isoDate = (what: string) => Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/).required().description(what);

/** The documented shape of ?from=&to= (checked by src/records/export-period.ts, which also caps the span). */
export const recordsQuerySchema = Joi.object({
  from: isoDate('First issue date of the period, YYYY-MM-DD (inclusive).'),
  to: isoDate('Last issue date of the period, YYYY-MM-DD (inclusive), at most 365 days after from.'),
});

const DESCRIPTION = [
  'One tar archive (ustar), streamed: every document handed over to the accredited provider with an issue date in [from, to], byte for byte as sent (`invoices/<id>/run-<n>.xml`, credit notes under `credit-notes/`), each invoice\'s evidence (`<dir>/<id>/evidence.json`: provider ids, statuses with their times, acknowledgement reference, raw answers, and its evidence-chain entries), a manifest (`manifest.csv` and `manifest.json`: number, issue date, document type, totals, status, ackRef, SHA-256, chain position), the seller TRN\'s evidence hash chain from the first archived entry up to its head (`chain/entries.jsonl`, `chain/head.json`) and `SHA256SUMS`.',
  'Check it offline with `einvoice records verify --archive <file>`. Invoices never handed over (drafts, held, queued) are not records and are left out. A failure after the answer started cuts the archive short (no closing blocks): the check reports it as truncated.',
  'Refusals name the parameter: `from`/`to` missing (`required`), not a calendar date (`invalid_date`), to before from (`invalid_range`), more than 366 days (`range_too_large`: export longer spans as several archives), any other parameter (`unknown_parameter`).',
].join('\n\n');

const success = { status: 200, description: 'The archive (Content-Disposition names it records-<trn>-<from>-<to>.tar).', contentType: 'application/x-tar' };

export const RECORDS_OPERATIONS: Operation[] = [
  { method: 'get', path: '/v1/partner/records', surface: 'partner', summary: 'Audit export of the SME\'s records for a period (tar)', description: DESCRIPTION, query: 'RecordsQuery', success, errors: { 400: ['validation_failed'] } },
  { method: 'get', path: '/v1/records', surface: 'tenant', summary: 'Audit export of the tenant\'s records for a period, current mode (tar)', description: DESCRIPTION, query: 'RecordsQuery', success, errors: { 400: ['invalid_body'] } },
];
