import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ServiceError } from '../domain/errors';
import { errorResponse } from './problem';

/**
 * Requests Node's HTTP parser refuses before Koa sees them (a malformed request line, raw non-UTF-8 bytes in the
 * path, headers over the limit) are answered in our problem+json shape rather than Node's empty 400/431. The
 * request's path is unknown here, so both surfaces get problem+json.
 */
export function answerClientErrors(server: Server): Server {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, code, detail] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'The request headers are larger than this server accepts (16 KB in all); send shorter headers, and long values such as cursors in the query string only as returned.']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'request_timeout', 'The request was not completed in time; send it again.']
          : [400, 'malformed_request', 'The request is not valid HTTP/1.1 (request line, header syntax, or bytes that are not allowed in a path); check the client that sent it.'];
    const { body, contentType } = errorResponse(new ServiceError(status, code, STATUS_CODES[status] ?? 'Bad Request', detail), 'partner');
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  return server;
}
