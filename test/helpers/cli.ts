import { execFile } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve(__dirname, '../../bin/einvoice');

/** Runs the real `einvoice` binary, as an operator would, against the run's MongoDB and Temporal (same env). */
export function einvoice(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(BIN, args, { env: process.env }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
