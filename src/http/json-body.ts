import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { ServiceError } from '../domain/errors';

/** 1 MB: a bulk request of 100 invoices fits. Routes that take less say so (the token route: 4 KB). */
const JSON_BODY_LIMIT = 1024 * 1024;
/** Deeper than any body of this API (an invoice is 4 levels); deeper ones only serve to exhaust recursion. */
const MAX_JSON_DEPTH = 32;

/**
 * Bodies are UTF-8 JSON objects or arrays up to 1 MB; anything else with a body is 415, never silently ignored. A body
 * that cannot be read as sent (not what its Content-Encoding claims, truncated) is 400, as are bodies nested deeper
 * than 32 levels and `__proto__` keys: client mistakes (or attacks), never a 500.
 */
export function jsonBody(limitBytes = JSON_BODY_LIMIT, tooLargeHint = 'split bulk requests into smaller batches'): Middleware {
  // A Content-Length over the limit is refused before a byte of the body is read; a chunked body stops at the limit.
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: `${limitBytes}b`, strict: true });
  return async (ctx, next) => {
    requireJsonContentType(ctx.get('Content-Length'), ctx.get('Transfer-Encoding'), ctx.is('application/json', '+json'), ctx.get('Content-Type'));
    requireUtf8(ctx.request.charset);
    try {
      await parse(ctx, async () => {}); // parse only: errors of the rest of the chain are not body errors
    } catch (err) {
      throw bodyError(err, ctx.get('Content-Encoding'), limitBytes, tooLargeHint);
    }
    requireValidUtf8((ctx.request as { rawBody?: string }).rawBody);
    checkShape((ctx.request as { body?: unknown }).body);
    await next();
  };
}

function requireJsonContentType(length: string, transferEncoding: string, isJson: string | false | null, contentType: string): void {
  const hasBody = Number(length || 0) > 0 || transferEncoding !== '';
  if (hasBody && !isJson) {
    throw new ServiceError(415, 'unsupported_media_type', 'Unsupported media type', `Content-Type ${contentType || '(none)'} is not accepted here; send JSON with Content-Type: application/json.`);
  }
}

/** JSON is UTF-8 (RFC 8259); a body declared in another charset would be read as UTF-8 anyway, so it is refused. */
function requireUtf8(charset: string): void {
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new ServiceError(415, 'unsupported_media_type', 'Unsupported media type', `The body is declared as ${charset}; send it as UTF-8 JSON (Content-Type: application/json, or charset=utf-8).`);
  }
}

/**
 * Bytes that are not UTF-8 are decoded as U+FFFD: refused rather than stored, since they would end up in an
 * invoice as replacement characters (a client that means U+FFFD itself is not a case worth keeping).
 */
function requireValidUtf8(raw: string | undefined): void {
  if (raw?.includes('\uFFFD')) {
    throw new ServiceError(400, 'malformed_body', 'Malformed body', 'The request body is not valid UTF-8; send the JSON encoded as UTF-8.');
  }
}

/** The body parser's failures as client errors (it reports some with a type, zlib and brotli with their own codes). */
function bodyError(err: unknown, contentEncoding: string, limitBytes: number, tooLargeHint: string): ServiceError {
  if (err instanceof ServiceError) return err;
  const e = err as { type?: string; status?: number };
  if (e.type === 'entity.too.large' || e.status === 413) {
    return new ServiceError(413, 'payload_too_large', 'Payload too large', `The request body exceeds ${sizeText(limitBytes)}; ${tooLargeHint}.`, { limitBytes });
  }
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported' || e.status === 415) {
    return new ServiceError(415, 'unsupported_media_type', 'Unsupported media type', 'Send the body as UTF-8 JSON, uncompressed or with Content-Encoding gzip, deflate or br.');
  }
  if (e.type === 'entity.parse.failed' || (e.status === 400 && /JSON|parse|Unexpected/i.test((err as Error).message ?? ''))) {
    return new ServiceError(400, 'malformed_json', 'Malformed JSON', 'The request body is not valid JSON; send a JSON object with Content-Type: application/json.');
  }
  const encoding = contentEncoding ? `as ${contentEncoding}` : 'as sent';
  return new ServiceError(400, 'malformed_body', 'Malformed body', `The request body could not be read ${encoding} (truncated, or not what its Content-Encoding says); send it again, uncompressed or correctly encoded.`);
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

/** Walks the parsed body without recursion: too deep, a `__proto__` key or a NUL character is a 400 naming where. */
function checkShape(body: unknown): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: body, path: '', depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string' && value.includes('\0')) {
      throw new ServiceError(400, 'forbidden_character', 'Forbidden character', `${path || 'The body'} holds a NUL character (\\u0000); no field of this API takes one.`, { path });
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      throw new ServiceError(400, 'body_too_deep', 'Body nested too deeply', `The request body is nested deeper than ${MAX_JSON_DEPTH} levels (at ${path || 'the top'}); no body of this API needs more than a few.`, { path });
    }
    for (const [key, child] of Object.entries(value)) {
      const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (key.includes('\0')) throw new ServiceError(400, 'forbidden_character', 'Forbidden character', `A key under ${path || 'the top'} holds a NUL character (\\u0000); no field of this API has one.`, { path });
      if (key === '__proto__') throw new ServiceError(400, 'forbidden_key', 'Forbidden key', `${at} is not a field of any body of this API; remove the __proto__ key.`, { path: at });
      stack.push({ value: child, path: at, depth: depth + 1 });
    }
  }
}
