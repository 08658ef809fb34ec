// `einvoice render BODY.json [--uuid UUID]`: prints the PINT-AE XML of a Partner API InvoiceCreateBody.
// `--html` / `--pdf`: prints instead the bilingual rendition (src/rendition) of that XML, or of a PINT-AE XML
// file given in place of the body (a file whose first non-blank character is "<").
//
// Exit 0: XML on stdout. Exit 1: the body is refused, by the shape validation (heldReason
// "validation_failed", as the API's 400) or by the pre-submit checks (the API's 201 held); stderr gets
// {heldReason, heldErrors} as JSON. Exit 2: usage error, unreadable file or invalid JSON (one line).
// I/O is injected so tests run the command in-process.
import { validateInvoiceBody } from '../domain/invoice-schema';
import { preSubmitCheck, renderInvoice } from '@einvoice/pint-ae';
import { isServiceError } from '../domain/errors';
import { documentView, UNREADABLE_DOCUMENT } from '../rendition/document-view';
import { documentHtml } from '../rendition/html';
import { documentPdf } from '../rendition/pdf';

export interface RenderCommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  readFile: (p: string) => Promise<string>;
}

const USAGE =
  'usage: einvoice render BODY.json|DOCUMENT.xml [--uuid UUID] [--html|--pdf]   (BODY.json: a Partner API InvoiceCreateBody; DOCUMENT.xml: a PINT-AE invoice or credit note, with --html or --pdf; - reads stdin)';

function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}

export async function renderCommand(args: string[], io: RenderCommandIo): Promise<number> {
  let file: string | undefined;
  let documentUuid: string | undefined;
  let rendition: 'html' | 'pdf' | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--html' || a === '--pdf') {
      if (rendition) {
        io.stderr.write(`einvoice render: give one of --html and --pdf\n${USAGE}\n`);
        return 2;
      }
      rendition = a === '--html' ? 'html' : 'pdf';
    } else if (a === '--uuid') {
      documentUuid = args[++i];
      if (!documentUuid) {
        io.stderr.write(`einvoice render: --uuid needs a value\n${USAGE}\n`);
        return 2;
      }
    } else if (a === '-h' || a === '--help') {
      io.stdout.write(USAGE + '\n');
      return 0;
    } else if (a.startsWith('--') || file !== undefined) {
      io.stderr.write(`einvoice render: unexpected argument "${a}"\n${USAGE}\n`);
      return 2;
    } else {
      file = a;
    }
  }
  if (file === undefined) {
    io.stderr.write(USAGE + '\n');
    return 2;
  }

  let text: string;
  try {
    text = await io.readFile(file === '-' ? '/dev/stdin' : file);
  } catch (err) {
    io.stderr.write(`einvoice render: cannot read ${file}: ${oneLine((err as Error).message)}\n`);
    return 2;
  }
  if (text.trimStart().startsWith('<')) {
    if (!rendition) {
      io.stderr.write(`einvoice render: ${file} is XML: add --html or --pdf to render it\n${USAGE}\n`);
      return 2;
    }
    return writeRendition(text, rendition, io, file);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    io.stderr.write(`einvoice render: ${file} is not valid JSON: ${oneLine((err as Error).message)}\n`);
    return 2;
  }

  const { value, errors } = validateInvoiceBody(body);
  if (!value) {
    io.stderr.write(JSON.stringify({ heldReason: 'validation_failed', heldErrors: errors }, null, 2) + '\n');
    return 1;
  }
  const held = preSubmitCheck(value);
  if (held) {
    io.stderr.write(JSON.stringify(held, null, 2) + '\n');
    return 1;
  }
  const xml = renderInvoice(value, { documentUuid, skipChecks: true });
  if (rendition) return writeRendition(xml, rendition, io, file);
  io.stdout.write(xml + '\n');
  return 0;
}

/** The HTML page or the PDF bytes of a PINT-AE document on stdout; exit 1 when it is not one. */
async function writeRendition(xml: string, format: 'html' | 'pdf', io: RenderCommandIo, file: string): Promise<number> {
  let view;
  try {
    view = documentView(xml);
  } catch (err) {
    if (!isServiceError(err, UNREADABLE_DOCUMENT)) throw err;
    io.stderr.write(`einvoice render: ${file}: ${oneLine(err.message)}\n`);
    return 1;
  }
  if (format === 'html') io.stdout.write(documentHtml(view) + '\n');
  else io.stdout.write(await documentPdf(view));
  return 0;
}
