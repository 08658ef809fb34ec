import { expect } from 'chai';
import { ServiceError, serviceErrors } from '../../../src/domain/errors';
import { errorBody, errorResponse, errorSurfaceOf } from '../../../src/http/problem';

describe('http/problem: the one ServiceError mapper', () => {
  const err = serviceErrors.validation([{ code: 'required', path: 'number', message: 'number is required' }]);

  it('Partner: problem+json with type, title, status, detail, code and meta', () => {
    expect(errorBody(err, 'partner')).to.deep.equal({
      type: 'https://einvoice.ae/problems/validation-failed',
      title: 'Invalid request',
      status: 400,
      detail: 'The request body failed validation; see meta.errors.',
      code: 'validation_failed',
      meta: { errors: [{ code: 'required', path: 'number', message: 'number is required' }] },
    });
    expect(errorResponse(err, 'partner').contentType).to.equal('application/problem+json');
  });

  it("Tenant: {code, humanMessage, meta, errors} under the Tenant API's code names", () => {
    expect(errorBody(err, 'tenant')).to.deep.equal({
      code: 'invalid_body',
      humanMessage: 'The request body failed validation; see meta.errors.',
      meta: { errors: [{ code: 'required', path: 'number', message: 'number is required' }] },
      errors: [{ code: 'required', path: 'number', message: 'number is required' }],
    });
    expect(errorBody(new ServiceError(404, 'not_found', 'Not found'), 'tenant')).to.deep.equal({ code: 'not_found', humanMessage: 'Not found' });
    expect(errorResponse(err, 'tenant').contentType).to.equal('application/json; charset=utf-8');
  });

  it("the surface is the router's (ctx.state.surface) when set, else the path's", () => {
    expect(errorSurfaceOf({ path: '/v1/invoices/x', state: {} })).to.equal('tenant');
    expect(errorSurfaceOf({ path: '/v1/partner/invoices', state: {} })).to.equal('partner');
    expect(errorSurfaceOf({ path: '/v1/unknown', state: { surface: 'tenant' } })).to.equal('tenant');
    expect(errorSurfaceOf({ path: '/v1/invoices', state: { surface: 'partner' } })).to.equal('partner');
  });
});
