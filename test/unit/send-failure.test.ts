import { expect } from 'chai';
import { statusFailure, timeoutFailure, transportFailure, transportFailureClass } from '../../src/webhooks/send-failure';

// What a partner reads in lastError: a class of failure, never an address or the raw error text.
describe('webhook send failure classes (send-failure.ts)', () => {
  it('classifies Node transport error codes', () => {
    const cases: [string | undefined, string][] = [
      ['ECONNREFUSED', 'connection_refused'],
      ['ECONNRESET', 'connection_reset'], ['EPIPE', 'connection_reset'], ['ECONNABORTED', 'connection_reset'],
      ['ETIMEDOUT', 'timeout'], ['ESOCKETTIMEDOUT', 'timeout'],
      ['ENETUNREACH', 'network_unreachable'], ['EHOSTUNREACH', 'network_unreachable'], ['EHOSTDOWN', 'network_unreachable'],
      ['ENOTFOUND', 'dns_error'], ['EAI_AGAIN', 'dns_error'], ['EAI_FAIL', 'dns_error'], ['ENODATA', 'dns_error'], ['ESERVFAIL', 'dns_error'],
      ['EPROTO', 'tls_error'], ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls_error'], ['ERR_SSL_PACKET_LENGTH_TOO_LONG', 'tls_error'],
      ['CERT_HAS_EXPIRED', 'tls_error'], ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls_error'], ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls_error'],
      ['SELF_SIGNED_CERT_IN_CHAIN', 'tls_error'], ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls_error'], ['HOSTNAME_MISMATCH', 'tls_error'],
      ['EWEBHOOK_ADDRESS', 'forbidden_address'],
      ['EADDRNOTAVAIL', 'connection_error'], ['ERR_SOMETHING_NEW', 'connection_error'], [undefined, 'connection_error'],
    ];
    for (const [code, expected] of cases) expect(transportFailureClass(code), String(code)).to.equal(expected);
  });

  it('keeps the raw text (addresses included) in the detail only', () => {
    const failure = transportFailure(Object.assign(new Error('connect ECONNREFUSED 10.0.3.7:5432'), { code: 'ECONNREFUSED' }));
    expect(failure).to.deep.equal({ error: 'connection_refused', detail: 'ECONNREFUSED: connect ECONNREFUSED 10.0.3.7:5432' });
    expect(failure.error).to.not.match(/\d/);
    const lookup = transportFailure(Object.assign(new Error('intranet.example resolves to private address 10.0.0.8'), { code: 'EWEBHOOK_ADDRESS' }));
    expect(lookup).to.deep.equal({ error: 'forbidden_address', detail: 'refused: intranet.example resolves to private address 10.0.0.8' });
    expect(transportFailure(new Error('socket hang up'))).to.deep.equal({ error: 'connection_error', detail: 'socket hang up' });
  });

  it('HTTP answers: 2xx is no failure, 3xx is not followed, anything else is http_<status>', () => {
    for (const status of [200, 201, 204, 299]) expect(statusFailure(status), String(status)).to.equal(null);
    expect(statusFailure(500)).to.deep.equal({ error: 'http_500', detail: 'HTTP 500' });
    expect(statusFailure(404)).to.deep.include({ error: 'http_404' });
    expect(statusFailure(199)).to.deep.include({ error: 'http_199' });
    const redirect = statusFailure(302, 'https://elsewhere.example/hook?token=abc#x');
    expect(redirect).to.deep.equal({ error: 'redirect_not_followed', detail: 'HTTP 302: redirect to https://elsewhere.example/hook not followed' });
    expect(statusFailure(301)).to.deep.equal({ error: 'redirect_not_followed', detail: 'HTTP 301: redirect not followed' });
  });

  it('our own timer is a timeout', () => {
    expect(timeoutFailure(10_000)).to.deep.equal({ error: 'timeout', detail: 'no response within 10 s' });
  });
});
