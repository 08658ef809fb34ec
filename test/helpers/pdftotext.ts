// poppler's pdftotext (Debian poppler-utils), which the rendition tests read PDFs back with.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Whether pdftotext is installed (the extraction tests skip, saying so, where it is not). */
export function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** pdftotext's output with its bidi embedding marks removed (it wraps right-to-left words in U+202B ... U+202C). */
export function pdfText(pdf: Buffer): string {
  const file = path.join(os.tmpdir(), `rendition-${process.pid}-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/[\u202A-\u202E\u2066-\u2069]/g, '');
  } finally {
    fs.unlinkSync(file);
  }
}
