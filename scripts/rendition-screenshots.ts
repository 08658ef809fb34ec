// Screenshots of the rendition for the README (docs/rendition/*.png): one tax invoice, one credit note and
// one export invoice from the official PINT-AE examples, each as HTML (headless Chromium) and as the PDF's
// first page (poppler's pdftoppm). Needs `chromium` and `poppler-utils` (apt-get install -y chromium
// poppler-utils). Run: node scripts/infra/node-runtime.cjs tsx scripts/rendition-screenshots.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentView, type RenditionExtras } from '../src/rendition/document-view';
import { documentHtml } from '../src/rendition/html';
import { documentPdf } from '../src/rendition/pdf';

const ROOT = path.resolve(__dirname, '..');
const EXAMPLES = path.resolve(ROOT, '../shared/pint-ae/examples');
const OUT = path.join(ROOT, 'docs/rendition');

// The examples carry no Arabic names; these stand for what an invoice record adds (Tenant API legalNameArabic),
// and the evidence for what a delivered invoice shows.
const SHOTS: { name: string; file: string; extras: RenditionExtras }[] = [
  {
    name: 'tax-invoice',
    file: 'billing/inv/Standard tax invoice.xml',
    extras: {
      arabicNames: { seller: 'شركة المورد للتجارة العامة', buyer: 'مؤسسة النور للإلكترونيات' },
      evidence: { submissionId: 'sim-5f0c2a9e', ackRef: 'ACK-2026-000123', documentSha256: '3f1d0c5e9a7b4c2d8e6f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d', statuses: [{ status: 'accepted', at: '2026-11-27T08:00:02.114Z' }] },
    },
  },
  { name: 'credit-note', file: 'billing/cn/Standard tax credit Note.xml', extras: { arabicNames: { seller: 'شركة المورد للتجارة العامة' } } },
  { name: 'export-invoice', file: 'billing/inv/Exports.xml', extras: { arabicNames: { seller: 'شركة المورد للتجارة العامة' } } },
];

function chromium(): string {
  for (const bin of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      execFileSync(bin, ['--version'], { stdio: 'ignore' });
      return bin;
    } catch {
      // next
    }
  }
  throw new Error('no chromium: apt-get install -y chromium');
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rendition-shots-'));
  const browser = chromium();
  for (const shot of SHOTS) {
    const view = documentView(fs.readFileSync(path.join(EXAMPLES, shot.file), 'utf8'), shot.extras);
    const html = path.join(tmp, `${shot.name}.html`);
    fs.writeFileSync(html, documentHtml(view));
    execFileSync(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--window-size=1000,1400', `--screenshot=${path.join(OUT, `${shot.name}-html.png`)}`, `file://${html}`], { stdio: 'ignore' });
    const pdf = path.join(tmp, `${shot.name}.pdf`);
    fs.writeFileSync(pdf, await documentPdf(view));
    execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', pdf, path.join(OUT, `${shot.name}-pdf`)]);
    console.log(`docs/rendition/${shot.name}-html.png, docs/rendition/${shot.name}-pdf.png`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

void main();
