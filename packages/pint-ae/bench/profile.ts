// Runs one PINT-AE operation in a loop, for a CPU profile of where the time goes:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts validate 5000
// (operation: render | validate | parse; then the number of invoice lines; optional iteration count).
import { renderInvoice } from '../src/render';
import { validatePintAeNative } from '../src/rules';
import { ElementPool, parseXml } from '../src/rules/xml';
import { sampleInvoice as benchBody } from '../src/sample';

const [op = 'validate', linesArg = '1000', itersArg] = process.argv.slice(2);
const lines = Number(linesArg);
const iterations = Number(itersArg ?? Math.max(20, Math.round(200_000 / lines)));
const body = benchBody(lines);
const xml = renderInvoice(body);
const pool = new ElementPool(1 << 17);
const run = op === 'render' ? () => renderInvoice(body) : op === 'parse' ? () => parseXml(xml, pool) : () => validatePintAeNative(xml);
const t0 = process.hrtime.bigint();
for (let i = 0; i < iterations; i++) run();
const perCall = Number(process.hrtime.bigint() - t0) / 1e6 / iterations;
console.log(`${op} ${lines} lines: ${iterations} calls, ${perCall.toFixed(3)} ms per call`);
