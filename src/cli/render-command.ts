// `einvoice render BODY.json [--uuid UUID]`: prints the PINT-AE XML of a Partner API InvoiceCreateBody.
//
// Exit 0: XML on stdout. Exit 1: the body is refused, by the shape validation (heldReason
// "validation_failed", as the API's 400) or by the pre-submit checks (the API's 201 held); stderr gets
// {heldReason, heldErrors} as JSON. Exit 2: usage error, unreadable file or invalid JSON (one line).
// I/O is injected so tests run the command in-process.
import { validateInvoiceBody } from '../domain/invoice-schema';
import { preSubmitCheck } from '../domain/pre-submit';
import { renderInvoice } from '../pint-ae/render';

export interface RenderCommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  readFile: (p: string) => Promise<string>;
}

const USAGE = 'usage: einvoice render BODY.json [--uuid UUID]   (BODY.json: a Partner API InvoiceCreateBody; - reads stdin)';

function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}

export async function renderCommand(args: string[], io: RenderCommandIo): Promise<number> {
  let file: string | undefined;
  let documentUuid: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--uuid') {
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
  io.stdout.write(renderInvoice(value, { documentUuid, skipChecks: true }) + '\n');
  return 0;
}
