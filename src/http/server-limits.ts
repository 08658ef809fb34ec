import type { Server } from 'node:http';
import type { Config } from '../config';

export type ServerLimits = Pick<Config, 'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs' | 'httpKeepAliveTimeoutMs' | 'httpMaxConnections'>;

/**
 * Node's HTTP server limits, set deliberately rather than left at Node's defaults (config: HTTP_*):
 * - headersTimeout: a client has this long to send its request line and headers (slow-header attacks hold a socket
 *   for free otherwise);
 * - requestTimeout: the whole request, body included; must leave room for the largest upload (5 MB CSV or XML);
 * - keepAliveTimeout: an idle kept-alive socket is closed after this; longer than a load balancer's idle timeout;
 * - maxConnections: sockets beyond this are closed on accept, so a flood cannot exhaust memory or descriptors.
 * Timeouts are answered 408 in problem+json by answerClientErrors().
 */
export function applyServerLimits(server: Server, limits: ServerLimits): Server {
  const { httpHeadersTimeoutMs, httpRequestTimeoutMs, httpKeepAliveTimeoutMs, httpMaxConnections } = limits;
  if (httpRequestTimeoutMs > 0 && httpHeadersTimeoutMs > httpRequestTimeoutMs) {
    throw new Error(`HTTP_HEADERS_TIMEOUT_MS (${httpHeadersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${httpRequestTimeoutMs}): the headers are part of the request`);
  }
  server.headersTimeout = httpHeadersTimeoutMs;
  server.requestTimeout = httpRequestTimeoutMs;
  server.keepAliveTimeout = httpKeepAliveTimeoutMs;
  server.maxConnections = httpMaxConnections;
  return server;
}
