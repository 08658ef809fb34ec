// The one translator of joi's findings into {code, path, message}, for both API surfaces, the CSV readers
// (through the Tenant invoice reader) and the CLI (through the Partner invoice body). Pure.
//
// Two dialects, because two kinds of input have always been answered with different codes and tests pin both:
// - `request`: the small bodies and query strings checked by http/validate.ts (credits, customers, bulk
//   envelopes, admin, list queries). Ranges are `out_of_range`, an array too short is `too_few`, and the
//   message is joi's own sentence after the field's path.
// - `document`: invoice bodies (Partner InvoiceCreateBody, Tenant InvoiceCreateInput in either shape, CSV rows
//   read as the latter). Amount ranges speak of amounts (`negative_amount`, `not_positive`, `too_large`,
//   `vat_rate_percent`), an array too short is `too_short`, and each message says what to send, with the
//   surface's own hints (DocumentWords).
import type Joi from 'joi';
import { SHORT_TAX_CODES, type FieldError } from '@einvoice/pint-ae';
import { jsonPath } from './schema-helpers';

export type JoiDialect = 'request' | 'document';

/** Codes both dialects give. */
const SHARED_CODES: Record<string, string> = {
  'any.required': 'required',
  'object.unknown': 'unknown_field',
  'any.unknown': 'unknown_field',
  'any.only': 'invalid_enum',
  'string.empty': 'empty',
  'string.max': 'too_long',
  'string.min': 'too_short',
  'string.length': 'invalid_length',
  'string.pattern.base': 'invalid_format',
  'string.pattern.name': 'invalid_format',
  'string.email': 'invalid_format',
  'string.guid': 'invalid_format',
  'string.isoDate': 'invalid_format',
  'string.uppercase': 'invalid_format',
  'date.base': 'invalid_format',
  'date.format': 'invalid_format',
  'number.greater': 'out_of_range',
  'number.less': 'out_of_range',
  'number.integer': 'not_integer',
  'array.max': 'too_many',
  'array.includesRequiredUnknowns': 'required',
  'object.and': 'required',
  'object.with': 'required',
  'object.without': 'conflict',
  'object.xor': 'conflict',
  'object.oxor': 'conflict',
  'object.missing': 'required',
  'unit.unknown': 'invalid_unit_code',
  'alternatives.types': 'invalid_type',
};

/** Where the dialects differ (each case is in the notes of issue 36), and what an unlisted type becomes. */
const DIALECT_CODES: Record<JoiDialect, { codes: Record<string, string>; otherwise: string }> = {
  request: {
    codes: {
      'array.min': 'too_few',
      'array.sparse': 'invalid_type',
      'number.min': 'out_of_range',
      'number.max': 'out_of_range',
      'number.positive': 'out_of_range',
      'number.unsafe': 'out_of_range',
      'number.infinity': 'out_of_range',
    },
    otherwise: 'invalid',
  },
  document: {
    codes: {
      'array.min': 'too_short',
      'array.sparse': 'required',
      'number.min': 'negative_amount',
      'number.max': 'too_large',
      'number.positive': 'not_positive',
      'number.unsafe': 'invalid_number',
      'number.infinity': 'invalid_number',
      'date.iso': 'invalid_format',
    },
    otherwise: 'invalid_value',
  },
};

/** joi's type errors, in words. */
const TYPE_NAMES: Record<string, string> = {
  'string.base': 'a string',
  'number.base': 'a number',
  'object.base': 'an object',
  'array.base': 'an array',
  'boolean.base': 'true or false',
  'alternatives.types': 'a string',
};

/** The code of a joi finding type in a dialect. */
export function joiErrorCode(type: string, dialect: JoiDialect): string {
  const { codes, otherwise } = DIALECT_CODES[dialect];
  const code = codes[type] ?? SHARED_CODES[type];
  if (code) return code;
  if (type.endsWith('.base')) return 'invalid_type';
  return otherwise;
}

/** What a surface says about its invoice bodies in `document` messages. */
export interface DocumentWords {
  /** The body's type name after "the body must be a JSON object" (e.g. " (InvoiceCreateBody)"), or ''. */
  bodyName: string;
  /** What an array of lines holds, e.g. "invoice line objects". */
  itemsName: string;
  /** After "is required", by field name: what to send. */
  requiredHints: Record<string, string>;
  /** Instead of "has an invalid format", by field name. */
  formatHints: Record<string, string>;
  /** A field refused as unknown whose message names where it belongs (Partner: externalRef on bulk items). */
  unknownFieldOwners?: Record<string, string>;
  /** `string.length`: the limit and then the hint (Partner), or the hint alone when there is one (Tenant). */
  lengthWithLimit: boolean;
}

