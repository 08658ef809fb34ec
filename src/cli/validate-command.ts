/**
 * `einvoice validate DOC.xml`: applies the native PINT-AE rules (both official Schematron files) to
 * a UBL Invoice or CreditNote and prints `{"fatal":[{id,location,text}],"warning":[...]}` on stdout.
 *
 * Exit status: 0 no fatal finding, 1 at least one fatal finding, 2 usage error, unreadable file or
 * not well-formed XML (one line on stderr).
 */
import { XmlParseError, validateDocument, type Findings } from '@einvoice/pint-ae';

export interface ValidateIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  readFile: (p: string) => Promise<string>;
}

const USAGE = 'usage: einvoice validate DOC.xml';

export async function validateCommand(args: string[], io: ValidateIo): Promise<number> {
  const fail = (message: string): number => {
    io.stderr.write(`einvoice validate: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
    return 2;
  };
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`${USAGE}\n  apply the native PINT-AE rules (both official Schematron files) to a UBL Invoice or CreditNote; prints\n  {"fatal":[{id,location,text}],"warning":[...]}; exit 0 no fatal finding, 1 a fatal finding, 2 usage error\n`);
    return 0;
  }
  if (args.length !== 1 || args[0] === '') return fail(USAGE);
  const file = args[0];
  let xml: string;
  try {
    xml = await io.readFile(file);
  } catch (err) {
    return fail(`cannot read ${file}: ${(err as Error).message}`);
  }
  let result: Findings;
  try {
    result = validateDocument(xml);
  } catch (err) {
    if (err instanceof XmlParseError) return fail(`${file} is not well-formed XML: ${err.message}`);
    throw err;
  }
  io.stdout.write(JSON.stringify(result) + '\n');
  return result.fatal.length > 0 ? 1 : 0;
}
