// Which rendition a GET .../document asks for: ?format=xml|html|pdf, else the Accept header (quality values
// honoured, the stored XML for */* or no header). Anything else is a 406 naming what can be sent. Pure code.
import { ServiceError } from '../domain/errors';

export type DocumentFormat = 'xml' | 'html' | 'pdf';

export const FORMAT_TYPES: Record<DocumentFormat, string> = {
  xml: 'application/xml',
  html: 'text/html',
  pdf: 'application/pdf',
};

const BY_TYPE: Record<string, DocumentFormat> = {
  'application/xml': 'xml',
  'text/xml': 'xml',
  'text/html': 'html',
  'application/pdf': 'pdf',
  '*/*': 'xml',
  'application/*': 'xml',
  'text/*': 'html',
};

function notAcceptable(what: string): ServiceError {
  return new ServiceError(
    406,
    'not_acceptable',
    'Not Acceptable',
    `${what}. The document is available as application/xml (the PINT-AE XML as stored), text/html or application/pdf (a bilingual rendition of it): send one of them in Accept, or ?format=xml|html|pdf.`,
    { accepted: Object.values(FORMAT_TYPES), formats: Object.keys(FORMAT_TYPES) },
  );
}

export function negotiateFormat(format: unknown, accept: string | undefined): DocumentFormat {
  if (format !== undefined) {
    if (typeof format === 'string' && format in FORMAT_TYPES) return format as DocumentFormat;
    throw notAcceptable(`query.format: "${String(format).slice(0, 40)}" is not a format`);
  }
  if (!accept || !accept.trim()) return 'xml';
  const ranges = accept
    .split(',')
    .map((part, i) => {
      const [type, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { type: type.trim(), q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((r) => r.q > 0 && !Number.isNaN(r.q))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranges) {
    const f = BY_TYPE[r.type];
    if (f) return f;
  }
  throw notAcceptable(`Accept: "${accept.slice(0, 100)}" names no type this document has`);
}