/** One joi finding as {code, path, message}. `words` is required for the document dialect. */
export function joiFieldError(d: Joi.ValidationErrorItem, dialect: 'request'): FieldError;
export function joiFieldError(d: Joi.ValidationErrorItem, dialect: 'document', words: DocumentWords): FieldError;
export function joiFieldError(d: Joi.ValidationErrorItem, dialect: JoiDialect, words?: DocumentWords): FieldError {
  const path = jsonPath(d.path);
  const code = dialect === 'document' && isPercentRate(d) ? 'vat_rate_percent' : joiErrorCode(d.type, dialect);
  const message = dialect === 'document' && words ? documentMessage(d, path, code, words) : requestMessage(d, path, code);
  return { code, path, message };
}

/** A VAT rate above 1 in an invoice body was meant as a percent. */
function isPercentRate(d: Joi.ValidationErrorItem): boolean {
  return d.type === 'number.max' && d.path[d.path.length - 1] === 'vatRate';
}

/** joi quotes the value it refused in some messages (patterns): a value longer than this is shown cut. */
const MAX_ECHOED_VALUE = 100;

function requestMessage(d: Joi.ValidationErrorItem, path: string, code: string): string {
  if (code === 'unknown_field') return `${path} is not a known field; remove it.`;
  const field = path || 'value';
  // joi's own message names the label (we set the label to the path); make it start with our path form.
  const text = d.message.replace(/^"?[^"\s]+"? /, '').trim();
  return `${field} ${withoutLongValue(text, d.context?.value)}`;
}

/** A refused 400 KB value is not sent back in the answer (issue 13: answers larger than the request). */
function withoutLongValue(text: string, value: unknown): string {
  if (typeof value !== 'string' || value.length <= MAX_ECHOED_VALUE) return text;
  return text.split(value).join(`${value.slice(0, MAX_ECHOED_VALUE)}... (${value.length} characters)`);
}

function documentMessage(d: Joi.ValidationErrorItem, path: string, code: string, words: DocumentWords): string {
  const where = path || 'body';
  const field = String(d.path[d.path.length - 1] ?? '');
  const ctx = d.context ?? {};
  switch (d.type) {
    case 'any.required':
      return `${where} is required${words.requiredHints[field] ?? ''}`;
    case 'object.unknown':
      return `${where} is not a field of ${words.unknownFieldOwners?.[field] ?? 'this object'}: remove it or check its spelling`;
    case 'any.only': {
      // The short tax codes are accepted but not advertised.
      const valids = ((ctx.valids as unknown[] | undefined) ?? []).filter((v) => !(SHORT_TAX_CODES as readonly unknown[]).includes(v));
      return `${where} must be one of: ${valids.join(', ')}`;
    }
    case 'string.max':
      return `${where} must be at most ${ctx.limit} characters long`;
    case 'string.length': {
      const hint = words.formatHints[field];
      if (words.lengthWithLimit) return `${where} must be exactly ${ctx.limit} characters long; ${hint ?? ''}`.replace(/; $/, '');
      return `${where} ${hint ?? `must be exactly ${ctx.limit} characters long`}`;
    }
    case 'string.pattern.base':
    case 'string.email':
      return `${where} ${words.formatHints[field] ?? 'has an invalid format'}`;
    case 'date.iso':
      return `${where} must be a calendar date written YYYY-MM-DD, e.g. "2025-02-07"`;
    case 'unit.unknown':
      return `${where} "${String(ctx.value)}" is not a UN/ECE Recommendation 20 unit code: send e.g. EA, C62, H87, HUR, KGM, LTR or MTR`;
    case 'string.empty':
      return `${where} must not be empty: send a value or leave the field out`;
    case 'array.min':
      return `${where} must contain at least ${ctx.limit} item`;
    case 'array.sparse':
    case 'array.includesRequiredUnknowns':
      return `${where} must contain ${words.itemsName}`;
    case 'number.positive':
      return `${where} must be greater than 0: credit and debit notes carry positive quantities too (invoiceType conveys the reversal)`;
    case 'number.min':
      return field === 'unitPrice'
        ? `${where} must be 0 or more: credit and debit notes carry positive unit prices too (invoiceType conveys the reversal)`
        : `${where} must be an absolute amount of 0 or more`;
    case 'number.max':
      return code === 'vat_rate_percent' ? `${where} is a decimal fraction: send 0.05 for 5 %, not 5` : `${where} must be at most ${ctx.limit}`;
    case 'number.infinity':
    case 'number.unsafe':
      return `${where} must be a finite number`;
    case 'object.base':
      if (d.path.length === 0) return `the body must be a JSON object${words.bodyName}`;
      return `${where} must be an object`;
    default:
      if (code === 'invalid_type' && TYPE_NAMES[d.type]) return `${where} must be ${TYPE_NAMES[d.type]}`;
      return `${where}: ${d.message}`;
  }
}
