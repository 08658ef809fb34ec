// The raw body of an XML route (POST /v1/partner/documents/validate), read here because jsonBody() accepts JSON
// only. XML media types only (415 otherwise), at most XML_BODY_LIMIT bytes (413, answered as soon as the limit is
// passed; the rest of the upload is discarded as it arrives, not held), an empty body is 400.
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { ServiceError } from '../domain/errors';

/** 5 MB, the Tenant API's CSV limit (SPEC 8): far beyond any invoice a person or an ERP writes. */
export const XML_BODY_LIMIT = 5 * 1024 * 1024;
/** Past this much discarded after a 413 the connection is cut rather than drained. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

export interface XmlBodyState {
  /** The body, decoded as UTF-8 exactly as `einvoice validate` reads a file. */
  xml: string;
}

export function xmlBody(limit = XML_BODY_LIMIT): Middleware<XmlBodyState> {
  return async (ctx, next) => {
    if (!isXmlType(ctx.request.type)) {
      throw new ServiceError(
        415,
        'unsupported_media_type',
        'Unsupported media type',
        `Content-Type ${ctx.get('Content-Type') || '(none)'} is not accepted here; send the UBL document with Content-Type: application/xml (or text/xml).`,
      );
    }
    const bytes = await readBounded(ctx.req, limit, Number(ctx.get('Content-Length') || 0));
    if (bytes.length === 0) {
      throw new ServiceError(400, 'empty_body', 'Invalid request', 'The body is empty; send the UBL Invoice or CreditNote document as the body.');
    }
    ctx.state.xml = bytes.toString('utf8');
    await next();
  };
}

/** application/xml, text/xml or any +xml type (ctx.is() would answer null for an empty body, and that is a 400). */
function isXmlType(type: string): boolean {
  return type === 'application/xml' || type === 'text/xml' || (type.startsWith('application/') && type.endsWith('+xml'));
}

function tooLarge(limit: number): ServiceError {
  return new ServiceError(413, 'payload_too_large', 'Payload too large', `The document is larger than ${limit / (1024 * 1024)} MB (${limit} bytes); nothing was validated.`, { limitBytes: limit });
}

/** The whole body, or a 413 once it passes `limit` (or declares more); after a 413 the rest is dropped as it arrives. */
function readBounded(req: IncomingMessage, limit: number, declared: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    let ended = false;
    const refuse = () => {
      refused = true;
      chunks.length = 0;
      reject(tooLarge(limit));
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (refused) {
        if (size > limit + MAX_DISCARD_BYTES) req.destroy();
        return;
      }
      if (size > limit) return refuse();
      chunks.push(chunk);
    });
    req.on('end', () => {
      ended = true;
      if (!refused) resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (err) => {
      if (!refused) reject(err);
    });
    // The client went away mid-upload: nobody reads the answer, but the request must not wait forever.
    req.on('close', () => {
      if (!ended && !refused) reject(new Error('request body not complete: the client closed the connection'));
    });
    if (declared > limit) refuse();
  });
}
