// What a partner or tenant is told about a failed webhook attempt (`lastError`): the class of failure, never the
// address or the raw error text. Those would turn the delivery log into a port scanner of our network
// ("ECONNREFUSED 10.0.3.7:5432"); the full detail goes to our logs only. Pure.

export type SendFailureClass =
  | 'forbidden_address'
  | 'https_required'
  | 'invalid_url'
  | 'credentials_in_url'
  | 'connection_refused'
  | 'connection_reset'
  | 'network_unreachable'
  | 'dns_error'
  | 'tls_error'
  | 'timeout'
  | 'redirect_not_followed'
  | `http_${number}`
  | 'connection_error';

/** A failure as recorded: `error` is what the receiver's owner sees, `detail` what our logs keep. */
export interface SendFailure {
  error: SendFailureClass;
  detail: string;
}

const TLS_CODES = /^(EPROTO|ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|ERR_OSSL_)/;
const DNS_CODES = /^(ENOTFOUND|EAI_|ENODATA$|ESERVFAIL$|ENONAME$|EBADNAME$|ENOTIMP$|EREFUSED$)/;

/** The class of a transport error (Node's `err.code`); unknown codes are a plain `connection_error`. */
export function transportFailureClass(code: string | undefined): SendFailureClass {
  if (!code) return 'connection_error';
  if (code === 'EWEBHOOK_ADDRESS') return 'forbidden_address';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'connection_reset';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'timeout';
  if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH' || code === 'ENETDOWN' || code === 'EHOSTDOWN') return 'network_unreachable';
  if (DNS_CODES.test(code)) return 'dns_error';
  if (TLS_CODES.test(code)) return 'tls_error';
  return 'connection_error';
}

export function transportFailure(err: { code?: string; message: string }): SendFailure {
  if (err.code === 'EWEBHOOK_ADDRESS') return { error: 'forbidden_address', detail: `refused: ${err.message}` };
  return { error: transportFailureClass(err.code), detail: err.code ? `${err.code}: ${err.message}` : err.message };
}

/** null for a 2xx; a 3xx is not followed (the receiver must register its final URL). */
export function statusFailure(status: number, location?: string): SendFailure | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return { error: 'redirect_not_followed', detail: `HTTP ${status}: redirect${location ? ` to ${withoutQuery(location)}` : ''} not followed` };
  return { error: `http_${status}`, detail: `HTTP ${status}` };
}

export function timeoutFailure(timeoutMs: number): SendFailure {
  return { error: 'timeout', detail: `no response within ${timeoutMs / 1000} s` };
}

/** A receiver's Location may carry tokens in its query: the logs keep where it pointed, not those. */
function withoutQuery(location: string): string {
  return location.replace(/[?#].*$/s, '').slice(0, 300);
}
