import { expect } from 'chai';
import Joi from 'joi';
import { joiErrorCode, joiFieldError, type DocumentWords } from '../../../src/domain/joi-errors';
import { JOI_OPTIONS } from '../../../src/domain/schema-helpers';

const WORDS: DocumentWords = { bodyName: '', itemsName: 'objects', requiredHints: { lines: ': send at least one line' }, formatHints: {}, lengthWithLimit: false };

function findings(schema: Joi.Schema, input: unknown, dialect: 'request' | 'document') {
  const { error } = schema.validate(input, JOI_OPTIONS);
  return (error?.details ?? []).map((d) => (dialect === 'request' ? joiFieldError(d, 'request') : joiFieldError(d, 'document', WORDS)));
}

describe('joi-errors: the one joi translator', () => {
  const schema = Joi.object({
    lines: Joi.array().items(Joi.object({ unitPrice: Joi.number().min(0), quantity: Joi.number().positive(), vatRate: Joi.number().max(1) })).min(1).required(),
    limit: Joi.number().max(100),
  });

  it('both dialects agree on the shared codes and paths', () => {
    for (const dialect of ['request', 'document'] as const) {
      expect(findings(schema, { lines: [{ unitPrice: 'x' }], extra: 1 }, dialect).map((e) => `${e.code} ${e.path}`)).to.deep.equal(['invalid_type lines[0].unitPrice', 'unknown_field extra']);
      expect(findings(schema, {}, dialect).map((e) => `${e.code} ${e.path}`)).to.deep.equal(['required lines']);
    }
  });

  it('request: ranges are out_of_range and a short array too_few; document: amount codes and too_short', () => {
    const body = { lines: [{ unitPrice: -1, quantity: 0, vatRate: 5 }], limit: 500 };
    expect(findings(schema, body, 'request').map((e) => e.code)).to.deep.equal(['out_of_range', 'out_of_range', 'out_of_range', 'out_of_range']);
    expect(findings(schema, body, 'document').map((e) => e.code)).to.deep.equal(['negative_amount', 'not_positive', 'vat_rate_percent', 'too_large']);
    expect(findings(schema, { lines: [] }, 'request').map((e) => e.code)).to.deep.equal(['too_few']);
    expect(findings(schema, { lines: [] }, 'document').map((e) => e.code)).to.deep.equal(['too_short']);
  });

  it('an unlisted joi type is invalid (request) or invalid_value (document); *.base is invalid_type in both', () => {
    expect(joiErrorCode('any.custom', 'request')).to.equal('invalid');
    expect(joiErrorCode('any.custom', 'document')).to.equal('invalid_value');
    expect(joiErrorCode('symbol.base', 'request')).to.equal('invalid_type');
    expect(joiErrorCode('date.iso', 'document')).to.equal('invalid_format');
  });

  it('document messages say what to send, with the surface hints', () => {
    expect(findings(schema, {}, 'document')[0].message).to.equal('lines is required: send at least one line');
    expect(findings(schema, { lines: [{ vatRate: 5 }] }, 'document')[0].message).to.equal('lines[0].vatRate is a decimal fraction: send 0.05 for 5 %, not 5');
    expect(findings(schema, { lines: [{ vatRate: 5 }] }, 'request')[0].message).to.equal('lines[0].vatRate must be less than or equal to 1');
  });
});
